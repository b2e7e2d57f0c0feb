/**
 * Small pure helpers the baseline strategies share: message bases and
 * correlation ids, the result line of a candidate, and prompt lines.
 */
import type { BankUpdated, CallInfo, CandidateResult, Message, MessageOf, Verification } from '../src/kernel/protocol.ts';
import { toCandidateResult } from './candidates.ts';
import { cutOff } from './reply.ts';
import type { ProblemInput } from './contract.ts';

/** The fields every message of a problem's iteration carries, with a deterministic correlation id. */
export function messageBase(input: ProblemInput, iteration: number, role: string, index: number | string) {
  return { run: input.run, problem: input.problem.id, iteration, correlation: `${input.problem.id}/${iteration}/${role}/${index}` };
}

/** The Solution agent asked for one candidate from the problem alone (source `normal`), as every baseline asks it. */
export function normalSolutionRequest(input: ProblemInput, iteration: number, candidate: number): MessageOf<'solution.requested'> {
  return { type: 'solution.requested', ...messageBase(input, iteration, 'solution', candidate), candidate, source: 'normal', question: input.problem.question, rollouts: [], experience: [], guidelines: [] };
}

/** The messages that announce a saved iteration: its banks' update (when it has banks) and its results. */
export function iterationAnnouncement(
  input: ProblemInput,
  iteration: number,
  candidates: CandidateResult[],
  bank?: Omit<BankUpdated, 'type' | 'run' | 'problem' | 'iteration' | 'correlation'> | null,
): Message[] {
  const messages: Message[] = [];
  if (bank) messages.push({ type: 'bank.updated', ...messageBase(input, iteration, 'bank', 0), ...bank });
  messages.push({ type: 'iteration.completed', ...messageBase(input, iteration, 'iteration', 0), candidates });
  return messages;
}

/** How a failed call is recorded in a candidate's `failures`. */
export function failureOf(event: MessageOf<'llm.failed'>): string {
  return `${event.role}: ${event.code}: ${event.error}`;
}

/** What a baseline knows about one candidate at the end of an iteration. */
export interface CandidateView extends CandidateResponse {
  candidate: number;
  verifications?: Verification[];
  score?: number | null;
  summary?: string;
  failures?: string[];
}

/**
 * A candidate's response: its text (null: none), the answer extracted from it,
 * and whether the model was cut off before its end (reply.ts cutOff: at its
 * length limit, or by a content filter) and by which, which the judge is told. Taken from a reply by `responseOf`, so
 * every strategy records a cut the same way.
 */
export interface CandidateResponse {
  text: string | null;
  answer: string | null;
  cut: boolean;
  /** The cut was the provider's content filter's (`finish_reason: "content_filter"`), not the length limit. */
  filtered: boolean;
}

/** No response (none yet, or its call failed). */
export const NO_RESPONSE: CandidateResponse = { text: null, answer: null, cut: false, filtered: false };

/** The response a reply carries. */
export function responseOf(reply: { text: string; answer: string | null; call: CallInfo }): CandidateResponse & { text: string } {
  return { text: reply.text, answer: reply.answer, cut: cutOff(reply.call) !== null, filtered: reply.call.finishReason === 'content_filter' };
}

/** What the rule-based grader compares against: the short answer; none in proof mode, where only the judge grades. */
export function ruleReference(input: ProblemInput): string | undefined {
  return input.settings.proof === true ? undefined : input.problem.answer;
}

/** The result line of a candidate, rule-graded against the problem's reference answer when there is one. */
export function resultOf(view: CandidateView, input: ProblemInput): CandidateResult {
  return toCandidateResult(
    {
      candidate: view.candidate,
      source: 'normal',
      text: view.text,
      answer: view.answer,
      cut: view.cut,
      filtered: view.filtered,
      verifications: view.verifications ?? [],
      summarized: true,
      summary: view.summary ?? '',
      summaryScore: view.score ?? null,
      failures: view.failures ?? [],
    },
    ruleReference(input),
    input.problem.question,
  );
}

/** The system line that names a role to the model (and to the simulator, which reads "You are the X agent"). */
export function roleLine(name: string, duty: string): string {
  return `You are the ${name} agent of a team that solves hard mathematics problems. ${duty}`;
}

/** The closing instruction of every prompt that asks for a solution. */
export function answerInstruction(proof: boolean): string {
  return proof
    ? 'Write a complete and rigorous proof, and state the final result in \\boxed{} on the last line.'
    : 'Reason step by step, and put the final answer, and only the final answer, in \\boxed{} on the last line.';
}

/** The closing instruction of every prompt that asks for a solution, as a template reads it (by its `proof` variable). */
export const ANSWER_INSTRUCTION = `{% if proof %}${answerInstruction(true)}{% else %}${answerInstruction(false)}{% endif %}`;

/** The `save` effect of an iteration whose candidates are `views`: their result lines, and what the judge stage reads of each. */
export function saveOf(iteration: number, views: CandidateView[], input: ProblemInput) {
  return {
    kind: 'save' as const,
    iteration,
    candidates: views.map((view) => resultOf(view, input)),
    responses: views.map(({ candidate, text, answer, cut, filtered }) => ({ candidate, text, answer, cut, filtered })),
  };
}
