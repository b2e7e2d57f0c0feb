/**
 * What the metrics collect of one iteration while its messages arrive, and
 * the figures they make once its problems are done (metrics.ts folds the
 * stream into one of these per iteration).
 */
import type { BankShown, CallInfo, Message } from '../kernel/protocol.ts';
import { createFaultCounts, type FaultCounts } from './fault-counts.ts';
import { paidCall } from './paid-call.ts';
import { countFlip, mean, type IterationMetrics, type ProblemIteration } from './metrics.ts';
import type { RoleOutputs } from './role-outputs.ts';

/** One iteration's running sums. */
export interface IterationAccumulator {
  problems: Map<string, ProblemIteration>;
  seconds: number[];
  experienceBank: Map<string, number>;
  guidelineBank: Map<string, number>;
  exploitPromptTokens: number[];
  /** RSE: the bank each rollout's prompt held and showed. */
  rseBanks: BankShown[];
  tokens: Record<string, { prompt: number; completion: number }>;
  calls: number;
  failures: number;
  trims: number;
  faults: FaultCounts;
  outputsByRole: Record<string, RoleOutputs>;
  firstAt: number;
  lastAt: number;
}

/** An iteration's sums before its first message at `time`. */
export function createIterationAccumulator(time: number): IterationAccumulator {
  return {
    problems: new Map(),
    seconds: [],
    experienceBank: new Map(),
    guidelineBank: new Map(),
    exploitPromptTokens: [],
    rseBanks: [],
    tokens: {},
    calls: 0,
    failures: 0,
    trims: 0,
    faults: createFaultCounts(),
    outputsByRole: {},
    firstAt: time,
    lastAt: time,
  };
}

/** Adds a message other than `iteration.completed` to its iteration's sums: banks, failures, trims, tokens and calls. */
export function accumulate(accumulator: IterationAccumulator, message: Message): void {
  switch (message.type) {
    case 'bank.updated':
      accumulator.experienceBank.set(message.problem, message.experience.size);
      accumulator.guidelineBank.set(message.problem, message.guideline.size);
      return;
    case 'llm.failed':
      // A call not sent because its iteration already failed is no failure of its own.
      if (message.code !== 'TMAS_CALL_SKIPPED') accumulator.failures++;
      return;
    case 'context.trimmed':
      accumulator.trims++;
      return;
    default: {
      if (message.type === 'solution.completed' && message.source === 'experience') accumulator.exploitPromptTokens.push(message.call.usage.promptTokens);
      if (message.type === 'rollout.completed' && message.bank !== undefined) accumulator.rseBanks.push(message.bank);
      const paid = paidCall(message);
      if (paid !== null) countCall(accumulator, paid.role, paid.call);
    }
  }
}

/** Adds the call (or calls) behind one reply of `role` to the iteration's calls and tokens. */
function countCall(accumulator: IterationAccumulator, role: string, call: CallInfo): void {
  const tokens = (accumulator.tokens[role] ??= { prompt: 0, completion: 0 });
  tokens.prompt += call.usage.promptTokens;
  tokens.completion += call.usage.completionTokens;
  accumulator.calls += call.calls ?? 1;
}

/** The field-wise mean of the banks the rollouts showed; null when none had one. */
function meanBank(banks: BankShown[]): BankShown | null {
  if (banks.length === 0) return null;
  const of = (pick: (bank: BankShown) => number) => (mean(banks.map(pick)) ?? 0);
  return { held: of((b) => b.held), shown: of((b) => b.shown), heldTokens: of((b) => b.heldTokens), shownTokens: of((b) => b.shownTokens) };
}

/** The figures of one iteration, its flips counted against the iteration before (`previous`). */
export function summarizeIteration(iteration: number, accumulator: IterationAccumulator, previous: Map<string, ProblemIteration> | undefined): IterationMetrics {
  // By problem id, never in the order the problems finished: a float sum depends on its order, and a resumed
  // run logs its problems' iterations in another order than an uninterrupted one (so did two uninterrupted
  // runs whose calls took other times), which moved Pass@1 and the mean score by their last bit.
  const problems = [...accumulator.problems.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, figures]) => figures);
  const graded = problems.filter((p) => p.pass1 !== null);
  const judgedProblems = problems.filter((p) => p.judgeRan);
  const underJudge = judgedProblems.reduce((sum, p) => sum + p.candidates, 0);
  const share = (pick: (p: ProblemIteration) => boolean | null) => mean(graded.map((p) => (pick(p) ? 1 : 0)));
  const flips = { majority: { rightToWrong: 0, wrongToRight: 0 }, bestVerified: { rightToWrong: 0, wrongToRight: 0 } };
  for (const [problem, now] of accumulator.problems) {
    const before = previous?.get(problem);
    countFlip(flips.majority, before?.majority, now.majority);
    countFlip(flips.bestVerified, before?.bestVerified, now.bestVerified);
  }
  return {
    iteration,
    problems: problems.length,
    graded: graded.length,
    pass1: mean(graded.map((p) => p.pass1 ?? 0)),
    grade: judgedProblems.length > 0 ? ('judge' as const) : ('rule' as const),
    judgeCoverage: underJudge === 0 ? null : judgedProblems.reduce((sum, p) => sum + p.judgeCovered, 0) / underJudge,
    judgeAsked: underJudge === 0 ? null : judgedProblems.reduce((sum, p) => sum + p.judgeAsked, 0) / underJudge,
    pass1Rule: mean(problems.flatMap((p) => (p.pass1Rule === null ? [] : [p.pass1Rule]))),
    pass1Judge: mean(problems.flatMap((p) => (p.pass1Judge === null ? [] : [p.pass1Judge]))),
    majority: share((p) => p.majority),
    // Over the problems a usable score picked a candidate on: null when none did, never a count of unverified picks.
    bestVerified: mean(graded.flatMap((p) => (p.bestVerified === null ? [] : [p.bestVerified ? 1 : 0]))),
    oracle: share((p) => p.oracle),
    meanScore: mean(problems.flatMap((p) => (p.meanScore === null ? [] : [p.meanScore]))),
    judged: problems.reduce((sum, p) => sum + p.judged, 0),
    disagreements: problems.reduce((sum, p) => sum + p.disagreements, 0),
    sureJudged: problems.reduce((sum, p) => sum + p.sureJudged, 0),
    sureDisagreements: problems.reduce((sum, p) => sum + p.sureDisagreements, 0),
    reusedVerdicts: problems.reduce((sum, p) => sum + p.reusedVerdicts, 0),
    unsure: problems.reduce((sum, p) => sum + p.unsure, 0),
    flips,
    experienceBank: mean([...accumulator.experienceBank.values()]) ?? 0,
    guidelineBank: mean([...accumulator.guidelineBank.values()]) ?? 0,
    exploitPromptTokens: mean(accumulator.exploitPromptTokens),
    rseBank: meanBank(accumulator.rseBanks),
    tokens: accumulator.tokens,
    calls: accumulator.calls,
    failures: accumulator.failures,
    trims: accumulator.trims,
    faults: { ...accumulator.faults },
    outputsByRole: Object.fromEntries(Object.entries(accumulator.outputsByRole).sort(([a], [b]) => (a < b ? -1 : 1)).map(([role, counts]) => [role, { ...counts }])),
    wallSeconds: Math.round(accumulator.lastAt - accumulator.firstAt) / 1000,
    problemSeconds: mean(accumulator.seconds),
  };
}
