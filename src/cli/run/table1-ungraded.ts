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
import { noneUsable } from '../../observers/role-outputs.ts';

/**
 * `majority: the judge gave no verdict on any of its candidates (24 of 24 replies unusable, e.g. "…"; read them with …)`, one per method whose every iteration graded no problem,
 * or whose judge gave no verdict in any of its replies: its figures are then those of the replies cut before their end alone, graded 0 without
 * the judge (judging.ts's ruledByRule), which read as an accuracy of 0;
 * `dirOf` names a method's run directory (table1.md names it relative to itself, so that the file is the same wherever the table was run).
 */
export function ungradedMethods(methods: Table1Method[], dirOf = (method: Table1Method) => method.run.dir): string[] {
  return methods.flatMap((method) => {
    const iterations = method.run.iterations;
    const judge = method.run.unusable.find((entry) => entry.role === 'judge');
    if (iterations.length === 0 || (!noneUsable(judge) && iterations.some((it) => it.graded > 0))) return [];
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

/** A table's columns that are not a result, by kind (each entry `strategy: why`): their advice differs, their exit does not. */
export interface NotAResult {
  /** No candidate of any iteration graded: every cell '-'. */
  ungraded: string[];
  /** Graded by the rule, and no candidate of any problem gave a final answer: a Pass@1 of 0.0 that is the replies' format. */
  answerless: string[];
  /** One of the method's own roles used no output in any iteration: figures of what ran without it. */
  hollow: string[];
}

/** Every column of `methods` that is not a result, whatever graded it; `dirOf` as ungradedMethods takes it. */
export function notAResultColumns(methods: Table1Method[], dirOf?: (method: Table1Method) => string): NotAResult {
  const ungraded = ungradedMethods(methods, dirOf);
  const answerless = answerlessMethods(methods);
  const named = new Set([...ungraded, ...answerless].map((entry) => entry.slice(0, entry.indexOf(':'))));
  return { ungraded, answerless, hollow: hollowMethods(methods, named) };
}

/** How many columns `columns` names. */
export function notAResultCount(columns: NotAResult): number {
  return columns.ungraded.length + columns.answerless.length + columns.hollow.length;
}

/**
 * The sentences that name each column that is not a result, why, and what to do, kind by kind: one text for
 * table1.md's headline and for the error the command ends with, so that a column graded by the rule and one
 * graded by a judge read, and end, alike; `again` is what to do once fixed (a run's error says run it again).
 */
export function notAResultSentences(columns: NotAResult, again = 'run the table again'): string[] {
  const sentences: string[] = [];
  const listed = (entries: string[]) => entries.map((entry) => `${entry}.`).join(' ');
  if (columns.ungraded.length > 0) {
    sentences.push(`${listed(columns.ungraded)} Their cells are '-', or figures of the replies cut before their end alone (0, graded without the judge): they measure nothing, not an accuracy of 0. ${ungradedAdvice(columns.ungraded)}`);
  }
  if (columns.answerless.length > 0) {
    sentences.push(
      `${listed(columns.answerless)} Their Pass@1 of 0.0 is their replies' format, not an accuracy: ` +
        'have the model end with its final answer in \\boxed{} (its prompt, --prompt), or grade with a judge, which reads the text (--judge-base-url, --judge-passes).',
    );
  }
  if (columns.hollow.length > 0) {
    sentences.push(
      `${listed(columns.hollow)} Their figures are no result of the method named: ` +
        `have each such role answer in its format (its prompt, --prompt; its endpoint; --parse-retries), then ${again} (tmas calls <method> --role <role> shows the replies).`,
    );
  }
  return sentences;
}

/** The sentence an error of the table gives for its columns that are not a result; '' when there are none. */
export function notAResultSentence(columns: NotAResult, total: number, out: string): string {
  const count = notAResultCount(columns);
  if (count === 0) return '';
  return `Not a result: ${count} of the ${total} column${total === 1 ? '' : 's'} of ${path.join(out, 'table1.md')}, whatever their figures: ${notAResultSentences(columns).join(' ')}`;
}

/**
 * The error a table ends with (exit code 3), the table and report being written, when some column is not a result:
 * no figure at all (its judge gave no verdict), a rule-graded 0.0 that is the replies' format, a role that used no
 * output. Only the first ended at 3; the others at 0, and a script publishing on 0 published a hollow column.
 */
export function notAResultTableError(columns: NotAResult, total: number, out: string): UserError {
  return new UserError('TMAS_TABLE_UNGRADED', notAResultSentence(columns, total, out));
}
