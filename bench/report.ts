/**
 * The benchmark table (figure, target, measured, pass/fail) and its JSON twins:
 * the whole run under the temp directory, and each benchmark's rows merged
 * into the tracked bench/results.json (results-file.ts).
 */
import os from 'node:os';
import path from 'node:path';
import { writeOutputFile } from '../src/host/outputs/output-file.ts';
import { BENCH_RESULTS_FILE, recordBenchResults } from './results-file.ts';
import type { BenchRow } from './harness/types.ts';

/** The rows as a plain-text table, notes under their row. */
export function formatBenchTable(rows: BenchRow[]): string {
  const verdict = (row: BenchRow) => (row.pass === null ? '' : row.pass ? 'pass' : 'FAIL');
  const columns = [
    { title: 'figure', value: (row: BenchRow) => row.figure },
    { title: 'target', value: (row: BenchRow) => row.target },
    { title: 'measured', value: (row: BenchRow) => row.measured },
    { title: 'pass/fail', value: verdict },
  ];
  const widths = columns.map((column) => Math.max(column.title.length, ...rows.map((row) => column.value(row).length)));
  const line = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join('  ').trimEnd();
  const out = [line(columns.map((column) => column.title)), line(widths.map((width) => '-'.repeat(width)))];
  for (const row of rows) {
    out.push(line(columns.map((column) => column.value(row))));
    if (row.note) out.push(`    ${row.note}`);
  }
  return out.join('\n');
}

/** What one `npm run bench` run measured: every row, and which benchmark gave which. */
export interface BenchReport {
  startedAt: string;
  wallSeconds: number;
  quick: boolean;
  full: boolean;
  machine: object;
  rows: BenchRow[];
  /** The rows again, by benchmark; a failed benchmark keeps its recorded figures. */
  benchmarks: { name: string; rows: BenchRow[]; failed: boolean }[];
}

/**
 * Writes the report as JSON under the system temp directory, merges each
 * benchmark's rows into `resultsFile` (bench/results.json of the checkout)
 * unless the run was `--quick`, and returns both paths (`resultsFile` null
 * when nothing was recorded).
 */
export async function writeBenchJson(report: BenchReport, resultsFile: string = BENCH_RESULTS_FILE): Promise<{ file: string; resultsFile: string | null }> {
  const file = path.join(os.tmpdir(), `tmas-bench-${report.startedAt.replace(/[:.]/g, '-')}.json`);
  const { benchmarks, ...whole } = report;
  await writeOutputFile(file, `${JSON.stringify(whole, null, 2)}\n`, { advice: 'set TMPDIR to a writable folder' });
  const recorded = await recordBenchResults({ startedAt: report.startedAt, quick: report.quick, full: report.full, machine: report.machine, benchmarks }, resultsFile);
  return { file, resultsFile: recorded === null ? null : resultsFile };
}
