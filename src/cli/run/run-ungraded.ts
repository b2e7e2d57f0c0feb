/**
 * A run whose LLM judge gave no verdict on any candidate: results.jsonl and
 * metrics.json hold no Pass@1 at all. The run printed a warning and ended at
 * 0, as a run with figures does, so a script running one model after another
 * went on to report what was never graded; `tmas table1` ends at 3 for the
 * same cause (TMAS_TABLE_UNGRADED). `tmas run` and `tmas fork` now do too.
 */
import { UserError } from '../../kernel/errors.ts';
import type { IterationMetrics } from '../../observers/metrics.ts';
import { roleOutputTotals } from '../../observers/role-outputs.ts';

/** The error of a finished run judged in every iteration whose judge graded no problem in any; null when some iteration has a figure. */
export function ungradedRunError(iterations: IterationMetrics[], runDir: string): UserError | null {
  if (iterations.length === 0 || iterations.some((it) => it.grade !== 'judge' || it.graded > 0)) return null;
  const judge = roleOutputTotals(iterations).judge;
  const replies = judge === undefined ? 'no reply of the judge was journaled' : `${judge.unusable} of ${judge.outputs} of its replies unusable${judge.reason === null ? '' : `, e.g. ${JSON.stringify(judge.reason)}`}`;
  return new UserError(
    'TMAS_RUN_UNGRADED',
    `The run finished, but the LLM judge gave no verdict on any candidate (${replies}): results.jsonl and metrics.json hold no Pass@1, which is not an accuracy of 0. ` +
      `Read the judge's replies with tmas calls ${runDir} --role judge. A judge must end each reply with "VERDICT: equivalent" or "VERDICT: not equivalent" within --judge-max-tokens; ` +
      `fix it (--judge-base-url, --judge-model-name, --judge-max-tokens) and grade again with tmas fork ${runDir} --output-file NEW and the judge's flags: the method's calls are answered from this run's journal.`,
  );
}
