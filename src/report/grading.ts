/** Which runs of a report were graded alike, so that their figures compare. */
import type { ReportRun } from './load.ts';

/** The grading most runs share (the first run's on a tie): the one the others are compared against. */
export function commonGrading(runs: ReportRun[]): string {
  const counts = new Map<string, number>();
  for (const run of runs) counts.set(run.grading, (counts.get(run.grading) ?? 0) + 1);
  let best = runs[0]?.grading ?? '';
  for (const [grading, count] of counts) if (count > (counts.get(best) ?? 0)) best = grading;
  return best;
}
