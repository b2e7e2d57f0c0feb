/**
 * The lengths of one draw of the schedule benchmark (schedule.bench.ts):
 * every call of every problem's iterations, drawn as the simulator draws its
 * output lengths (src/sim/capacity/output-length.ts), and each iteration's
 * longest chain of dependent calls.
 */
import { resolveCapacity, type CapacityOptions } from '../../src/sim/capacity/options.ts';
import { outputLengthOf } from '../../src/sim/capacity/output-length.ts';
import { JUDGE_MAX_TOKENS } from '../../src/settings/sections/judge.settings.ts';

/** The run's shape, as in the reference figures. */
export const RUN = { problems: 30, iterations: 3, candidates: 8, verifications: 8, concurrency: 800 };
/** The shape of a run: RUN's, or a shape's own problems and iterations. */
export type RunShape = typeof RUN;
/** A completion limit, as a run's window sets one. */
const MAX_OUTPUT = 120_000;
/** A judge call's completion limit (`--judge-max-tokens`' default). */
const JUDGE_MAX_OUTPUT = JUDGE_MAX_TOKENS;

/** One problem's iteration, every length drawn. */
export interface IterationPlan {
  solutions: number[];
  /** checks[k][v]: the v-th verification of candidate k. */
  checks: number[][];
  summaries: number[];
  /** The experience and guideline calls. */
  banks: number[];
  /** judges[k][p]: the p-th judge pass on candidate k (none without the judge). */
  judges: number[][];
  /** The longest chain through the iteration: a candidate's solution, slowest check and summary, then the slower bank. */
  longest: number;
}

/** Every length of one draw: plans[problem][iteration]. */
export function drawPlans(capacity: CapacityOptions, run: RunShape, draw: number, judgePasses: number): IterationPlan[][] {
  const settings = resolveCapacity(capacity);
  const shape = { median: settings.outputTokensMedian, p99: settings.outputTokensP99, problemSpread: settings.outputTokensProblemSpread };
  const { problems, iterations, candidates: n, verifications: m } = run;
  return Array.from({ length: problems }, (_, problem) => {
    const lengthOf = (key: string, limit = MAX_OUTPUT) => outputLengthOf(`${draw}/${problem}/${key}`, { ...shape, problem: `${draw}/${problem}` }, limit);
    return Array.from({ length: iterations }, (__, iteration) => {
      const solutions = Array.from({ length: n }, (_s, k) => lengthOf(`${iteration}/solution/${k}`));
      const checks = solutions.map((_s, k) => Array.from({ length: m }, (_c, v) => lengthOf(`${iteration}/verification/${k}/${v}`)));
      const summaries = solutions.map((_s, k) => lengthOf(`${iteration}/summary/${k}`));
      const banks = ['experience', 'guideline'].map((role) => lengthOf(`${iteration}/${role}`));
      const judges = solutions.map((_s, k) => Array.from({ length: judgePasses }, (_j, p) => lengthOf(`${iteration}/judge/${k}/${p}`, JUDGE_MAX_OUTPUT)));
      const longest = Math.max(...solutions.map((s, k) => s + Math.max(...(checks[k] as number[])) + (summaries[k] as number))) + Math.max(...banks);
      return { solutions, checks, summaries, banks, judges, longest };
    });
  });
}
