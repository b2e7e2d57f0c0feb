/**
 * Verify-Refine in independent chains: iteration 0 writes N candidates; every later
 * iteration refines each candidate using the previous iteration's
 * verifications of it. In every iteration each candidate gets M verifications
 * (the TMAS Verification agent) as soon as it exists; its score is their mean.
 * A solution or refinement cut at its length limit or by a content filter has
 * no answer and is neither verified nor refined (at a window-filling limit a
 * prompt quoting it could not fit the window): the next iteration solves that
 * candidate afresh.
 */
import type { Message, Verification } from '../../../src/kernel/protocol.ts';
import { isWhole } from '../../candidates.ts';
import type { ProblemInput } from '../../contract.ts';
import { calibratedScore } from '../../roles/summary.role.ts';
import { VERIFICATION_INDEX_STRIDE } from '../../roles/verification.role.ts';
import { nextIteration, waiting, type ProblemProgram, type Step } from '../../program.ts';
import { failureOf, messageBase, NO_RESPONSE, normalSolutionRequest, responseOf, saveOf, type CandidateView } from '../../kit.ts';

interface Candidate extends CandidateView {
  verifications: Verification[];
  /** False until the solution (or its failure) and all M verifications are in. */
  settled: boolean;
  failures: string[];
}

interface VerifyRefineState {
  iteration: number;
  candidates: Candidate[];
}

function verify(input: ProblemInput, iteration: number, candidate: number, solution: string): Message[] {
  return Array.from({ length: input.settings.nVerifications }, (_, index): Message => ({
    type: 'verification.requested',
    ...messageBase(input, iteration, 'verification', `${candidate}.${index}`),
    candidate,
    index,
    question: input.problem.question,
    solution,
  }));
}

function update(state: VerifyRefineState, index: number, change: (candidate: Candidate) => Candidate, input: ProblemInput, post: Message[] = []): Step<VerifyRefineState> {
  const candidates = state.candidates.map((candidate) => {
    if (candidate.candidate !== index) return candidate;
    const changed = change(candidate);
    const settled = !isWhole(changed) || changed.verifications.length >= input.settings.nVerifications;
    return { ...changed, settled, score: calibratedScore(changed.verifications) };
  });
  const next = { ...state, candidates };
  if (!candidates.every((candidate) => candidate.settled)) return waiting(next, post);
  return { state: next, post, effect: saveOf(state.iteration, candidates, input) };
}

function addVerification(candidate: Candidate, verification: Verification): Candidate {
  return { ...candidate, verifications: [...candidate.verifications, verification].sort((a, b) => a.index - b.index) };
}

/** The Verify-Refine-in-chains program. */
export const verifyRefineChainsProgram: ProblemProgram<VerifyRefineState> = {
  id: 'verify-refine-chains',
  start(input) {
    const candidates = Array.from({ length: input.settings.nCandidates }, (_, candidate): Candidate => ({ candidate, ...NO_RESPONSE, verifications: [], settled: false, failures: [] }));
    return waiting({ iteration: 0, candidates }, candidates.map((c) => normalSolutionRequest(input, 0, c.candidate)));
  },
  receive(state, message, input) {
    switch (message.type) {
      case 'solution.completed':
      case 'refine.completed': {
        const response = responseOf(message);
        return update(state, message.candidate, (c) => ({ ...c, ...response }), input, isWhole(response) ? verify(input, state.iteration, message.candidate, message.text) : []);
      }
      case 'verification.completed':
        return update(state, message.candidate, (c) => addVerification(c, { index: message.index, score: message.score, analysis: message.analysis }), input);
      case 'llm.failed': {
        const failure = failureOf(message);
        if (message.role === 'verification') {
          const candidate = Math.floor(message.index / VERIFICATION_INDEX_STRIDE);
          return update(state, candidate, (c) => ({ ...addVerification(c, { index: message.index % VERIFICATION_INDEX_STRIDE, score: null, analysis: '' }), failures: [...c.failures, failure] }), input);
        }
        if (message.role === 'solution') return update(state, message.index, (c) => ({ ...c, ...NO_RESPONSE, failures: [...c.failures, failure] }), input);
        if (message.role === 'refine') {
          // The refinement failed: the candidate keeps its solution, which is verified again.
          const current = state.candidates.find((c) => c.candidate === message.index);
          return update(state, message.index, (c) => ({ ...c, failures: [...c.failures, failure] }), input, current?.text ? verify(input, state.iteration, message.index, current.text) : []);
        }
        return waiting(state);
      }
      default:
        return waiting(state);
    }
  },
  saved(state, input) {
    return nextIteration(state, state.iteration, input, (iteration) => {
      const post = state.candidates.map((c): Message =>
        isWhole(c)
          ? { type: 'refine.requested', ...messageBase(input, iteration, 'refine', c.candidate), candidate: c.candidate, question: input.problem.question, solution: c.text, verifications: c.verifications }
          : normalSolutionRequest(input, iteration, c.candidate),
      );
      const candidates = state.candidates.map((c) => ({ ...c, verifications: [], settled: false, failures: [] }));
      return waiting({ iteration, candidates }, post);
    });
  },
};
