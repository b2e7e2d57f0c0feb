/**
 * Against which run each run's Pass@1 is read as a difference, paired by
 * problem. Runs of other methods beside a TMAS run are each read against that
 * TMAS run. Runs that are forks (an ablation: `tmas fork` of a run, maybe of a
 * fork) are each read against the run they were forked from, their direct
 * source: in a chain A → B → C, C against B and B against A. Read against the
 * chain's first run, C's difference mixed B's change with its own. A run read
 * beside forks without its source among the runs is read against the first
 * run forks came from (its root), as before.
 */
import type { ReportRun } from './load.ts';
import { caveatMarks } from './run-marks.ts';

/** How the runs of a report are set against each other. */
export interface DifferenceBasis {
  /** The run `run` is read against: itself for a reference (its difference is 0 throughout), null for none. */
  against(run: ReportRun): ReportRun | null;
  /** The one run every run is read against, or null where forks are read against their own sources. */
  single: ReportRun | null;
  /** What a title or a column says is subtracted: the single run's name with its caveat marks, or `source`. */
  name: string;
}

/** The basis of `runs`' differences, or null where there is nothing to set them against (no TMAS run beside another method, no fork beside its source). */
export function differenceBasis(runs: ReportRun[]): DifferenceBasis | null {
  const tmas = runs.find((run) => run.strategy === 'tmas');
  if (tmas !== undefined && runs.some((run) => run.strategy !== 'tmas')) return { against: () => tmas, single: tmas, name: named(tmas) };
  const sourceOf = (run: ReportRun) => (run.forkOf === null ? undefined : runs.find((other) => other !== run && other.runId === run.forkOf));
  const isSource = (run: ReportRun) => run.runId !== null && runs.some((other) => other !== run && other.forkOf === run.runId);
  const root = runs.find((run) => isSource(run) && sourceOf(run) === undefined);
  if (root === undefined) return null;
  const against = (run: ReportRun): ReportRun => sourceOf(run) ?? (isSource(run) ? run : root);
  const single = runs.every((run) => against(run) === root) ? root : null;
  return { against, single, name: single === null ? 'source' : named(single) };
}

/** A run's name with its caveat marks, as a difference from it is named. */
function named(run: ReportRun): string {
  return `${run.name}${caveatMarks(run)}`;
}
