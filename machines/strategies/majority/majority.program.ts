/**
 * MV@k: k independent samples of the Solution agent, majority vote. Its
 * "iterations" are growing sample counts so it plots on the same axis as the
 * iterative methods: iteration t holds the first max(1, ⌊k·(t+1)/T⌋) samples,
 * so the last iteration is MV@k. Every sample is requested up front (all in
 * iteration 0 of the journal); the iterations are announced once all are in.
 */
import type { MessageOf } from '../../../src/kernel/protocol.ts';
import { optionOf, type LoopSettings, type ProblemInput, type StrategyFlag } from '../../contract.ts';
import { finishedAfter, waiting, type ProblemProgram, type Step } from '../../program.ts';
import { failureOf, messageBase, NO_RESPONSE, responseOf, saveOf, type CandidateView } from '../../kit.ts';

/** `--samples`: samples per problem, k of MV@k. */
export const SAMPLES_FLAG = {
  name: 'samples',
  value: '<k>',
  description: 'samples per problem, k of MV@k',
  type: 'integer',
  min: 1,
  max: 100_000,
  default: 64,
  shapesCalls: true,
} as const satisfies StrategyFlag;

/** The samples per problem of a run's settings. */
export function samplesOf(settings: LoopSettings): number {
  return Number(optionOf(settings, SAMPLES_FLAG));
}

interface MajorityState {
  samples: Array<CandidateView | null>;
  /** The iteration being saved, once all samples are in. */
  iteration: number;
}

/** The samples iteration `iteration` of `total` holds, out of `k`. */
export function samplesAt(iteration: number, total: number, k: number): number {
  return Math.max(1, Math.floor((k * (iteration + 1)) / total));
}

function save(state: MajorityState, input: ProblemInput): Step<MajorityState> {
  const k = state.samples.length;
  const shown = state.samples.slice(0, samplesAt(state.iteration, input.settings.maxIterations, k));
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
    const k = samplesOf(input.settings);
    const post = Array.from({ length: k }, (_, candidate): MessageOf<'solution.requested'> => ({
      type: 'solution.requested',
      ...messageBase(input, 0, 'solution', candidate),
      candidate,
      source: 'normal',
      question: input.problem.question,
      rollouts: [],
      experience: [],
      guidelines: [],
    }));
    return waiting({ samples: Array.from({ length: k }, () => null), iteration: 0 }, post);
  },
  receive(state, message, input) {
    if (message.type === 'solution.completed') return settle(state, { candidate: message.candidate, ...responseOf(message) }, input);
    if (message.type === 'llm.failed' && message.role === 'solution') {
      return settle(state, { candidate: message.index, ...NO_RESPONSE, failures: [failureOf(message)] }, input);
    }
    return waiting(state);
  },
  saved(state, input) {
    const iteration = state.iteration + 1;
    const finished = finishedAfter(state, iteration, input);
    if (finished) return finished;
    return save({ ...state, iteration }, input);
  },
};
