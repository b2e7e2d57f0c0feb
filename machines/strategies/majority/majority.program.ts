/**
 * MV@k: k independent samples of the Solution agent, majority vote. Its
 * "iterations" are growing sample counts so it plots on the same axis as the
 * iterative methods: iteration t holds the first max(1, ⌊n·(t+1)/T⌋) of the
 * n samples, so the last iteration votes over all of them. n is k unless
 * `--vote-pool` asks for more; then `tmas table1`'s MV@k is the mean vote over
 * draws of k of the n (src/observers/majority-draws.ts) rather than one draw.
 * Every sample is requested up front (all in iteration 0 of the journal); the
 * iterations are announced once all are in.
 */
import { optionOf, type LoopSettings, type ProblemInput, type StrategyFlag } from '../../contract.ts';
import { nextIteration, waiting, type ProblemProgram, type Step } from '../../program.ts';
import { failureOf, NO_RESPONSE, normalSolutionRequest, responseOf, saveOf, type CandidateView } from '../../kit.ts';

/** `--samples`: samples per problem, k of MV@k. */
export const SAMPLES_FLAG = {
  name: 'samples',
  value: '<k>',
  description: 'k of MV@k: the samples a vote counts, and the samples drawn per problem unless --vote-pool draws more',
  type: 'integer',
  min: 1,
  max: 100_000,
  default: 64,
  shapesCalls: true,
} as const satisfies StrategyFlag;

/** `--vote-pool`: samples drawn per problem, of which `tmas table1`'s MV@k is the mean vote over draws of k. */
export const VOTE_POOL_FLAG = {
  name: 'vote-pool',
  value: '<n>',
  description: "samples drawn per problem, at least k: tmas table1's MV@k is the mean majority vote over draws of k of them (0: k, one vote over the k samples; tmas table1 draws 4k unless given)",
  type: 'integer',
  min: 0,
  max: 100_000,
  default: 0,
  shapesCalls: true,
} as const satisfies StrategyFlag;

/** The samples drawn per problem: the pool MV@k is drawn from, k when no larger pool is asked for. */
export function samplesOf(settings: LoopSettings): number {
  return Math.max(Number(optionOf(settings, SAMPLES_FLAG)), Number(optionOf(settings, VOTE_POOL_FLAG)));
}

interface MajorityState {
  samples: Array<CandidateView | null>;
  /** The iteration being saved, once all samples are in. */
  iteration: number;
}

/** The samples iteration `iteration` of `total` holds, out of `n`. */
export function samplesAt(iteration: number, total: number, n: number): number {
  return Math.max(1, Math.floor((n * (iteration + 1)) / total));
}

function save(state: MajorityState, input: ProblemInput): Step<MajorityState> {
  const n = state.samples.length;
  const shown = state.samples.slice(0, samplesAt(state.iteration, input.settings.maxIterations, n));
  const views = shown.map((view, candidate) => view ?? { candidate, ...NO_RESPONSE });
  return { state, post: [], effect: saveOf(state.iteration, views, input) };
}

function settle(state: MajorityState, view: CandidateView, input: ProblemInput): Step<MajorityState> {
  const samples = state.samples.map((sample, index) => (index === view.candidate ? view : sample));
  const next = { ...state, samples };
  return samples.every((sample) => sample !== null) ? save(next, input) : waiting(next);
}

/** The majority-vote program. */
export const majorityProgram: ProblemProgram<MajorityState> = {
  id: 'majority',
  start(input) {
    const n = samplesOf(input.settings);
    const post = Array.from({ length: n }, (_, candidate) => normalSolutionRequest(input, 0, candidate));
    return waiting({ samples: Array.from({ length: n }, () => null), iteration: 0 }, post);
  },
  receive(state, message, input) {
    if (message.type === 'solution.completed') return settle(state, { candidate: message.candidate, ...responseOf(message) }, input);
    if (message.type === 'llm.failed' && message.role === 'solution') {
      return settle(state, { candidate: message.index, ...NO_RESPONSE, failures: [failureOf(message)] }, input);
    }
    return waiting(state);
  },
  saved(state, input) {
    return nextIteration(state, state.iteration, input, (iteration) => save({ ...state, iteration }, input));
  },
};
