/** `npm run bench` records each benchmark's rows in the tracked results file, replacing only what it ran. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { writeBenchJson, type BenchReport } from '../../bench/report.ts';
import { BENCH_RESULTS_FILE, type BenchResults } from '../../bench/results-file.ts';
import type { BenchRow } from '../../bench/harness/types.ts';
import { test } from '../fixtures.ts';

const machine = { cpus: 2, cpu: 'test', memoryGb: 4, node: process.version };

function row(figure: string, measured: string): BenchRow {
  return { figure, target: '—', measured, pass: null };
}

/** A report of one `npm run bench` run of the named benchmarks, one row each. */
function report(startedAt: string, ran: Array<{ name: string; measured: string; failed?: boolean }>, sizes = { quick: false, full: false }): BenchReport {
  const benchmarks = ran.map(({ name, measured, failed }) => ({ name, rows: [row(`${name}: figure`, measured)], failed: failed ?? false }));
  return { startedAt, wallSeconds: 1, ...sizes, machine, rows: benchmarks.flatMap((b) => b.rows), benchmarks };
}

async function readResults(file: string): Promise<BenchResults> {
  return JSON.parse(await readFile(file, 'utf8')) as BenchResults;
}

test('a run replaces the entries of the benchmarks it ran and keeps the others and the recorded figures', async ({ dir }) => {
  const file = path.join(dir, 'bench', 'results.json');
  const recorded = [{ benchmark: 'capacity', figures: [{ figure: 'by hand', measured: '1.016x' }] }];
  const first = await writeBenchJson(report('2026-01-01T00:00:00.000Z', [{ name: 'dedup', measured: '10 ms' }, { name: 'store', measured: '11 MB' }]), file);
  expect(first.resultsFile).toBe(file);
  // The whole run also goes to the temp directory, without the per-benchmark copy.
  expect(JSON.parse(await readFile(first.file, 'utf8'))).toMatchObject({ rows: [{ measured: '10 ms' }, { measured: '11 MB' }] });

  const seeded = await readResults(file);
  await writeFile(file, JSON.stringify({ ...seeded, recorded }));
  await writeBenchJson(report('2026-02-02T00:00:00.000Z', [{ name: 'dedup', measured: '12 ms' }, { name: 'view', measured: 'boom', failed: true }]), file);

  const merged = await readResults(file);
  expect(Object.keys(merged.benchmarks)).toEqual(['dedup', 'store']);
  expect(merged.benchmarks.dedup).toMatchObject({ date: '2026-02-02T00:00:00.000Z', quick: false, machine, rows: [{ measured: '12 ms' }] });
  expect(merged.benchmarks.store).toMatchObject({ date: '2026-01-01T00:00:00.000Z', rows: [{ measured: '11 MB' }] });
  // This repository is a git checkout: each entry names the commit it was measured at.
  expect(merged.benchmarks.dedup?.commit).toMatch(/^[0-9a-f]{40}$/);
  expect(merged.recorded).toEqual(recorded);
});

test('a --full run is kept beside the default sizes, and a --quick run is not recorded', async ({ dir }) => {
  const file = path.join(dir, 'bench', 'results.json');
  await writeBenchJson(report('2026-01-01T00:00:00.000Z', [{ name: 'memory', measured: '400 MB' }]), file);
  await writeBenchJson(report('2026-01-02T00:00:00.000Z', [{ name: 'memory', measured: '440 MB' }], { quick: false, full: true }), file);
  const quick = await writeBenchJson(report('2026-01-03T00:00:00.000Z', [{ name: 'memory', measured: '90 MB' }], { quick: true, full: false }), file);
  expect(quick.resultsFile).toBeNull();
  const merged = await readResults(file);
  expect(Object.keys(merged.benchmarks)).toEqual(['memory', 'memory:full']);
  expect(merged.benchmarks.memory?.rows).toMatchObject([{ measured: '400 MB' }]);
  expect(merged.benchmarks['memory:full']).toMatchObject({ full: true, rows: [{ measured: '440 MB' }] });
});

test('the tracked results file is the checkout\'s bench/results.json, and every entry says when and where it was measured', async () => {
  expect(path.relative(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'), BENCH_RESULTS_FILE)).toBe(path.join('bench', 'results.json'));
  const results = await readResults(BENCH_RESULTS_FILE);
  // The figures the guide points at: the capacity benchmark's, which carry the targets.
  expect(results.benchmarks.capacity?.rows.length).toBeGreaterThan(0);
  for (const entry of Object.values(results.benchmarks)) {
    expect(entry.rows.length).toBeGreaterThan(0);
    expect(entry.date).toBeTruthy();
    expect(entry.machine).toBeTruthy();
    expect(entry.commit === null || /^[0-9a-f]{40}$/.test(entry.commit)).toBe(true);
  }
});
