/**
 * The requests of one TMAS iteration (docs/concepts/tmas-loop.md), as pure
 * functions of the program's state: the N solutions, each candidate's M
 * verifications, its summary, and the two bank updates.
 */
import type { ExperienceRecord, GuidelineRecord, Message, Rollout } from '../../../src/kernel/protocol.ts';
import { isWhole, type CandidateState } from '../../candidates.ts';
import type { ProblemInput } from '../../contract.ts';
import { messageBase } from '../../kit.ts';

/** What the requests read of the program's state. */
export interface TmasIteration {
  iteration: number;
  candidates: CandidateState[];
  experience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
  /** R(t-1) when iteration t begins (its solution requests carry it, the state lets it go); R(t) once its summaries are in. */
  rollouts: Rollout[];
}

/** The N solution requests: exploit prompts see R(t-1) and the experience bank, explore prompts the guideline bank. */
export function solutionRequests(input: ProblemInput, state: TmasIteration): Message[] {
  return state.candidates.map((candidate): Message => {
    const exploit = candidate.source === 'experience';
    return {
      type: 'solution.requested',
      ...messageBase(input, state.iteration, 'solution', candidate.candidate),
      candidate: candidate.candidate,
      source: candidate.source,
      question: input.problem.question,
      rollouts: exploit ? state.rollouts : [],
      experience: exploit ? state.experience : [],
      guidelines: candidate.source === 'guideline' ? state.guidelines : [],
    };
  });
}

/** The M verification requests of each of `candidates` whose solution is whole (a cut one is not verified). */
export function verificationRequests(input: ProblemInput, iteration: number, candidates: CandidateState[]): Message[] {
  const messages: Message[] = [];
  for (const candidate of candidates) {
    if (!isWhole(candidate)) continue;
    for (let index = 0; index < input.settings.nVerifications; index++) {
      messages.push({
        type: 'verification.requested',
        ...messageBase(input, iteration, 'verification', `${candidate.candidate}.${index}`),
        candidate: candidate.candidate,
        index,
        question: input.problem.question,
        solution: candidate.text,
      });
    }
  }
  return messages;
}

/** The summary request of a candidate whose M verifications are in. */
export function summaryRequest(input: ProblemInput, iteration: number, candidate: CandidateState): Message {
  return {
    type: 'summary.requested',
    ...messageBase(input, iteration, 'summary', candidate.candidate),
    candidate: candidate.candidate,
    question: input.problem.question,
    solution: candidate.text ?? '',
    verifications: candidate.verifications,
  };
}

/** The experience and guideline updates, asked in parallel once every summary is in; both read R(t). */
export function bankRequests(input: ProblemInput, state: TmasIteration): Message[] {
  const { run, problem, iteration } = messageBase(input, state.iteration, 'bank', 0);
  const shared = { run, problem, iteration, question: input.problem.question, rollouts: state.rollouts };
  return [
    { type: 'experience.requested', ...shared, correlation: messageBase(input, state.iteration, 'experience', 0).correlation, bank: state.experience },
    { type: 'guideline.requested', ...shared, correlation: messageBase(input, state.iteration, 'guideline', 0).correlation, bank: state.guidelines },
  ];
}
