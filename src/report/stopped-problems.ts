/**
 * The problems a run lost to calls that failed for good (metrics.json's
 * `incomplete`): such a problem stopped at that iteration, which is in
 * neither results.jsonl nor the figures, and neither is any later one. A
 * table that leaves it out silently reads as a run over fewer problems (or,
 * beside a run that kept them all, as one over other problems), so every
 * published table names them, with the command that issues them again.
 */
import type { StoppedIteration } from './metrics-file.ts';

/** What a report needs of a run to say what it lost. */
interface RunWithStops {
  name: string;
  stopped: StoppedIteration[];
  problems: Array<{ problem: string }>;
}

/** The problems listed by name in a note; the rest are counted. */
const LISTED = 5;

/** The problems the run was given as far as its outputs say: those with a figure and those a failed call stopped. */
export function problemsRun(run: RunWithStops): number {
  return new Set([...run.problems.map((row) => row.problem), ...run.stopped.map((entry) => entry.problem)]).size;
}

/**
 * `calls that failed for good stopped 2 of 6 problems (demo-004 at iteration 0, demo-005 at iteration 1): …`, or null
 * when none did. Each stopped problem is named with the iteration it stopped at (its first, should a file list more).
 */
export function describeStopped(run: RunWithStops): string | null {
  if (run.stopped.length === 0) return null;
  const firstStop = new Map<string, number>();
  for (const entry of run.stopped) firstStop.set(entry.problem, Math.min(entry.iteration, firstStop.get(entry.problem) ?? Infinity));
  const listed = [...firstStop].slice(0, LISTED).map(([problem, iteration]) => `${problem} at iteration ${iteration}`);
  const more = firstStop.size > LISTED ? `, and ${firstStop.size - LISTED} more (metrics.json's "incomplete" lists them)` : '';
  const failed = run.stopped.reduce((sum, entry) => sum + entry.failed, 0);
  return (
    `${failed} call${failed === 1 ? '' : 's'} that failed for good stopped ${firstStop.size} of ${problemsRun(run)} problems (${listed.join(', ')}${more}, first error: ${run.stopped[0]?.first ?? '?'}): ` +
    'each is missing from the figures of that iteration and every later one'
  );
}
