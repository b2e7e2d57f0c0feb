/**
 * The per-problem and per-run figures of metrics.json, next to the
 * per-iteration ones of `metrics.ts`.
 *
 * - Per problem: each iteration's Pass@1 (headline, rule, judge), majority,
 *   best-verified, pass@N, mean score, majority answer and disagreements, and
 *   the problem's flips of its majority-vote answer over all iterations.
 * - Per run: tokens (by role and in all), calls, failed calls, retries, wall
 *   time, the final iteration's figures, problems solved (the majority-vote
 *   answer is right at the last iteration) and tokens per solved problem
 *   (all tokens of the run / problems solved; null when none was solved).
 */
import { distinctIterations, ruleJudgeAgreement, type RuleJudgeAgreement } from './agreement.ts';
import { countFlip, scoreIteration, type Flips, type IterationMetrics, type ProblemIteration } from './metrics.ts';
import type { CandidateResult } from '../kernel/protocol.ts';

/** One problem's figures over its iterations. */
export interface ProblemFigures {
  problem: string;
  iterations: Array<ProblemIteration & { iteration: number }>;
  /** Flips of the majority-vote answer over the problem's iterations. */
  flips: Flips;
}

/** The fields of an iteration record the problem table reads: a reader asks the store for these only (rollouts are long texts it never needs). */
export const PROBLEM_TABLE_FIELDS = ['problem', 'iteration', 'candidates'] as const;

/** Folds iteration records (streamed from the store, in input then iteration order) into per-problem figures. */
export function createProblemTable() {
  const rows = new Map<string, ProblemFigures>();
  return {
    add(record: { problem: string; iteration: number; candidates: CandidateResult[] }): void {
      let row = rows.get(record.problem);
      if (!row) {
        row = { problem: record.problem, iterations: [], flips: { rightToWrong: 0, wrongToRight: 0 } };
        rows.set(record.problem, row);
      }
      const figures = { iteration: record.iteration, ...scoreIteration(record.candidates) };
      const before = row.iterations.find((it) => it.iteration === record.iteration - 1);
      countFlip(row.flips, before?.majority, figures.majority);
      row.iterations.push(figures);
    },
    rows(): ProblemFigures[] {
      return [...rows.values()];
    },
  };
}

/** The figures of a whole run. */
export interface RunTotals {
  problems: number;
  iterations: number;
  tokens: { prompt: number; completion: number; total: number };
  tokensByRole: Record<string, { prompt: number; completion: number }>;
  calls: number;
  failures: number;
  /** Retries the gateway made over the run; null when not known (e.g. metrics rebuilt from a log). */
  retries: number | null;
  wallSeconds: number | null;
  /** Figures of the last iteration. */
  final: { iteration: number; pass1: number | null; majority: number | null; bestVerified: number | null; oracle: number | null } | null;
  /** Problems whose majority-vote answer is right at the last iteration. */
  solved: number | null;
  tokensPerSolved: number | null;
  flips: { majority: Flips; bestVerified: Flips };
  judged: number;
  disagreements: number;
  /** Where the rule was sure and the judge graded too (every candidate under --judge-when always, the audited ones under unsure): how often they agree. */
  ruleJudgeAgreement: RuleJudgeAgreement | null;
}

/** Sums the per-iteration figures into the run's totals; `unfinishedFailures`: calls that failed for good in iterations no problem finished (not among `iterations`); `upFront`: the strategy draws its samples up front, so the judge's comparisons are its last iteration's. */
export function runTotals(iterations: IterationMetrics[], extra: { retries?: number; wallSeconds?: number; unfinishedFailures?: number; upFront?: boolean } = {}): RunTotals {
  const tokensByRole: Record<string, { prompt: number; completion: number }> = {};
  const flips = { majority: { rightToWrong: 0, wrongToRight: 0 }, bestVerified: { rightToWrong: 0, wrongToRight: 0 } };
  let calls = 0;
  let failures = extra.unfinishedFailures ?? 0;
  let judged = 0;
  let disagreements = 0;
  for (const it of iterations) {
    for (const [role, t] of Object.entries(it.tokens)) {
      const sum = (tokensByRole[role] ??= { prompt: 0, completion: 0 });
      sum.prompt += t.prompt;
      sum.completion += t.completion;
    }
    calls += it.calls;
    failures += it.failures;
    for (const kind of ['majority', 'bestVerified'] as const) {
      flips[kind].rightToWrong += it.flips?.[kind].rightToWrong ?? 0;
      flips[kind].wrongToRight += it.flips?.[kind].wrongToRight ?? 0;
    }
  }
  // Candidates compared with the judge, each once: a strategy that draws up front holds its earlier samples again.
  const distinct = distinctIterations(iterations, extra.upFront === true);
  for (const it of distinct) {
    judged += it.judged ?? 0;
    disagreements += it.disagreements ?? 0;
  }
  const prompt = Object.values(tokensByRole).reduce((sum, t) => sum + t.prompt, 0);
  const completion = Object.values(tokensByRole).reduce((sum, t) => sum + t.completion, 0);
  const last = iterations.at(-1);
  const solved = last && last.majority !== null ? Math.round(last.majority * last.graded) : null;
  return {
    problems: Math.max(0, ...iterations.map((it) => it.problems)),
    iterations: iterations.length,
    tokens: { prompt, completion, total: prompt + completion },
    tokensByRole,
    calls,
    failures,
    retries: extra.retries ?? null,
    wallSeconds: extra.wallSeconds ?? null,
    final: last ? { iteration: last.iteration, pass1: last.pass1, majority: last.majority, bestVerified: last.bestVerified, oracle: last.oracle } : null,
    solved,
    tokensPerSolved: solved ? Math.round((prompt + completion) / solved) : null,
    flips,
    judged,
    disagreements,
    ruleJudgeAgreement: ruleJudgeAgreement(distinct),
  };
}
