/**
 * The benchmark table (figure, target, measured, pass/fail) and its JSON twin.
 */
import os from 'node:os';
import path from 'node:path';
import { writeOutputFile } from '../host/output-file.ts';
import type { BenchRow } from './types.ts';

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

/** Writes the report as JSON under the system temp directory and returns the path. */
export async function writeBenchJson(report: { startedAt: string; wallSeconds: number; quick: boolean; full: boolean; machine: object; rows: BenchRow[] }): Promise<string> {
  const file = path.join(os.tmpdir(), `tmas-bench-${report.startedAt.replace(/[:.]/g, '-')}.json`);
  await writeOutputFile(file, `${JSON.stringify(report, null, 2)}\n`, { advice: 'set TMPDIR to a writable folder' });
  return file;
}
