/**
 * `tmas export DIR --format rl`: the run's generations as RL training records
 * (rl-records.ts), written as JSONL and as Parquet with nested list and struct
 * columns (rl-parquet.ts), a row group at a time, so an export never holds the
 * run in memory. A run with nothing to export is a user error: no files are
 * left behind and the exit code is 2.
 */
import os from 'node:os';
import path from 'node:path';
import { ParquetWriter, fileWriter } from 'hyparquet-writer';
import { UserError } from '../kernel/errors.ts';
import { openRun } from '../analysis/open-run.ts';
import { createOutputFile, outputError, type OutputFile } from '../host/output-file.ts';
import { rlRecords, type RlRecord } from './rl-records.ts';
import { RL_SCHEMA, toColumns } from './rl-parquet.ts';

export type { RlRecord } from './rl-records.ts';

const ROW_GROUP = 1000;

/** What an export found: the record count, per data source. */
interface ExportCounts {
  records: number;
  bySource: Record<string, number>;
}

/**
 * Writes `<out>.jsonl` and `<out>.parquet`; returns the paths and the record count, one per generation.
 * Both are written under temporary names and renamed once whole (output-file.ts); a place that cannot
 * be written is refused before the store is read.
 */
export async function runExportCommand(runDir: string, options: { format: string; out?: string }): Promise<{ jsonl: string; parquet: string } & ExportCounts> {
  if (options.format !== 'rl') throw new UserError('TMAS_USAGE', `--format ${options.format}: the only export format is rl.`);
  const base = options.out ?? path.join(runDir, 'export-rl');
  const advice =
    options.out === undefined
      ? `give --out a path in a writable folder (without --out the export goes into the run directory), e.g. --out ${path.join(os.tmpdir(), `${path.basename(path.resolve(runDir))}-rl`)}`
      : 'give --out a path in a folder that exists and is writable';
  const jsonl = await createOutputFile(`${base}.jsonl`, { advice });
  const parquet = await createOutputFile(`${base}.parquet`, { advice }).catch(async (error: unknown) => {
    await jsonl.discard();
    throw error;
  });
  try {
    const counts = await writeRecords(runDir, jsonl, parquet, advice);
    if (counts.records === 0) {
      throw new UserError('TMAS_EXPORT_EMPTY', `${runDir} has no journaled generation to export (no call of the run completed). Nothing was written.`);
    }
    await jsonl.commit();
    await parquet.commit();
    return { jsonl: jsonl.file, parquet: parquet.file, ...counts };
  } catch (error) {
    await Promise.all([jsonl.discard(), parquet.discard()]);
    throw error;
  }
}

/** Streams the run's records into both files, a row group at a time into Parquet. */
async function writeRecords(runDir: string, jsonl: OutputFile, parquetFile: OutputFile, advice: string): Promise<ExportCounts> {
  // An export reads every generation: every block is checked first, so a corrupt one is named, never exported as other text.
  const { store, manifest } = await openRun(runDir, undefined, { everyBlock: true });
  const counts: ExportCounts = { records: 0, bySource: {} };
  // Parquet's writer writes to its file synchronously: its errors (a full disk) are the output's.
  const parquetWrite = <T>(write: () => T): T => {
    try {
      return write();
    } catch (error) {
      throw (error as NodeJS.ErrnoException).code === undefined ? error : outputError(parquetFile.file, error, advice);
    }
  };
  try {
    const writer = parquetWrite(() => new ParquetWriter({ writer: fileWriter(parquetFile.partial), schema: RL_SCHEMA }));
    let rows: RlRecord[] = [];
    for await (const record of rlRecords(store, { proof: manifest.config.proof, strategy: manifest.strategy })) {
      await jsonl.write(`${JSON.stringify(record)}\n`);
      rows.push(record);
      counts.records++;
      counts.bySource[record.data_source] = (counts.bySource[record.data_source] ?? 0) + 1;
      if (rows.length >= ROW_GROUP) {
        parquetWrite(() => writer.write({ columnData: toColumns(rows) }));
        rows = [];
      }
    }
    if (rows.length > 0) parquetWrite(() => writer.write({ columnData: toColumns(rows) }));
    parquetWrite(() => writer.finish());
  } finally {
    await store.close();
  }
  return counts;
}
