/**
 * The marks a published table puts after a run's name when its figures are not
 * those of a run that ran as designed to its end: `⚠` when a role's outputs of
 * some iteration were unusable beyond the warned share, `‡` when problems are
 * missing from its figures (calls that failed for good, or a stop before T).
 * A difference from such a run is as doubtful as the run itself, so every
 * table that sets runs against a reference marks the reference's column with
 * its marks too: the report's and table1.md's alike.
 */
import type { UnusableRole } from '../observers/role-outputs.ts';
import { describeUnfinished } from './stopped-problems.ts';

/** What the marks read of a run. */
type MarkedRun = Parameters<typeof describeUnfinished>[0] & { unusable: UnusableRole[] };

/** ` ⚠`, ` ‡`, ` ⚠ ‡`, or '' for a run with neither caveat. */
export function caveatMarks(run: MarkedRun): string {
  return `${run.unusable.length > 0 ? ' ⚠' : ''}${describeUnfinished(run) !== null ? ' ‡' : ''}`;
}
