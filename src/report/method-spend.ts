/**
 * What a method spent itself, apart from what grading it cost: the judge
 * reads every method's candidates alike, so its calls and tokens measure how
 * much a method was judged (majority's many samples, each judged), not how
 * much the method drew. Tables that compare methods' budgets show these.
 */
import type { IterationMetrics } from '../observers/metrics.ts';
import { roleOutputTotals } from '../observers/role-outputs.ts';
import type { ReportRun } from './load.ts';

/** The role whose calls grade the candidates (`judge.completed`), shared by every strategy. */
const JUDGE_ROLE = 'judge';

/** A run's calls and tokens: the method's own and the judge's. */
export interface MethodSpend {
  calls: number;
  tokens: number;
  /** Of `tokens`, those the prompts held (in) and those the model wrote (out): a cut reply spends its whole completion limit out. */
  promptTokens: number;
  completionTokens: number;
  /** Own tokens per problem solved (majority-vote answer right at the last iteration); null when none was. */
  tokensPerSolved: number | null;
  judgeCalls: number;
  judgeTokens: number;
  /** The replies the method's own roles received, each attempt once (a reply forced to its end is one), and those it could not use. */
  outputs: number;
  unusable: number;
  /** The judge's passes, and those that gave no verdict. */
  judgeUnusable: number;
  /**
   * Of `outputs`, the replies cut at their limit (or by a content filter); of the judge's passes, those cut.
   * Null where the metrics were written before they were counted per role, though their faults count some cut.
   */
  cut: number | null;
  judgeCut: number | null;
  /** The cut replies the iterations' faults count, the judge's among them: what a cell says when `cut` is null. */
  faultsCut: number;
}

/** The replies cut at their limit or by a content filter that `run`'s faults count, every role's. */
function faultsCutOf(run: ReportRun): number {
  return run.iterations.reduce((sum, it) => sum + (it.faults?.truncated ?? 0) + (it.faults?.filtered ?? 0), 0);
}

/** The calls and tokens of `run`, the judge's counted apart (its calls are the outputs it received). */
export function methodSpend(run: ReportRun): MethodSpend {
  const { totals } = run;
  const judge = totals.tokensByRole[JUDGE_ROLE];
  const judgeTokens = judge === undefined ? 0 : judge.prompt + judge.completion;
  const judgeCalls = run.iterations.reduce((sum, it) => sum + (it.outputsByRole?.[JUDGE_ROLE]?.outputs ?? 0), 0);
  const tokens = totals.tokens.total - judgeTokens;
  const completionTokens = totals.tokens.completion - (judge?.completion ?? 0);
  const roles = Object.entries(roleOutputTotals(run.iterations));
  const own = roles.filter(([role]) => role !== JUDGE_ROLE).map(([, counts]) => counts);
  const faultsCut = faultsCutOf(run);
  const perRole = faultsCut === 0 || roles.some(([, counts]) => counts.cut !== undefined);
  return {
    calls: totals.calls - judgeCalls,
    tokens,
    promptTokens: tokens - completionTokens,
    completionTokens,
    tokensPerSolved: totals.solved ? Math.round(tokens / totals.solved) : null,
    judgeCalls,
    judgeTokens,
    outputs: own.reduce((sum, counts) => sum + counts.outputs, 0),
    unusable: own.reduce((sum, counts) => sum + counts.unusable, 0),
    judgeUnusable: roles.find(([role]) => role === JUDGE_ROLE)?.[1].unusable ?? 0,
    // metrics.json written before `cut` was counted per role has none, and would read as none cut.
    cut: perRole ? own.reduce((sum, counts) => sum + (counts.cut ?? 0), 0) : null,
    judgeCut: perRole ? (roles.find(([role]) => role === JUDGE_ROLE)?.[1].cut ?? 0) : null,
    faultsCut,
  };
}

/**
 * `12 of 221; judge 5 of 126`: what the method could not use of the replies its own roles received, then
 * the judge's passes without a verdict, counted whether or not a role passed the share that warns.
 */
export function unusableCell(spent: MethodSpend): string {
  const own = `${spent.unusable} of ${spent.outputs}`;
  return spent.judgeCalls === 0 ? own : `${own}; judge ${spent.judgeUnusable} of ${spent.judgeCalls}`;
}

/**
 * `3 of 221; judge 0 of 126`: the replies cut at their limit (a reasoning model filling its window),
 * the method's own of those its roles received, then the judge's of its passes.
 */
export function cutCell(spent: MethodSpend): string {
  if (spent.cut === null) return `${spent.faultsCut} of ${spent.outputs + spent.judgeCalls}, the judge's among them (metrics written before they were counted apart)`;
  const own = `${spent.cut} of ${spent.outputs}`;
  return spent.judgeCalls === 0 ? own : `${own}; judge ${spent.judgeCut} of ${spent.judgeCalls}`;
}

/** The prompt and completion tokens of one iteration's calls, over every role but the judge. */
export function methodTokensOf(it: IterationMetrics): number {
  return Object.entries(it.tokens).reduce((sum, [role, t]) => (role === JUDGE_ROLE ? sum : sum + t.prompt + t.completion), 0);
}
