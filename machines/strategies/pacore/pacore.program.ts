/**
 * PaCoRe (parallel coordinated reasoning) as a program, following
 * stepfun-ai/PaCoRe's inference code: round t sends K_t requests; round 0
 * asks the problem alone, every later round asks with the previous round's
 * responses as references. The references are the previous round's non-empty
 * responses, each compacted to the text after its last `</think>` (the whole
 * content when there is none), ordered by content length and then by a fixed
 * seeded permutation (upstream shuffles with one seed for every call, so the
 * order depends only on the run's seed and the count). Each round is one
 * iteration and is graded.
 */
import type { Message } from '../../../src/kernel/protocol.ts';
import { createRandom, seedFor } from '../../../src/kernel/prng.ts';
import { optionOf, type LoopSettings, type ProblemInput, type StrategyFlag } from '../../contract.ts';
import { failureOf, messageBase, NO_RESPONSE, responseOf, saveOf, type CandidateView } from '../../kit.ts';
import { nextIteration, waiting, type ProblemProgram, type Step } from '../../program.ts';

/**
 * `--round-widths`: responses per round. The default is upstream's
 * (pacore/batch_inference/base_exp.py: `num_responses_per_round = [4]`, to
 * which one final synthesis call is always appended): a round of 4, then 1.
 */
export const ROUND_WIDTHS_FLAG = {
  name: 'round-widths',
  value: '<k,k,...>',
  description: "responses per round, comma-separated; the last width repeats for later rounds; empty: --n-candidates every round (tmas table1's choice); the default is upstream's, a round of 4 then one final synthesis",
  type: 'integer-list',
  min: 1,
  max: 1024,
  default: '4,1',
  shapesCalls: true,
} as const satisfies StrategyFlag;

/** The responses of round `round`: its width in `--round-widths` (the last repeating); N when the list is empty. */
export function widthOf(settings: LoopSettings, round: number): number {
  const widths = String(optionOf(settings, ROUND_WIDTHS_FLAG))
    .split(',')
    .filter((width) => width.trim() !== '')
    .map(Number);
  if (widths.length === 0) return settings.nCandidates;
  return widths[Math.min(round, widths.length - 1)] ?? settings.nCandidates;
}

/** What the next round sees of a response: the text after its last `</think>`, or all of it. */
export function compactResponse(content: string): string {
  const end = content.lastIndexOf('</think>');
  return end < 0 ? content : content.slice(end + '</think>'.length);
}

/** A fixed permutation of `items` for a run's seed and their count (Fisher-Yates). */
function permuted<T>(items: T[], seed: number): T[] {
  const random = createRandom(seedFor(seed, 'pacore-reference-order', items.length));
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The references a round after `responses` sends: ordered by length, then permuted; empty responses left out; compacted. */
export function referencesOf(responses: Array<Pick<CandidateView, 'candidate' | 'text'>>, seed: number): string[] {
  const byLength = [...responses].sort((a, b) => (a.text ?? '').length - (b.text ?? '').length || a.candidate - b.candidate);
  return permuted(byLength, seed)
    .map((response) => response.text ?? '')
    .filter((text) => text !== '')
    .map(compactResponse);
}

interface Response extends CandidateView {
  settled: boolean;
  failures: string[];
}

interface PacoreState {
  round: number;
  responses: Response[];
}

function ask(input: ProblemInput, round: number, references: string[]): { responses: Response[]; post: Message[] } {
  const responses = Array.from({ length: widthOf(input.settings, round) }, (_, candidate): Response => ({ candidate, ...NO_RESPONSE, settled: false, failures: [] }));
  const post = responses.map((r): Message => ({
    type: 'synthesis.requested',
    ...messageBase(input, round, 'synthesis', r.candidate),
    candidate: r.candidate,
    question: input.problem.question,
    references,
  }));
  return { responses, post };
}

function settle(state: PacoreState, index: number, update: Partial<Response>, input: ProblemInput): Step<PacoreState> {
  const responses = state.responses.map((r) => (r.candidate === index ? { ...r, ...update, settled: true } : r));
  const next = { ...state, responses };
  if (!responses.every((r) => r.settled)) return waiting(next);
  return { state: next, post: [], effect: saveOf(state.round, responses, input) };
}

/** The PaCoRe program. */
export const pacoreProgram: ProblemProgram<PacoreState> = {
  id: 'pacore',
  start(input) {
    const { responses, post } = ask(input, 0, []);
    return waiting({ round: 0, responses }, post);
  },
  receive(state, message, input) {
    if (message.type === 'synthesis.completed') return settle(state, message.candidate, responseOf(message), input);
    // A failed call leaves an empty response, which the next round leaves out (as upstream does).
    if (message.type === 'llm.failed') return settle(state, message.index, { ...NO_RESPONSE, failures: [failureOf(message)] }, input);
    return waiting(state);
  },
  saved(state, input) {
    return nextIteration(state, state.round, input, (round) => {
      const { responses, post } = ask(input, round, referencesOf(state.responses, input.settings.seed));
      return waiting({ round, responses }, post);
    });
  },
};
