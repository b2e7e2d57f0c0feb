/**
 * bench/results.json: the benchmark figures the docs point at, kept in the
 * repository. Each `npm run bench` replaces the entry of every benchmark it ran
 * (keyed by the benchmark's name, with the date, the commit and the machine)
 * and keeps the others, so the file holds each benchmark's latest figures
 * whichever subset was run last. A `--full` run is kept under `<name>:full`
 * beside the default sizes' entry (one does not replace the other), and a
 * `--quick` run is not recorded at all: its sizes are for development. Figures recorded by hand (`recorded`, and
 * entries seeded from the README of before 2026-11-26) stay until a run
 * replaces their benchmark.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { writeOutputFile } from '../src/host/outputs/output-file.ts';
import path from 'node:path';
import { FROM_BUILD, PACKAGE_ROOT } from '../src/kernel/package-root.ts';
import type { BenchRow } from './harness/types.ts';

/** The checkout: PACKAGE_ROOT itself, or the folder that holds the build (dist/). */
const CHECKOUT = FROM_BUILD ? path.dirname(PACKAGE_ROOT) : PACKAGE_ROOT;

/** The tracked results file of this checkout. */
export const BENCH_RESULTS_FILE = path.join(CHECKOUT, 'bench', 'results.json');

/** One benchmark's latest figures and where they were measured. */
export interface BenchResultEntry {
  /** When the run started (ISO 8601). */
  date: string;
  /** The commit the checkout was at, or null outside a git checkout. */
  commit: string | null;
  /** Whether tracked files other than this results file differed from that commit (absent on seeded entries). */
  dirty?: boolean;
  /** CPUs, CPU model, memory and Node version; a description in words on seeded entries. */
  machine: object | string;
  /** `--quick` sizes (smaller than the benchmark's own); always false since quick runs stopped being recorded. */
  quick: boolean;
  /** `--full` sizes (the issue's, where the default scales them down). */
  full: boolean;
  rows: BenchRow[];
  /** Set only on figures not written by `npm run bench` (e.g. "recorded in README before 2026-11-26"). */
  source?: string;
}

/** The whole file: one entry per benchmark, plus figures recorded by hand that no run replaces. */
export interface BenchResults {
  about: string;
  benchmarks: Record<string, BenchResultEntry>;
  recorded?: unknown[];
}

/** What one `npm run bench` run adds: the benchmarks it ran, each with its rows. */
export interface BenchRun {
  startedAt: string;
  quick: boolean;
  full: boolean;
  machine: object;
  benchmarks: { name: string; rows: BenchRow[]; failed: boolean }[];
}

const ABOUT =
  'Figures of `npm run bench` (bench/), one entry per benchmark: each run replaces the entries of the benchmarks it ran. ' +
  'docs/guide/benchmarks.md says what each benchmark measures. The model is always tmas\'s simulator, never an LLM.';

/** The commit of the checkout and whether its tracked files (this file aside) differ from it; null and false outside git. */
function gitState(): { commit: string | null; dirty: boolean } {
  const git = (args: string[]) => execFileSync('git', args, { cwd: CHECKOUT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const commit = git(['rev-parse', 'HEAD']);
    const changed = git(['status', '--porcelain', '--untracked-files=no', '--', '.', `:!${path.relative(CHECKOUT, BENCH_RESULTS_FILE)}`]);
    return { commit, dirty: changed !== '' };
  } catch {
    return { commit: null, dirty: false };
  }
}

/** The key of a benchmark's entry: its name, with `:full` for the full sizes. */
export function benchEntryKey(name: string, full: boolean): string {
  return full ? `${name}:full` : name;
}

/**
 * Merges a run into the results file at `file` and returns the merged
 * contents; null for a `--quick` run, which leaves the file as it was. A
 * benchmark that failed keeps its earlier figures. Written to a
 * temporary name and renamed, so a kill never leaves half a file.
 */
export async function recordBenchResults(run: BenchRun, file: string = BENCH_RESULTS_FILE): Promise<BenchResults | null> {
  if (run.quick) return null;
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  const previous = text === null ? null : (JSON.parse(text) as Partial<BenchResults>);
  const { commit, dirty } = gitState();
  const benchmarks: Record<string, BenchResultEntry> = { ...(previous?.benchmarks ?? {}) };
  for (const benchmark of run.benchmarks) {
    if (benchmark.failed) continue;
    benchmarks[benchEntryKey(benchmark.name, run.full)] = { date: run.startedAt, commit, dirty, machine: run.machine, quick: run.quick, full: run.full, rows: benchmark.rows };
  }
  // Sorted by name, so that a run changes only the lines of what it ran.
  const sorted = Object.fromEntries(Object.entries(benchmarks).sort(([a], [b]) => a.localeCompare(b)));
  const merged: BenchResults = { about: previous?.about ?? ABOUT, benchmarks: sorted, ...(previous?.recorded ? { recorded: previous.recorded } : {}) };
  await mkdir(path.dirname(file), { recursive: true });
  await writeOutputFile(file, `${JSON.stringify(merged, null, 2)}\n`, { advice: 'check that bench/ of the checkout is writable' });
  return merged;
}
