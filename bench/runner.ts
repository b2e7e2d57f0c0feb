/**
 * `npm run bench`: runs the benchmarks one after another (never in parallel: they
 * measure the same two cores), prints one table and writes it as JSON.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { capacityAblationsBenchmark, capacityBenchmark, capacitySpreadBenchmark } from './capacity/capacity.bench.ts';
import { capacityChainsBenchmark } from './capacity/capacity-chains.bench.ts';
import { capacityReplicasBenchmark } from './capacity/capacity-replicas.bench.ts';
import { dedupBenchmark } from './parts/dedup.bench.ts';
import { scheduleBenchmark } from './schedule/schedule.bench.ts';
import { planBenchmark } from './runs/plan.bench.ts';
import { storeBenchmark } from './runs/store.bench.ts';
import { eventLoopBenchmark } from './runs/event-loop.bench.ts';
import { streamChunksBenchmark } from './runs/stream-chunks.bench.ts';
import { memoryBenchmark } from './runs/memory.bench.ts';
import { overheadBenchmark } from './runs/overhead.bench.ts';
import { pipeliningBenchmark } from './runs/pipelining.bench.ts';
import { replayExportBenchmark } from './read-back/replay-export.bench.ts';
import { graderBenchmark } from './parts/grader.bench.ts';
import { formatBreaksBenchmark } from './runs/format-breaks.bench.ts';
import { rseWindowBenchmark } from './runs/rse-window.bench.ts';
import { viewBenchmark } from './read-back/view.bench.ts';
import { openRunBenchmark } from './read-back/open-run.bench.ts';
import { formatBenchTable, writeBenchJson } from './report.ts';
import { tokenizerBenchmark } from './parts/tokenizer.bench.ts';
import type { Benchmark, BenchRow } from './harness/types.ts';
import { TmasError } from '../src/kernel/errors.ts';
import { BENCHMARK_NAMES, checkBenchmarkNames } from './benchmark-names.ts';

/** Every benchmark, in the order of the issue. */
export const BENCHMARKS: Benchmark[] = [overheadBenchmark, pipeliningBenchmark, capacityBenchmark, capacityReplicasBenchmark, capacityChainsBenchmark, capacityAblationsBenchmark, capacitySpreadBenchmark, scheduleBenchmark, planBenchmark, eventLoopBenchmark, streamChunksBenchmark, memoryBenchmark, storeBenchmark, dedupBenchmark, tokenizerBenchmark, replayExportBenchmark, graderBenchmark, formatBreaksBenchmark, rseWindowBenchmark, viewBenchmark, openRunBenchmark];

// The help lists BENCHMARK_NAMES without loading the benchmarks: the two lists are one.
if (BENCHMARKS.map((benchmark) => benchmark.name).join() !== BENCHMARK_NAMES.join()) {
  throw new TmasError('TMAS_INTERNAL', `bench/benchmark-names.ts lists ${BENCHMARK_NAMES.join(', ')}; the runner has ${BENCHMARKS.map((benchmark) => benchmark.name).join(', ')}`);
}

/** Options of `npm run bench`. */
export interface BenchOptions {
  quick: boolean;
  full: boolean;
  /** Names of the benchmarks to run; all when empty. */
  only: string[];
  /** Keep the run directories (for profiling or inspection). */
  keep: boolean;
}

/** Runs the benchmarks, prints the table on stdout and returns the JSON path. */
export async function runBenchmarks(options: BenchOptions, io: { stdout(line: string): void; stderr(line: string): void }): Promise<string> {
  checkBenchmarkNames(options.only);
  const chosen = options.only.length === 0 ? BENCHMARKS : BENCHMARKS.filter((benchmark) => options.only.includes(benchmark.name));
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const rows: BenchRow[] = [];
  const ran: { name: string; rows: BenchRow[]; failed: boolean }[] = [];
  for (const benchmark of chosen) {
    const dir = await mkdtemp(path.join(os.tmpdir(), `tmas-bench-${benchmark.name}-`));
    const t0 = performance.now();
    const first = rows.length;
    let failed = false;
    try {
      rows.push(...(await benchmark.run({ quick: options.quick, full: options.full, dir, log: (line) => io.stderr(`bench ${line}`) })));
    } catch (error) {
      failed = true;
      rows.push({ figure: `${benchmark.name}: failed`, target: '—', measured: error instanceof Error ? error.message : String(error), pass: false });
    } finally {
      if (!options.keep) await rm(dir, { recursive: true, force: true });
      io.stderr(`bench ${benchmark.name}: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    ran.push({ name: benchmark.name, rows: rows.slice(first), failed });
  }
  const wallSeconds = (performance.now() - started) / 1000;
  io.stdout(formatBenchTable(rows));
  io.stdout(`\n${chosen.length} benchmarks in ${wallSeconds.toFixed(0)} s${options.quick ? ' (--quick sizes)' : ''}; the model is the simulator (tmas sim-server), not a real LLM.`);
  const machine = { cpus: os.availableParallelism(), cpu: os.cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version };
  const { file, resultsFile } = await writeBenchJson({ startedAt, wallSeconds, quick: options.quick, full: options.full, machine, rows, benchmarks: ran });
  io.stdout(`JSON: ${file}; ${resultsFile === null ? '--quick sizes are not recorded in bench/results.json' : `each benchmark's rows recorded in ${resultsFile}`}`);
  return file;
}
