/**
 * Methods of a table that no candidate was graded for: every cell of theirs is
 * `-`, and a ⚠ note under the table was all that said why. A user publishing
 * the table would not notice, so `tmas table1` ends with exit code 3 naming
 * each such method, the cause (the judge's replies, when it gave no verdict at
 * all) and what to do, as it does for methods whose calls failed for good.
 */
import path from 'node:path';
import { UserError } from '../../kernel/errors.ts';
import { roleKinds, STRATEGIES } from '../../../machines/strategies/index.ts';
import type { Table1Method } from './table1-budgets.ts';
import { problemsRun } from '../../report/stopped-problems.ts';
import { unreferencedProblems } from '../../report/unreferenced-problems.ts';
import { hollowSentence } from '../../report/hollow-roles.ts';

/**
 * `majority: the judge gave no verdict on any of its candidates (24 of 24 replies unusable, e.g. "…"; read them with …)`, one per method whose every iteration graded no problem;
 * `dirOf` names a method's run directory (table1.md names it relative to itself, so that the file is the same wherever the table was run).
 */
export function ungradedMethods(methods: Table1Method[], dirOf = (method: Table1Method) => method.run.dir): string[] {
  return methods.flatMap((method) => {
    const iterations = method.run.iterations;
    if (iterations.length === 0 || iterations.some((it) => it.graded > 0)) return [];
    const judge = method.run.unusable.find((entry) => entry.role === 'judge');
    const example = judge?.reason == null ? '' : `, e.g. ${JSON.stringify(judge.reason)}`;
    if (judge !== undefined) return [`${method.strategy}: ${JUDGE_CAUSE} (${judge.unusable} of ${judge.outputs} replies unusable${example}; read them with tmas calls ${dirOf(method)} --role judge)`];
    // Problems without a reference answer (a run given --force) are graded by nothing: not the judge's doing.
    const unreferenced = unreferencedProblems(method.run) ?? [];
    if (unreferenced.length > 0) return [`${method.strategy}: no candidate of any iteration was graded: ${unreferenced.length} of its ${problemsRun(method.run)} problems ${REFERENCE_CAUSE}, which nothing grades`];
    return [`${method.strategy}: no candidate of any iteration was graded`];
  });
}

/**
 * `rse: under the rule-based grade, no candidate gave a final answer it could read (…)`, one per method
 * graded by the rule whose every problem, in every iteration, had no candidate with a final answer
 * (metrics.json's per-problem majority answer is null throughout): its Pass@1 is 0 by construction,
 * whatever its candidates' mathematics, a figure of the replies' format that reads as an accuracy.
 */
export function answerlessMethods(methods: Table1Method[]): string[] {
  return methods.flatMap((method) => {
    if (method.run.evaluation?.grading === 'judge') return [];
    const iterations = method.run.problems.flatMap((problem) => problem.iterations);
    if (iterations.length === 0 || iterations.some((it) => it.answer !== null)) return [];
    // The role that writes the candidates says why none had an answer; a bank or review role only what else broke.
    const strategy = STRATEGIES[method.strategy];
    const kinds = strategy === undefined ? {} : roleKinds(strategy);
    const writes = (role: string) => (kinds[role] === 'solution' ? 1 : 0);
    const [role] = method.run.unusable.filter((entry) => entry.role !== 'judge' && entry.reason != null).sort((a, b) => writes(b.role) - writes(a.role) || b.unusable / b.outputs - a.unusable / a.outputs);
    const example = role === undefined ? '' : ` (its ${role.role} role: ${role.unusable} of ${role.outputs} outputs unusable, e.g. ${JSON.stringify(role.reason)})`;
    return [`${method.strategy}: under the rule-based grade, no candidate of any problem gave a final answer the grader could read${example}`];
  });
}

/**
 * `tmas: not one output of its verification and experience roles could be used, in any iteration (…)`, one per method
 * (not already without a figure or an answer) one of whose own roles, the judge aside, received outputs and could use
 * none of them over the whole run: the method never ran as designed, its figures are those of what ran without that
 * role (a TMAS without verification scores, an RSE without a bank, a mas-ceo without its CEO), which a ⚠ beside a
 * plausible Pass@1 (50.0 at --sim-break-formats 1) did not say.
 */
export function hollowMethods(methods: Table1Method[], already: ReadonlySet<string>): string[] {
  return methods.flatMap((method) => {
    const sentence = already.has(method.strategy) ? null : hollowSentence(method.strategy, method.run);
    return sentence === null ? [] : [`${method.strategy}: ${sentence}`];
  });
}

/** What an entry of ungradedMethods says when the judge is why, and when the problems are: the advice follows the cause. */
const JUDGE_CAUSE = 'the judge gave no verdict on any of its candidates';
const REFERENCE_CAUSE = 'have no reference answer';

/**
 * What to do about methods left without a figure, for the causes their entries name: what a judge must answer, or that
 * problems need their reference answers; a table graded by the rule over problems without answers was told to fix a
 * judge it never had.
 */
export function ungradedAdvice(ungraded: string[]): string {
  const advice: string[] = [];
  if (ungraded.some((entry) => entry.includes(JUDGE_CAUSE))) {
    advice.push('A judge must end each reply with "VERDICT: equivalent" or "VERDICT: not equivalent" within --judge-max-tokens. Fix the judge (--judge-base-url, --judge-model-name, --judge-max-tokens)');
  }
  if (ungraded.some((entry) => entry.includes(REFERENCE_CAUSE))) {
    advice.push('Give each problem its reference answer (an "answer" field; in a CSV or Parquet file, a "Short Answer" or "answer" column, or the one --answer-column names)');
  }
  const again = 'the table again into a new --output-file; do not publish these columns.';
  return advice.length === 0 ? `Run ${again}` : `${advice.join('. ')}, then run ${again}`;
}

/** The sentence an error of the table gives for methods left without a figure; '' when there are none. */
export function ungradedSentence(ungraded: string[], out: string): string {
  if (ungraded.length === 0) return '';
  const which = ungraded.length === 1 ? 'one method (its cells' : `${ungraded.length} methods (their cells`;
  return `No Pass@1 figure at all for ${which} in ${path.join(out, 'table1.md')} are '-'): ${ungraded.join('; ')}. ${ungradedAdvice(ungraded)}`;
}

/** The error a table ends with (exit code 3) when some method has no figure at all, the table and report being written. */
export function ungradedTableError(ungraded: string[], out: string): UserError {
  return new UserError('TMAS_TABLE_UNGRADED', ungradedSentence(ungraded, out));
}
