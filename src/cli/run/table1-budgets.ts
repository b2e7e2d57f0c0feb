/**
 * The budget each column of `table1.md` ran with, read from each run's
 * evaluation block (metrics.json): a reader sees at once whether the methods
 * had the same completion limit, window, width and judge share, which
 * sampling each used (the methods' upstream temperatures differ on purpose),
 * and what each spent: its own calls and tokens, the judge's apart.
 */
import { describeAgreement, distinctIterations, ruleJudgeAgreement } from '../../observers/agreement.ts';
import { strategyOutline } from '../../host/strategy/strategy-outline.ts';
import { cutCell, methodSpend, unusableCell } from '../../report/method-spend.ts';
import { effectiveCompletionLimit } from '../../report/comparable.ts';
import type { Table1Method } from './table1-method.ts';
import { widthOf } from './table1-width.ts';

export type { Table1Method } from './table1-method.ts';


type Evaluation = Record<string, unknown>;

function numberAt(evaluation: Evaluation | null, key: string): number | null {
  const value = evaluation?.[key];
  return typeof value === 'number' ? value : null;
}

/** The solution slot's sampling as the evaluation block records it. */
function solutionSampling(evaluation: Evaluation | null): { temperature?: number; topP?: number } {
  const sampling = evaluation?.sampling as Record<string, { temperature?: number; topP?: number }> | undefined;
  return sampling?.solution ?? {};
}

/** The mean of `values`, as a percentage with one decimal. */
function meanPercent(values: number[]): string {
  return `${((values.reduce((a, b) => a + b, 0) / values.length) * 100).toFixed(1)}%`;
}

/**
 * The share of candidates sent to the judge over the run's iterations (each
 * candidate once: majority's last iteration holds its whole pool, the one its
 * MV@k is drawn from), as a percentage, or `all` / `none`; and where the judge
 * gave no verdict on some of them (its replies unusable, its calls failed), the
 * share it graded: the judge's Pass@1 is over those alone.
 */
function judgedShare(method: Table1Method): string {
  if (method.run.evaluation?.grading !== 'judge') return 'none (rule)';
  // Shares, not counts: majority's are its last iteration's, its whole pool, whatever the run counts of reused verdicts.
  const iterations = strategyOutline(method.strategy, 0).upFront ? method.run.iterations.slice(-1) : method.run.iterations;
  const asked = iterations.flatMap((it) => (it.judgeAsked == null ? [] : [it.judgeAsked]));
  const covered = iterations.flatMap((it) => (it.judgeCoverage == null ? [] : [it.judgeCoverage]));
  const sent = asked.length === 0 || asked.every((share) => share === 1) ? 'all' : meanPercent(asked);
  return covered.length === 0 || covered.every((share) => share === 1) ? sent : `${sent}, ${meanPercent(covered)} graded ⚠`;
}

/** One row of the budget table: the limits the method ran under, then what it spent (its own calls and tokens, the judge's apart). */
function budgetRow(method: Table1Method): string {
  const evaluation = method.run.evaluation;
  const recorded = numberAt(evaluation, 'completionMaxTokens');
  const effective = effectiveCompletionLimit(evaluation);
  // A recorded limit the window cannot hold was cut to what the window leaves on every call: say both.
  const runLimit = evaluation === null ? '?' : effective !== null ? effective : recorded !== null ? `window (its ${recorded} does not fit)` : 'window';
  const roleLimits = strategyOutline(method.strategy, 0).roleLimits;
  const limit = roleLimits === null ? runLimit : `${runLimit} (${roleLimits})`;
  const { temperature, topP } = solutionSampling(evaluation);
  const rounds = method.strategy === 'majority' ? '1' : String(method.run.maxIterations ?? '?');
  const spent = methodSpend(method.run);
  const limits = [String(limit), String(temperature ?? '?'), String(topP ?? "server's"), widthOf(method), rounds, String(numberAt(evaluation, 'contextWindow') ?? '?')];
  const spending = [String(spent.calls), `${spent.tokens} (${spent.promptTokens} / ${spent.completionTokens})`, spent.judgeCalls === 0 ? '–' : `${spent.judgeCalls} / ${spent.judgeTokens}`, cutCell(spent), unusableCell(spent)];
  const cells = [method.strategy, ...limits, ...spending, judgedShare(method), describeAgreement(ruleJudgeAgreement(distinctIterations(method.run.iterations, strategyOutline(method.strategy, 0).upFront)))];
  return `| ${cells.join(' | ')} |`;
}

/** The budget table under Table 1, with a line that says whether the completion limits and windows agree. */
export function budgetTable(methods: Table1Method[]): string[] {
  const limits = new Set(methods.map((method) => JSON.stringify([effectiveCompletionLimit(method.run.evaluation), method.run.evaluation?.contextWindow ?? null])));
  const agreement =
    limits.size <= 1
      ? 'Every method had the same completion limit and window.'
      : 'The methods did not all have the same completion limit and window: their columns spent different budgets (tmas table1 --budgets shared gives them one).';
  const capped = methods.some((method) => strategyOutline(method.strategy, 0).roleLimits !== null) ? ' A limit in brackets is what some of that method\'s roles were sent instead, by its design.' : '';
  return [
    `Budgets per column (from each run's metrics.json). ${agreement}${capped} 'window': what the context window leaves after the prompt.`,
    '',
    "'rule = judge': where the rule-based grader was sure of a final answer it read and the judge graded too (a reply without one is no agreement; every candidate under --judge-when always, the audited share under unsure), how often they agree, with its 95% Wilson interval.",
    '',
    "'judged': the share of candidates sent to the judge, and, marked, the share it graded where it gave no verdict on some (its replies unusable, its calls failed): the Pass@1 of that column is over the candidates it graded.",
    '',
    "'width': what the method drew per problem and round (N, M where it reads them; majority's samples drawn up front, each vote over draws of k of them; else the candidates its rounds held). 'calls' and 'tokens': what the method spent itself, over all its problems and rounds, its tokens as in all (in / out: those its prompts held, those its model wrote; a reply cut at its limit spends all of it out); 'judge calls / tokens': what grading its candidates cost, apart.",
    '',
    "'cut at limit': the replies cut at their completion limit or by what the window left (finish_reason length; or stopped by a content filter), of those its own roles received, then the judge's of its passes: a reasoning model that fills its window spends its whole limit on each, and each is also counted in 'unusable' where its role could read nothing from it.",
    '',
    "'unusable': the replies the method could not use (no final answer, no score or verdict, a plan, team, summary or bank update out of its format, empty or cut at the length limit), of those its own roles received, each attempt once (a reply forced to its end, as mas-ceo's are, is one reply of several calls), whatever their share (the notes below name the roles past the share that warns); then the judge's passes that gave no verdict, of its calls.",
    '',
    '| method | completion limit | temperature | top_p | width | rounds | window | calls | tokens (in / out) | judge calls / tokens | cut at limit | unusable | judged | rule = judge |',
    '|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...methods.map(budgetRow),
  ];
}
