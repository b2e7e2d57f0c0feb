/**
 * Self-Refine: iteration 0 writes N candidates; every later iteration, each
 * candidate critiques its own solution and then rewrites it (one critique and
 * one rewrite per candidate per iteration). As in madaan/self-refine (the
 * task_iterate prompts get every earlier attempt with its feedback; the gsm
 * feedback prompt grows by each attempt), a rewrite sees the candidate's
 * whole history: its earlier attempts with their critiques, then the current
 * attempt and critique; the critique sees the current attempt. As upstream
 * (upstream's GSM runner stops once the feedback says "it is correct"), a candidate
 * whose critique finds no error is not rewritten and is done: it makes no
 * more calls and keeps that solution in every later iteration, where it still
 * counts. A candidate whose solution failed, or was cut at its length limit
 * or by a content filter (it has no answer, and at a window-filling limit a
 * critique quoting it could not fit the window), is solved afresh (and its
 * history is cleared); a failed or unusable critique (empty, or cut) and a
 * failed rewrite keep the solution the candidate had.
 */
import type { Message, RefinementStep } from '../../../src/kernel/protocol.ts';
import { isWhole } from '../../candidates.ts';
import type { ProblemInput } from '../../contract.ts';
import { nextIteration, waiting, type ProblemProgram, type Step } from '../../program.ts';
import { failureOf, messageBase, NO_RESPONSE, normalSolutionRequest, responseOf, saveOf, type CandidateView } from '../../kit.ts';

interface Candidate extends CandidateView {
  /** Earlier attempts with their critiques, oldest first. */
  history: RefinementStep[];
  /** This iteration's critique of `text`, once in. */
  critique?: string;
  /** Its critique found no error: no more calls, the solution stays. */
  stopped: boolean;
  settled: boolean;
  failures: string[];
}

interface SelfRefineState {
  iteration: number;
  candidates: Candidate[];
}

function change(state: SelfRefineState, index: number, update: (candidate: Candidate) => Candidate, input: ProblemInput, post: Message[] = []): Step<SelfRefineState> {
  const candidates = state.candidates.map((candidate) => (candidate.candidate === index ? update(candidate) : candidate));
  const next = { ...state, candidates };
  if (!candidates.every((candidate) => candidate.settled)) return waiting(next, post);
  return { state: next, post, effect: saveOf(state.iteration, candidates, input) };
}

/** The Self-Refine program. */
export const selfRefineProgram: ProblemProgram<SelfRefineState> = {
  id: 'self-refine',
  start(input) {
    const n = input.settings.nCandidates;
    const candidates = Array.from({ length: n }, (_, candidate): Candidate => ({ candidate, ...NO_RESPONSE, history: [], stopped: false, settled: false, failures: [] }));
    return waiting({ iteration: 0, candidates }, candidates.map((c) => normalSolutionRequest(input, 0, c.candidate)));
  },
  receive(state, message, input) {
    switch (message.type) {
      case 'solution.completed':
        return change(state, message.candidate, (c) => ({ ...c, ...responseOf(message), history: [], settled: true }), input);
      case 'rewrite.completed':
        return change(
          state,
          message.candidate,
          (c) => ({ ...c, history: [...c.history, { solution: c.text ?? '', critique: c.critique ?? '' }], ...responseOf(message), settled: true }),
          input,
        );
      case 'critique.completed': {
        // Upstream's stop: nothing to fix, so no rewrite, now or later.
        if (message.correct) return change(state, message.candidate, (c) => ({ ...c, stopped: true, settled: true }), input);
        // An unusable critique (empty, or cut before its end) has no feedback to rewrite from: it is a failed critique.
        if (message.parseError !== undefined) return change(state, message.candidate, (c) => ({ ...c, settled: true }), input);
        const current = state.candidates.find((c) => c.candidate === message.candidate);
        const rewrite: Message = {
          type: 'rewrite.requested',
          ...messageBase(input, state.iteration, 'rewrite', message.candidate),
          candidate: message.candidate,
          question: input.problem.question,
          solution: current?.text ?? '',
          critique: message.critique,
          history: current?.history ?? [],
        };
        const candidates = state.candidates.map((c) => (c.candidate === message.candidate ? { ...c, critique: message.critique } : c));
        return waiting({ ...state, candidates }, [rewrite]);
      }
      case 'llm.failed':
        // Solution: the candidate has nothing this iteration; critique or rewrite: it keeps its solution.
        return change(state, message.index, (c) => ({ ...c, ...(message.role === 'solution' ? NO_RESPONSE : {}), settled: true, failures: [...c.failures, failureOf(message)] }), input);
      default:
        return waiting(state);
    }
  },
  saved(state, input) {
    return nextIteration(state, state.iteration, input, (iteration) => {
      // A stopped candidate is settled from the start: it waits for nothing.
      const candidates = state.candidates.map(({ critique: _done, ...c }): Candidate => ({ ...c, settled: c.stopped, failures: [] }));
      const post = candidates
        .filter((c) => !c.stopped)
        .map((c): Message =>
          isWhole(c)
            ? { type: 'critique.requested', ...messageBase(input, iteration, 'critique', c.candidate), candidate: c.candidate, question: input.problem.question, solution: c.text }
            : normalSolutionRequest(input, iteration, c.candidate),
        );
      const next = { iteration, candidates };
      // Every candidate stopped: the iteration is saved as it stands, without a call.
      if (post.length === 0) return { state: next, post, effect: saveOf(iteration, candidates, input) };
      return waiting(next, post);
    });
  },
};
