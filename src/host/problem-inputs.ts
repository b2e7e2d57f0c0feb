/**
 * From the run's configuration to what each problem actor is given: its
 * problem, the loop settings, and where it starts; and the calls the run's
 * strategy promises for the problems still to run (the progress bars' totals).
 */
import type { LoopSettings, LoopStart, ProblemInput, Strategy } from '../../machines/contract.ts';
import type { Problem } from '../input/problems.ts';
import type { RunConfig } from '../settings/config.ts';

const FRESH: LoopStart = { iteration: 0, experience: [], guidelines: [], rollouts: [] };

/** The loop settings of every problem of a run. */
export function loopSettingsOf(config: Pick<RunConfig, 'loop' | 'judge'>): LoopSettings {
  const { loop, judge } = config;
  return {
    nCandidates: loop.nCandidates,
    nVerifications: loop.nVerifications,
    maxIterations: loop.maxIterations,
    epsilon: loop.epsilon,
    seed: loop.seed,
    jaccardThreshold: loop.jaccardThreshold,
    // Left out when empty and when `always`, as in the settings of runs made before either existed.
    ...(Object.keys(loop.strategyOptions).length === 0 ? {} : { options: loop.strategyOptions }),
    schedule: loop.schedule,
    judgePasses: judge.passes,
    ...(judge.when === 'always' ? {} : { judgeWhen: judge.when }),
    // Only hybrid grading audits; left out at 0, as in runs made before the audit.
    ...(judge.when === 'unsure' && judge.audit > 0 ? { judgeAudit: judge.audit } : {}),
    proof: loop.proof,
  };
}

/**
 * The input of each problem actor, in the order of the problem file. `starts` is null for a new run. `iterationsOf`:
 * a problem's own T where it is not the run's (a replay taking a problem to the target it first reached: replay-phases.ts).
 */
export function toProblemInputs(run: string, config: Pick<RunConfig, 'loop' | 'judge'>, problems: Problem[], starts: LoopStart[] | null, iterationsOf?: ReadonlyMap<string, number>): ProblemInput[] {
  const shared = loopSettingsOf(config);
  return problems.map((problem, ordinal) => ({
    run,
    ordinal,
    problem: {
      id: problem.id,
      question: problem.question,
      ...(problem.answer === undefined ? {} : { answer: problem.answer }),
      ...(problem.solution === undefined ? {} : { solution: problem.solution }),
    },
    settings: iterationsOf?.has(problem.id) === true ? { ...shared, maxIterations: iterationsOf.get(problem.id) ?? shared.maxIterations } : shared,
    start: starts?.[ordinal] ?? FRESH,
  }));
}

/** The `<role>.completed` messages the run will carry, by role, summed over its problems as the strategy declares them. */
export function expectedCallsOf(strategy: Strategy, inputs: ProblemInput[], proof: boolean): Record<string, number> {
  const total: Record<string, number> = {};
  for (const calls of expectedCallsByProblem(strategy, inputs, proof).values()) {
    for (const [role, count] of Object.entries(calls)) total[role] = (total[role] ?? 0) + count;
  }
  return total;
}

/**
 * The `<role>.completed` messages each problem will carry, by problem id, as
 * the strategy declares them for replies that end within their limits (a
 * reply cut at its limit is not checked further, so a problem may carry fewer).
 */
export function expectedCallsByProblem(strategy: Strategy, inputs: ProblemInput[], proof: boolean): Map<string, Record<string, number>> {
  const byProblem = new Map<string, Record<string, number>>();
  for (const input of inputs) {
    const judged = (proof ? input.problem.solution : input.problem.answer) !== undefined;
    const calls: Record<string, number> = {};
    for (const [role, count] of Object.entries(strategy.expectedCalls(input.settings, { from: input.start.iteration, judged }))) calls[role] = count ?? 0;
    // Under --judge-when unsure the judge's calls depend on the answers: its bar counts up without a total.
    if (input.settings.judgeWhen === 'unsure') delete calls.judge;
    byProblem.set(input.problem.id, calls);
  }
  return byProblem;
}
