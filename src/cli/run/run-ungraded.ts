/**
 * A run whose LLM judge gave no verdict on any candidate: results.jsonl and
 * metrics.json hold no Pass@1 at all. The run printed a warning and ended at
 * 0, as a run with figures does, so a script running one model after another
 * went on to report what was never graded; `tmas table1` ends at 3 for the
 * same cause (TMAS_TABLE_UNGRADED). `tmas run` and `tmas fork` now do too, and
 * for every other run that is not a result (notAResultRunError).
 */
import { UserError } from '../../kernel/errors.ts';
import type { IterationMetrics } from '../../observers/metrics.ts';
import { noneUsable, roleOutputTotals } from '../../observers/role-outputs.ts';
import { deadRoles } from '../../report/hollow-roles.ts';

/**
 * The error of a finished run judged in every iteration whose judge graded no problem in any, or gave a verdict in
 * none of its replies (its figures are then those of the replies cut before their end alone, graded 0 without it);
 * null when the judge graded.
 */
export function ungradedRunError(iterations: IterationMetrics[], runDir: string): UserError | null {
  if (iterations.length === 0 || iterations.some((it) => it.grade !== 'judge')) return null;
  const judge = roleOutputTotals(iterations).judge;
  if (!noneUsable(judge) && iterations.some((it) => it.graded > 0)) return null;
  const replies = judge === undefined ? 'no reply of the judge was journaled' : `${judge.unusable} of ${judge.outputs} of its replies unusable${judge.reason === null ? '' : `, e.g. ${JSON.stringify(judge.reason)}`}`;
  return new UserError(
    'TMAS_RUN_UNGRADED',
    `The run finished, but the LLM judge gave no verdict on any candidate (${replies}): results.jsonl and metrics.json hold no Pass@1 (or one of the replies cut before their end alone, graded 0 without the judge), which is not an accuracy of 0. ` +
      `Read the judge's replies with tmas calls ${runDir} --role judge. A judge must end each reply with "VERDICT: equivalent" or "VERDICT: not equivalent" within --judge-max-tokens; ` +
      `fix it (--judge-base-url, --judge-model-name, --judge-max-tokens) and grade again with tmas fork ${runDir} --output-file NEW and the judge's flags: the method's calls are answered from this run's journal.`,
  );
}

/**
 * The error of a finished run whose figures are not a result though its judge (if any) graded: graded by the rule with
 * no candidate of any problem giving a final answer (a Pass@1 of 0.0 that is the replies' format), or with a role of
 * its own that used no output in any iteration (a TMAS without its verification scores). Such a run ended at 0 where
 * `tmas table1` names the same column and ends at 3: a script publishing on 0 published it. Null when it is a result.
 */
export async function notAResultRunError(iterations: IterationMetrics[], runDir: string): Promise<UserError | null> {
  if (iterations.length === 0) return null;
  const ruled = iterations.every((it) => it.grade === 'rule');
  // Cheap tests first: a run with a figure above 0 under the rule, and every role using some output, is a result, and is not read again.
  const maybeAnswerless = ruled && iterations.every((it) => (it.pass1 ?? 0) === 0);
  const judged = { grading: ruled ? 'rule' : 'judge' };
  if (!maybeAnswerless && deadRoles({ iterations, evaluation: judged }).length === 0) return null;
  const [{ loadRun }, { notAResultColumns, notAResultCount, notAResultSentences }] = await Promise.all([import('../../report/load.ts'), import('./table1-ungraded.ts')]);
  const run = await loadRun(runDir);
  // A run graded by nothing (problems without an answer, run with --force) was asked for so: ungradedRunError says the judge's case.
  const columns = { ...notAResultColumns([{ strategy: run.strategy ?? run.name, options: {}, run }], () => runDir), ungraded: [] };
  if (notAResultCount(columns) === 0) return null;
  return new UserError(
    'TMAS_RUN_UNGRADED',
    `The run finished, but its figures are not a result of its method (results.jsonl and metrics.json are written): ${notAResultSentences(columns, 'run it again into a new --output-file').join(' ').replaceAll('tmas calls <method>', `tmas calls ${runDir}`)}`,
  );
}
