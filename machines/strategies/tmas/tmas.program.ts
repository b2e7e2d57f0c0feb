/**
 * TMAS, the reference method (docs/concepts/tmas-loop.md), as a problem program:
 * per iteration, N solution requests; each candidate's M verifications as
 * soon as that candidate exists (under `--schedule barrier`, once all N are
 * in); its summary once its M verifications are in; the experience and
 * guideline updates in parallel once all N summaries are in; then the banks
 * are deduplicated, and the iteration is judged, saved and announced by the
 * problem machine. Each solution goes to the judge as soon as it arrives, so
 * the judge's passes overlap the rest of the loop.
 *
 * Unlike the baselines, a resumed TMAS problem starts after its last saved
 * iteration, from the banks and rollouts saved with it (`input.start`).
 */
import type { ExperienceRecord, GuidelineRecord, Message, MessageOf } from '../../../src/kernel/protocol.ts';
import { addVerification, createCandidates, isWhole, toCandidateResult, toRollouts, updateCandidate, withoutAnalyses, withoutSummary, type CandidateState } from '../../candidates.ts';
import type { DedupBanksOutput, ProblemInput } from '../../contract.ts';
import { failureOf, responseOf, ruleReference } from '../../kit.ts';
import { VERIFICATION_INDEX_STRIDE } from '../../roles/verification.role.ts';
import { nextIteration, waiting, type ProblemProgram, type Step } from '../../program.ts';
import { bankRequests, solutionRequests, summaryRequest, verificationRequests, type TmasIteration } from './tmas.requests.ts';

interface TmasState extends TmasIteration {
  /** The bank agents' new records, once each has answered (an empty list when its call failed). */
  newExperience: ExperienceRecord[] | null;
  newGuidelines: GuidelineRecord[] | null;
}

function isBarrier(input: ProblemInput): boolean {
  return input.settings.schedule === 'barrier';
}

/** True once every candidate's solution is in or has failed for good. */
function allSolved(candidates: CandidateState[]): boolean {
  return candidates.every((candidate) => candidate.text !== null || candidate.summarized);
}

/** Iteration `state.iteration` begins: N fresh candidates, ε-greedy between exploit and explore. */
function begin(input: ProblemInput, state: TmasState): Step<TmasState> {
  const { seed, nCandidates: n, epsilon } = input.settings;
  const candidates = createCandidates({ seed, problem: input.problem.id, iteration: state.iteration, n, epsilon });
  const next: TmasState = { ...state, candidates, newExperience: null, newGuidelines: null };
  // R(t-1) travels in the exploit requests, which hold it while their calls run; the state holds R(t) once the summaries are in.
  return waiting({ ...next, rollouts: [] }, solutionRequests(input, next));
}

/** After a reply of the solving phase: once every summary is in, R(t) is taken and the two bank updates are asked for. */
function settle(input: ProblemInput, state: TmasState, post: Message[], judge?: Step<TmasState>['judge']): Step<TmasState> {
  const step: Step<TmasState> = { ...waiting(state, post), ...(judge === undefined ? {} : { judge }) };
  if (!state.candidates.every((candidate) => candidate.summarized)) return step;
  const evolving = { ...state, rollouts: toRollouts(state.candidates) };
  return { ...step, state: evolving, post: [...post, ...bankRequests(input, evolving)] };
}

function solved(input: ProblemInput, state: TmasState, event: MessageOf<'solution.completed'>): Step<TmasState> {
  const response = responseOf(event);
  // A cut or empty solution is a candidate with no answer: nothing to verify or summarise (isWhole).
  const candidates = updateCandidate(state.candidates, event.candidate, (candidate) => ({ ...candidate, ...response, summarized: !isWhole(response) }));
  // Verification starts as soon as the candidate exists, not when the iteration's last one does (unless a barrier is asked for).
  const ready = isBarrier(input) ? (allSolved(candidates) ? candidates : []) : candidates.filter((candidate) => candidate.candidate === event.candidate);
  // The judge needs only the solution: its passes start at once, whatever the schedule.
  const judge = { iteration: state.iteration, responses: [{ candidate: event.candidate, ...response }] };
  return settle(input, { ...state, candidates }, verificationRequests(input, state.iteration, ready), judge);
}

/**
 * Records a verification (or a failed one, with a null score); once the
 * candidate has all M, asks for its summary (under a barrier: once every
 * candidate with a solution has all M, every summary).
 */
function verified(input: ProblemInput, state: TmasState, index: number, verification: { index: number; score: number | null; analysis: string }, failed: string | null): Step<TmasState> {
  const before = state.candidates.find((candidate) => candidate.candidate === index);
  if (!before) return waiting(state);
  let after = addVerification(before, verification);
  if (failed) after = { ...after, failures: [...after.failures, failed] };
  const candidates = updateCandidate(state.candidates, index, () => after);
  const next = { ...state, candidates };
  const complete = (candidate: CandidateState) => candidate.verifications.length >= input.settings.nVerifications;
  if (!complete(after)) return settle(input, next, []);
  if (!isBarrier(input)) return summariesAsked(input, next, [after]);
  const waitingOn = candidates.filter((candidate) => candidate.text !== null && !candidate.summarized);
  return waitingOn.every(complete) ? summariesAsked(input, next, waitingOn) : settle(input, next, []);
}

/**
 * Asks for the summaries of `asking`; from then on their requests carry the
 * verifiers' analyses, and the state keeps only the scores (all that the
 * results and R(t) read), so that a problem holds its M analyses per
 * candidate only while they are waited on.
 */
function summariesAsked(input: ProblemInput, state: TmasState, asking: CandidateState[]): Step<TmasState> {
  const post = asking.map((candidate) => summaryRequest(input, state.iteration, candidate));
  const asked = new Set(asking.map((candidate) => candidate.candidate));
  const candidates = state.candidates.map((candidate) => (asked.has(candidate.candidate) ? withoutAnalyses(candidate) : candidate));
  return settle(input, { ...state, candidates }, post);
}

/** Both bank agents have answered: their new records go to the deduplication. */
function banksIn(input: ProblemInput, state: TmasState): Step<TmasState> {
  if (state.newExperience === null || state.newGuidelines === null) return waiting(state);
  const dedup = { experience: state.experience, newExperience: state.newExperience, guidelines: state.guidelines, newGuidelines: state.newGuidelines, threshold: input.settings.jaccardThreshold };
  return { state, post: [], effect: { kind: 'dedup', input: dedup } };
}

/** A loop call that failed for good (the judge's are the problem machine's). */
function failed(input: ProblemInput, state: TmasState, event: MessageOf<'llm.failed'>): Step<TmasState> {
  const failure = failureOf(event);
  switch (event.role) {
    case 'solution': {
      // No solution: nothing to verify or summarise; the candidate counts as unanswered.
      const candidates = updateCandidate(state.candidates, event.index, (candidate) => ({ ...candidate, text: null, summarized: true, failures: [...candidate.failures, failure] }));
      const post = isBarrier(input) && allSolved(candidates) ? verificationRequests(input, state.iteration, candidates) : [];
      return settle(input, { ...state, candidates }, post);
    }
    case 'verification':
      return verified(input, state, Math.floor(event.index / VERIFICATION_INDEX_STRIDE), { index: event.index % VERIFICATION_INDEX_STRIDE, score: null, analysis: '' }, failure);
    case 'summary':
      return settle(input, { ...state, candidates: updateCandidate(state.candidates, event.index, (candidate) => withoutSummary(candidate, failure)) }, []);
    case 'experience':
      return banksIn(input, { ...state, newExperience: [] });
    case 'guideline':
      return banksIn(input, { ...state, newGuidelines: [] });
    default:
      return waiting(state);
  }
}

/** The iteration's banks are deduplicated: it is saved with its results, R(t) and the banks, and announced with the banks' update. */
function deduped(state: TmasState, output: DedupBanksOutput, input: ProblemInput): Step<TmasState> {
  const stats = (before: number, added: number, after: number) => ({ added: after - before, dropped: before + added - after, size: after });
  const bank = {
    experience: stats(state.experience.length, state.newExperience?.length ?? 0, output.experience.length),
    guideline: stats(state.guidelines.length, state.newGuidelines?.length ?? 0, output.guidelines.length),
  };
  const next = { ...state, experience: output.experience, guidelines: output.guidelines };
  const reference = ruleReference(input);
  return {
    state: next,
    post: [],
    effect: {
      kind: 'save',
      iteration: state.iteration,
      candidates: state.candidates.map((candidate) => toCandidateResult(candidate, reference, input.problem.question)),
      rollouts: state.rollouts,
      experience: output.experience,
      guidelines: output.guidelines,
      bank,
      responses: state.candidates.map(({ candidate, text, answer, cut, filtered }) => ({ candidate, text, answer, cut, filtered })),
    },
  };
}

/** The TMAS program. */
export const tmasProgram: ProblemProgram<TmasState> = {
  id: 'tmas',
  firstIteration: (input) => input.start.iteration,
  start(input) {
    const { iteration, experience, guidelines, rollouts } = input.start;
    const state: TmasState = { iteration, candidates: [], experience, guidelines, rollouts, newExperience: null, newGuidelines: null };
    // A resumed problem that had finished: nothing left to do.
    if (iteration >= input.settings.maxIterations) return { state, post: [], effect: { kind: 'done', iterations: input.settings.maxIterations } };
    return begin(input, state);
  },
  receive(state, message, input) {
    switch (message.type) {
      case 'solution.completed':
        return solved(input, state, message);
      case 'verification.completed':
        return verified(input, state, message.candidate, { index: message.index, score: message.score, analysis: message.analysis }, null);
      case 'summary.completed': {
        const candidates = updateCandidate(state.candidates, message.candidate, (candidate) => ({ ...candidate, summarized: true, summary: message.summary, summaryScore: message.score }));
        return settle(input, { ...state, candidates }, []);
      }
      case 'experience.completed':
        return banksIn(input, { ...state, newExperience: message.records });
      case 'guideline.completed':
        return banksIn(input, { ...state, newGuidelines: message.records });
      case 'llm.failed':
        return failed(input, state, message);
      default:
        return waiting(state);
    }
  },
  deduped,
  saved(state, input) {
    return nextIteration(state, state.iteration, input, (iteration) => begin(input, { ...state, iteration }));
  },
};
