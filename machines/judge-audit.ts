/**
 * The audit of hybrid grading: under `--judge-when unsure` the rule's sure
 * verdicts stand without a judge call, so nothing shows how often the rule
 * is wrong where it is sure. An audit also sends a seeded share of those
 * candidates to the judge. Which ones is a pure function of the run's seed
 * and the candidate's id, so a run, its resume and its replay audit the same
 * candidates, and a larger share audits a superset of a smaller one.
 */
import { uniformFor } from '../src/kernel/prng.ts';

/**
 * Whether the candidate `id` (stable across a run and its resume: problem,
 * iteration and candidate number) is in the audited `share` (0 to 1) of the
 * rule-decided candidates of the run seeded with `seed`.
 *
 * @throws RangeError when `share` is not a number from 0 to 1 (the setting
 * that gives it checks the user's value first).
 * @example auditedByJudge(0, 'p1/0/3', 0.1) // true for about one id in ten
 */
export function auditedByJudge(seed: number, id: string, share: number): boolean {
  if (!(share >= 0 && share <= 1)) throw new RangeError(`the audited share must be from 0 to 1, not ${share}`);
  return uniformFor('judge-audit', seed, id) < share;
}
