/**
 * `tmas export DIR --format rl`: the run's generations as RL training records
 * (rl-records.ts), written as JSONL and as Parquet with nested list and struct
 * columns (rl-parquet.ts), a row group at a time, so an export never holds the
 * run in memory. A run with nothing to export is a user error: no files are
 * left behind and the exit code is 2.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { ParquetWriter, fileWriter } from 'hyparquet-writer';
import { UserError } from '../kernel/errors.ts';
import { openRun } from '../analysis/open-run.ts';
import { rlRecords, type RlRecord } from './rl-records.ts';
import { RL_SCHEMA, toColumns } from './rl-parquet.ts';

export type { RlRecord } from './rl-records.ts';

const ROW_GROUP = 1000;

/** Writes `<out>.jsonl` and `<out>.parquet`; returns the paths and the record count, one per generation. */
export async function runExportCommand(runDir: string, options: { format: string; out?: string }): Promise<{ jsonl: string; parquet: string; records: number; bySource: Record<string, number> }> {
  if (options.format !== 'rl') throw new UserError('TMAS_USAGE', `--format ${options.format}: the only export format is rl.`);
  const { store, manifest } = await openRun(runDir);
  const base = options.out ?? path.join(runDir, 'export-rl');
  const jsonlPath = `${base}.jsonl`;
  const parquetPath = `${base}.parquet`;
  let records = 0;
  const bySource: Record<string, number> = {};
  try {
    const jsonl = createWriteStream(jsonlPath);
    const parquet = new ParquetWriter({ writer: fileWriter(parquetPath), schema: RL_SCHEMA });
    let rows: RlRecord[] = [];
    for await (const record of rlRecords(store, { proof: manifest.config.proof })) {
      if (!jsonl.write(`${JSON.stringify(record)}\n`)) await once(jsonl, 'drain');
      rows.push(record);
      records++;
      bySource[record.data_source] = (bySource[record.data_source] ?? 0) + 1;
      if (rows.length >= ROW_GROUP) {
        parquet.write({ columnData: toColumns(rows) });
        rows = [];
      }
    }
    if (rows.length > 0) parquet.write({ columnData: toColumns(rows) });
    parquet.finish();
    jsonl.end();
    await finished(jsonl);
  } finally {
    await store.close();
  }
  if (records === 0) {
    await Promise.all([rm(jsonlPath, { force: true }), rm(parquetPath, { force: true })]);
    throw new UserError('TMAS_EXPORT_EMPTY', `${runDir} has no journaled generation to export (no call of the run completed). Nothing was written.`);
  }
  return { jsonl: jsonlPath, parquet: parquetPath, records, bySource };
}
