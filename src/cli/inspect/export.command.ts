/**
 * `tmas export DIR --format rl`: the run's generations as RL training records
 * (rl-records.ts), written as JSONL and as Parquet with nested list and struct
 * columns (rl-parquet.ts), a row group at a time, so an export never holds the
 * run in memory. `--out PATH` without an extension writes both, PATH.jsonl and
 * PATH.parquet; a PATH ending in .jsonl or .parquet writes that file alone. A
 * run with nothing to export is a user error: no files are left behind and the
 * exit code is 2.
 */
import os from 'node:os';
import path from 'node:path';
import { ParquetWriter, fileWriter } from 'hyparquet-writer';
import { UserError } from '../../kernel/errors.ts';
import { openRun, requireFinishedRun, requireRunDir } from '../../analysis/open-run.ts';
import { createOutputFile, outputError, type OutputFile } from '../../host/outputs/output-file.ts';
import { rlRecords, type RlRecord } from './rl-records.ts';
import { RL_SCHEMA, toColumns } from './rl-parquet.ts';

export type { RlRecord } from './rl-records.ts';

const ROW_GROUP = 1000;

/** Extensions of other formats than the two an export writes: an --out ending in one is refused rather than given a second extension. */
const OTHER_FORMATS = new Set(['.json', '.ndjson', '.csv', '.tsv', '.txt', '.pq', '.arrow', '.feather']);

/** What an export found: the record count, per data source. */
interface ExportCounts {
  records: number;
  bySource: Record<string, number>;
}

/** The files an export writes: both for a path without an extension (the default: <dir>/export-rl), or the one a path's extension names. */
export function exportFiles(runDir: string, out: string | undefined): { jsonl?: string; parquet?: string } {
  if (out === undefined) return { jsonl: path.join(runDir, 'export-rl.jsonl'), parquet: path.join(runDir, 'export-rl.parquet') };
  const extension = path.extname(out).toLowerCase();
  if (extension === '.jsonl') return { jsonl: out };
  if (extension === '.parquet') return { parquet: out };
  if (OTHER_FORMATS.has(extension)) {
    const stem = out.slice(0, -extension.length);
    throw new UserError(
      'TMAS_USAGE',
      `--out ${out}: an export is written as JSONL or Parquet. Give --out ${stem}.jsonl or --out ${stem}.parquet for one of them, or --out ${stem} (no extension) for both.`,
    );
  }
  return { jsonl: `${out}.jsonl`, parquet: `${out}.parquet` };
}

/**
 * Writes the export's files (exportFiles); returns their paths and the record count, one per generation.
 * Each is written under a temporary name and renamed once whole (output-file.ts); a place that cannot
 * be written is refused before the store is read.
 */
export async function runExportCommand(runDir: string, options: { format: string; out?: string }): Promise<{ jsonl?: string; parquet?: string } & ExportCounts> {
  if (options.format !== 'rl') throw new UserError('TMAS_USAGE', `--format ${options.format}: the only export format is rl.`);
  const targets = exportFiles(runDir, options.out);
  // A mistyped run directory is named as such, not as a folder the export cannot write to; a run still being written would export only its calls so far.
  requireRunDir(runDir);
  await requireFinishedRun(runDir, 'an export');
  const advice =
    options.out === undefined
      ? `give --out a path in a writable folder (without --out the export goes into the run directory), e.g. --out ${path.join(os.tmpdir(), `${path.basename(path.resolve(runDir))}-rl`)}`
      : 'give --out a path in a folder that exists and is writable';
  const outputs: { jsonl: OutputFile | null; parquet: OutputFile | null } = { jsonl: null, parquet: null };
  try {
    if (targets.jsonl !== undefined) outputs.jsonl = await createOutputFile(targets.jsonl, { advice });
    if (targets.parquet !== undefined) outputs.parquet = await createOutputFile(targets.parquet, { advice });
    const counts = await writeRecords(runDir, outputs, advice);
    if (counts.records === 0) {
      throw new UserError('TMAS_EXPORT_EMPTY', `${runDir} has no journaled generation to export (no call of the run completed). Nothing was written.`);
    }
    await outputs.jsonl?.commit();
    await outputs.parquet?.commit();
    return { ...targets, ...counts };
  } catch (error) {
    await Promise.all([outputs.jsonl?.discard(), outputs.parquet?.discard()]);
    throw error;
  }
}

/**
 * Parquet rows written a row group at a time. Its writer is made with the
 * first row group: it creates its file at once, and an export killed before
 * would leave it empty.
 */
function parquetRows(file: OutputFile, advice: string) {
  let writer: ParquetWriter | null = null;
  let rows: RlRecord[] = [];
  // Parquet's writer writes to its file synchronously: its errors (a full disk) are the output's.
  const write = <T>(act: () => T): T => {
    try {
      return act();
    } catch (error) {
      throw (error as NodeJS.ErrnoException).code === undefined ? error : outputError(file.file, error, advice);
    }
  };
  const writeGroup = () => {
    writer ??= write(() => new ParquetWriter({ writer: fileWriter(file.partial), schema: RL_SCHEMA }));
    const group = toColumns(rows);
    rows = [];
    write(() => (writer as ParquetWriter).write({ columnData: group }));
  };
  return {
    add(record: RlRecord): void {
      rows.push(record);
      if (rows.length >= ROW_GROUP) writeGroup();
    },
    finish(): void {
      if (rows.length > 0) writeGroup();
      if (writer !== null) write(() => (writer as ParquetWriter).finish());
    },
  };
}

/** Streams the run's records into the export's files. */
async function writeRecords(runDir: string, outputs: { jsonl: OutputFile | null; parquet: OutputFile | null }, advice: string): Promise<ExportCounts> {
  // An export reads every generation: every block is checked first, so a corrupt one is named, never exported as other text.
  const { store, manifest } = await openRun(runDir, undefined, { everyBlock: true, journal: { none: 'An export would hold none of its generations', some: 'An export would leave their generations out' } });
  const counts: ExportCounts = { records: 0, bySource: {} };
  const parquet = outputs.parquet === null ? null : parquetRows(outputs.parquet, advice);
  try {
    for await (const record of rlRecords(store, { proof: manifest.config.loop.proof, strategy: manifest.strategy })) {
      await outputs.jsonl?.write(`${JSON.stringify(record)}\n`);
      parquet?.add(record);
      counts.records++;
      counts.bySource[record.data_source] = (counts.bySource[record.data_source] ?? 0) + 1;
    }
    parquet?.finish();
  } finally {
    await store.close();
  }
  return counts;
}
