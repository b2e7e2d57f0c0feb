/**
 * A run as the runs page lists it: strategy, models, N/M/T, grading,
 * final Pass@1, calls and status, and what comparing it with other runs needs
 * (its evaluation block, problem ids, curves). A finished run is listed from its
 * metrics.json alone, without opening its store; a run without one (going on
 * in another process, or stopped before writing it) from its open store.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isUserError, UserError } from '../kernel/errors.ts';
import type { IterationMetrics } from '../observers/metrics.ts';
import { gradingOf } from '../report/load.ts';
import { metricsFileOf, type MetricsFile } from '../report/metrics-file.ts';
import type { ComparedRun } from '../report/comparable.ts';
import type { ViewedRun } from './viewed-run.ts';
import { describeForcedChange, type ForcedChange } from '../store/store.ts';

/** Whether a run is being written by a process (`live`), ended with every iteration done, or ended before. */
export type RunStatus = 'live' | 'done' | 'stopped' | 'error';

/** One row of the runs page. */
export interface RunListing {
  index: number;
  /** The run's path below the folder given. */
  label: string;
  dir: string;
  status: RunStatus;
  /** Why the run cannot be shown (a damaged store, an unreadable folder): a stable code and a message. */
  error: { code: string; message: string } | null;
  strategy: string | null;
  /** Each distinct model, e.g. `tmas-sim`. */
  models: string[];
  n: number | null;
  m: number | null;
  t: number | null;
  /** `rule`, or the judge's model and passes (as the report labels it). */
  grading: string | null;
  proof: boolean | null;
  /** Pass@1 of the last completed iteration. */
  pass1: number | null;
  /** Iterations completed (of T). */
  iterations: number;
  calls: number | null;
  problems: number | null;
  simulated: boolean;
  /** Each `--resume --force` that changed call-shaping settings after iterations were done (`--temperature changed on resume after iteration 0`): its first iterations were made otherwise than its settings say. */
  forcedChanges: string[];
}

/** What the overlay of several runs reads of each: its row, curves and comparison basis. */
export interface RunFacts extends ComparedRun {
  listing: RunListing;
  iterations: IterationMetrics[];
}

/** metrics.json's fields the listing reads beyond the report's. */
export type ListedMetrics = MetricsFile & {
  incomplete?: unknown[];
  forcedChanges?: ForcedChange[];
  models?: Record<string, string>;
  evaluation?: MetricsFile['evaluation'] & { strategy?: string; nCandidates?: number; nVerifications?: number; proof?: boolean; models?: Record<string, string> };
};

/** A run's metrics.json, or null when it has none (a run going on, or stopped before writing it); TMAS_RUN_DIR when it cannot be read. */
export async function readRunMetrics(dir: string): Promise<ListedMetrics | null> {
  const file = path.join(dir, 'metrics.json');
  try {
    return metricsFileOf<ListedMetrics>(JSON.parse(await readFile(file, 'utf8')), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // A newer tmas's file (TMAS_OUTPUT_FORMAT) says so as it is.
    if (isUserError(error)) throw error;
    throw new UserError('TMAS_RUN_DIR', `Cannot read ${file}: ${(error as Error).message}. Rewrite it from the store with: tmas run --resume ${dir}`, { cause: error });
  }
}

/** An empty row for a run: filled from its metrics.json or its store, or left with its error. */
export function blankListing(index: number, label: string, dir: string, error: RunListing['error']): RunListing {
  return { index, label, dir, status: error ? 'error' : 'stopped', error, strategy: null, models: [], n: null, m: null, t: null, grading: null, proof: null, pass1: null, iterations: 0, calls: null, problems: null, simulated: false, forcedChanges: [] };
}

function lastPass1(iterations: IterationMetrics[]): number | null {
  return iterations.at(-1)?.pass1 ?? null;
}

/** The facts of a finished run, from its metrics.json; `live` when another process holds its lock (a resume going on). */
export function factsFromMetrics(base: RunListing, metrics: ListedMetrics, live: boolean): RunFacts {
  const evaluation = metrics.evaluation ?? null;
  const iterations = metrics.iterations ?? [];
  const t = evaluation?.maxIterations ?? null;
  const complete = (metrics.incomplete ?? []).length === 0 && (t === null || iterations.length >= t);
  const listing: RunListing = {
    ...base,
    status: live ? 'live' : complete ? 'done' : 'stopped',
    strategy: evaluation?.strategy ?? null,
    models: [...new Set(Object.values(metrics.models ?? evaluation?.models ?? {}))],
    n: evaluation?.nCandidates ?? null,
    m: evaluation?.nVerifications ?? null,
    t,
    grading: gradingOf(metrics, evaluation?.judge?.passes),
    proof: evaluation?.proof ?? null,
    pass1: metrics.totals?.final?.pass1 ?? lastPass1(iterations),
    iterations: iterations.length,
    calls: metrics.totals?.calls ?? iterations.reduce((sum, it) => sum + it.calls, 0),
    problems: metrics.totals?.problems ?? metrics.problems?.length ?? null,
    simulated: metrics.simulated === true,
    forcedChanges: (metrics.forcedChanges ?? []).map(describeForcedChange),
  };
  // The strategy and the problems failed calls stopped choose the reference among groups of one size, as in the report.
  const problems = (metrics.problems ?? []).map((p) => ({ problem: p.problem }));
  return { listing, iterations, evaluation, problems, maxIterations: t, grading: listing.grading ?? '?', strategy: listing.strategy, stopped: metrics.incomplete ?? [] };
}

/** A run's row as its manifest says it, before any figure of its store: status, strategy, models, N/M/T, grading, settings changed on resume. */
export function manifestListing(base: RunListing, run: ViewedRun, grading: string): RunListing {
  const { config } = run.manifest;
  return {
    ...base,
    status: run.live() ? 'live' : 'stopped',
    strategy: run.manifest.strategy,
    models: [...new Set(Object.values(config.roles.endpoints).map((endpoint) => (endpoint.baseUrl === null ? 'simulated' : endpoint.model)))],
    n: config.loop.nCandidates,
    m: config.loop.nVerifications,
    t: config.loop.maxIterations,
    grading,
    proof: config.loop.proof,
    simulated: run.manifest.simulated,
    forcedChanges: (run.manifest.forcedChanges ?? []).map(describeForcedChange),
  };
}

/** The facts of a run read from its open store: one going on, or stopped before its metrics.json was written. Folds its log: for a run opened, never for a row of the list (store-listing.ts). */
export async function factsFromRun(base: RunListing, run: ViewedRun): Promise<RunFacts> {
  const { config } = run.manifest;
  const iterations = await run.curves();
  const listing: RunListing = {
    ...manifestListing(base, run, gradingOf({ iterations }, config.judge.passes)),
    pass1: lastPass1(iterations),
    iterations: iterations.length,
    calls: iterations.reduce((sum, it) => sum + it.calls, 0),
  };
  const problems: Array<{ problem: string }> = [];
  for await (const value of run.store.problems().values()) problems.push({ problem: (value as { id: string }).id });
  listing.problems = problems.length;
  // No evaluation block before metrics.json is written: the comparison says so rather than guessing it.
  return { listing, iterations, evaluation: null, problems, maxIterations: config.loop.maxIterations, grading: listing.grading ?? '?', strategy: listing.strategy };
}
