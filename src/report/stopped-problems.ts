/**
 * The problems a run did not take to its last iteration: those calls that
 * failed for good stopped (metrics.json's `incomplete`: that iteration is in
 * neither results.jsonl nor the figures, and neither is any later one), and
 * those a stop left behind (Ctrl-C, a kill, an endpoint down: metrics.json is
 * written on the way out, over the iterations done). A table that leaves
 * them out silently reads as a run over fewer problems (or, beside a run that
 * kept them all, as one over other problems), and its final figures as the
 * run's own, so every published table names them, with the way to finish.
 */
import path from 'node:path';
import { RUN_LOCK_FILE } from '../store/run-lock.ts';
import type { StoppedIteration } from './metrics-file.ts';

/** What a report needs of a run to say what it did not finish. */
interface RunProgress {
  stopped: StoppedIteration[];
  problems: Array<{ problem: string; iterations: unknown[] }>;
  /** T, the iterations each problem was to run (null when nothing says). */
  maxIterations: number | null;
  /** The problems the run was given, as its store holds them (null without a store to read). */
  given: number | null;
  /** The tmas process writing the run now (its directory's lock held), whose outputs are still those of an earlier moment; null or absent when none is. */
  live?: { pid: number; since: string } | null;
  /** The run directory, where its lock is. */
  dir?: string;
}

/** The problems listed by name in a note; the rest are counted. */
const LISTED = 5;

/** The problems the run was given: as its store says, else as far as its outputs say (those with a figure and those a failed call stopped). */
export function problemsRun(run: RunProgress): number {
  return run.given ?? new Set([...run.problems.map((row) => row.problem), ...run.stopped.map((entry) => entry.problem)]).size;
}

/** `2 calls that failed for good stopped 2 of 6 problems (demo-004 at iteration 0, …, first error: …)`, or null when none did. */
function stoppedByFailures(run: RunProgress): string | null {
  if (run.stopped.length === 0) return null;
  const firstStop = new Map<string, number>();
  for (const entry of run.stopped) firstStop.set(entry.problem, Math.min(entry.iteration, firstStop.get(entry.problem) ?? Infinity));
  const listed = [...firstStop].slice(0, LISTED).map(([problem, iteration]) => `${problem} at iteration ${iteration}`);
  const more = firstStop.size > LISTED ? `, and ${firstStop.size - LISTED} more (metrics.json's "incomplete" lists them)` : '';
  const failed = run.stopped.reduce((sum, entry) => sum + entry.failed, 0);
  return `${failed} call${failed === 1 ? '' : 's'} that failed for good stopped ${firstStop.size} of ${problemsRun(run)} problems (${listed.join(', ')}${more}, first error: ${run.stopped[0]?.first ?? '?'})`;
}

/** The iterations a problem's row holds, by number (its position where a row does not say). */
function iterationsOf(row: RunProgress['problems'][number]): number[] {
  return row.iterations.map((it, at) => {
    const number = (it as { iteration?: unknown } | null)?.iteration;
    return Number.isSafeInteger(number) ? (number as number) : at;
  });
}

/** The first iteration a problem lacks below its last, or null: a repair dropped it, and a resume never redoes it. */
function firstLost(row: RunProgress['problems'][number]): number | null {
  const held = new Set(iterationsOf(row));
  const last = Math.max(-1, ...held);
  for (let t = 0; t < last; t++) if (!held.has(t)) return t;
  return null;
}

/** `5 of 8 problems stopped before iteration 2 (T=3; problems per iteration: 8, 3, 0)`: those a stop left short of T, or null. */
function leftByStop(run: RunProgress): string | null {
  const T = run.maxIterations;
  if (T === null) return null;
  const failed = new Set(run.stopped.map((entry) => entry.problem));
  // A problem that finished no iteration has no figures at all: it is counted from the problems the run was given.
  const completed = run.problems.filter((row) => !failed.has(row.problem) && Math.max(-1, ...iterationsOf(row)) + 1 >= T).length;
  const short = problemsRun(run) - failed.size - completed;
  if (short <= 0) return null;
  const perIteration = Array.from({ length: T }, (_, t) => run.problems.filter((row) => iterationsOf(row).includes(t)).length);
  return `${short} of ${problemsRun(run)} problems were stopped before their last iteration, the run being interrupted (T=${T}; problems per iteration: ${perIteration.join(', ')})`;
}

/**
 * `1 of 3 problems lost an iteration before their last one (p1 at iteration 0) …`, or null: a repair dropped those
 * records, a resume does not redo them, and the figures at those iterations count without the problem. Before, such
 * a run read as one stopped early, its counts per iteration reversed, with a resume to finish it that did nothing.
 */
function lostIterations(run: RunProgress): string | null {
  const lost = run.problems.flatMap((row) => {
    const at = firstLost(row);
    return at === null ? [] : [`${row.problem} at iteration ${at}`];
  });
  if (lost.length === 0) return null;
  const listed = lost.slice(0, LISTED).join(', ') + (lost.length > LISTED ? `, and ${lost.length - LISTED} more` : '');
  const where = run.dir === undefined ? 'DIR' : run.dir;
  return `${lost.length} of ${problemsRun(run)} problems lost an iteration before their last one (${listed}): its store was repaired, the figures at those iterations count without them, and a resume does not redo them: tmas fork ${where} --output-file NEW runs the run again, answering every call its journal holds from it`;
}

/**
 * `the run is still being written (pid 4242, since …)`, or null. A resume taking a run further leaves
 * the outputs of its last process in place until it ends: read as they are, a run of T=2 going on to
 * T=12 reads as a finished run of T=2.
 */
function stillWritten(run: RunProgress): string | null {
  if (!run.live) return null;
  const who = run.live.pid === 0 ? 'a process starting now' : `pid ${run.live.pid}, since ${run.live.since}`;
  return `the run is still being written by a tmas process (${who}): its figures are those its last process wrote before, not its end's`;
}

/** The note on a run `describeUnfinished` names, ending with what finishes it: `remedy` for a run stopped, a later report for one still being written. */
export function unfinishedNote(run: RunProgress, remedy: string): string | null {
  const unfinished = describeUnfinished(run);
  if (unfinished === null) return null;
  if (stillWritten(run) !== null) return `${unfinished}; report it again once that process has ended${staleLockHint(run)}`;
  // A run whose only lack is iterations a repair lost says its own remedy: a resume would not finish it.
  return stoppedParts(run).length === 0 ? unfinished : `${unfinished}${remedy}`;
}

/**
 * How to clear a lock whose pid is now another program's (pids are reused: a container restarted, a
 * machine rebooted): the lock then reads as held for good, and waiting for that process never ends.
 */
function staleLockHint(run: RunProgress): string {
  if (!run.live || run.dir === undefined) return '';
  const who = run.live.pid === 0 ? 'no tmas process is starting there' : `no tmas process runs with pid ${run.live.pid}`;
  return ` (if ${who}, the lock is stale: remove ${path.join(run.dir, RUN_LOCK_FILE)})`;
}

/**
 * What the run did not finish, in one sentence that ends saying what its figures lack, or null when it finished
 * every problem it was given.
 */
export function describeUnfinished(run: RunProgress): string | null {
  const live = stillWritten(run);
  if (live !== null) return live;
  const parts = stoppedParts(run);
  const stopped = parts.length === 0 ? null : `${parts.join('; ')}: each is missing from the figures of the iteration it stopped at and every later one, and the final figures are over the problems that got there`;
  const lost = lostIterations(run);
  return stopped === null ? lost : lost === null ? stopped : `${lost}; ${stopped}`;
}

/** What stopped problems short of T: calls that failed for good, and a stop. */
function stoppedParts(run: RunProgress): string[] {
  return [stoppedByFailures(run), leftByStop(run)].filter((part): part is string => part !== null);
}
