/**
 * The roles of `self-refine`: the Critique agent reviews a candidate's own
 * solution (ending with `SCORE: s`, and saying "It is correct." when it finds
 * no error), the Rewrite agent rewrites it in the light of that critique. The
 * first solution comes from the Solution agent.
 */
import { extractAnswer } from '../../../src/grader/index.ts';
import type { MessageOf, RefinementStep } from '../../../src/kernel/protocol.ts';
import { instructionPart, problemPart, solutionPart, type PromptPart, type PromptSpec } from '../../prompt.ts';
import { callInfo, parseScore, replyBase } from '../../reply.ts';
import { createRoleMachine, type RoleDefinition, type RoleOptions } from '../../role.machine.ts';
import { answerInstruction, roleLine } from '../../kit.ts';

/** The critique block a rewrite prompt carries. */
export function critiquePart(text: string): { id: string; text: string } {
  return { id: 'critique', text: `<critique>\n${text}\n</critique>` };
}

/** The sentence a critique that finds no error says: the stop phrase of madaan/self-refine's math feedback ("it is correct"). */
export const NO_ERROR = 'It is correct.';

/** Builds the critique prompt. */
export function critiquePrompt(request: MessageOf<'critique.requested'>): PromptSpec {
  return {
    system: roleLine('Critique', 'You review your own earlier solution as a demanding referee would.'),
    parts: [
      problemPart(request.question),
      solutionPart(request.solution),
      instructionPart(
        'Critique the solution above: list its errors, gaps and unjustified steps, and what should change. ' +
          `If you find no error at all, write "${NO_ERROR}" on a line of its own. On the last line write "SCORE: s", s in [0, 1].`,
      ),
    ],
  };
}

/**
 * Whether a critique found no error, upstream's stop: in its final text
 * (after the last `</think>`) a line ends with the sentence "It is correct",
 * whatever the case and the punctuation or emphasis around it ("There is no
 * error. It is correct!" as upstream's examples say it). Upstream looks for
 * the words anywhere in its few-shot-shaped feedback; ours is free prose, where
 * "check whether it is correct" must not stop a candidate.
 */
export function critiqueFindsNoError(text: string): boolean {
  const final = text.split('</think>').at(-1) ?? text;
  return /(?:^\s*|[.!?]\s+)[^a-z0-9\s]*it is correct[^a-z0-9]*$/im.test(final);
}

/** The Critique agent's definition. */
export const critiqueRole = {
  role: 'critique',
  endpoint: 'verification',
  request: 'critique.requested',
  index: (request) => request.candidate,
  prompt: critiquePrompt,
  reply: (request, output) => ({
    type: 'critique.completed',
    ...replyBase(request),
    candidate: request.candidate,
    critique: output.content,
    score: parseScore(output.content),
    correct: critiqueFindsNoError(output.content),
    call: callInfo(output),
  }),
} satisfies RoleDefinition<'critique.requested'>;

/**
 * The candidate's earlier attempts with their critiques, oldest first. When
 * the prompt does not fit the window, the oldest go first; the current
 * attempt and critique are always kept.
 */
export function historyParts(history: RefinementStep[]): PromptPart[] {
  if (history.length === 0) return [];
  const steps = history.map((step, index): PromptPart => ({
    id: `history-${index}`,
    text: `<attempt index="${index}">\n${step.solution}\n</attempt>\n<feedback index="${index}">\n${step.critique}\n</feedback>`,
    drop: index,
  }));
  return [{ id: 'history-open', text: '<history>\nYour earlier attempts at this problem and the critique each got, oldest first:' }, ...steps, { id: 'history-close', text: '</history>' }];
}

/** Builds the rewrite prompt: the earlier attempts and critiques, then the current attempt and its critique. */
export function rewritePrompt(request: MessageOf<'rewrite.requested'>, options: RoleOptions): PromptSpec {
  return {
    system: roleLine('Rewrite', 'You rewrite your own solution after a critique of it.'),
    parts: [
      problemPart(request.question),
      ...historyParts(request.history),
      solutionPart(request.solution),
      critiquePart(request.critique),
      instructionPart(`Rewrite the solution above, fixing every point of the critique${request.history.length > 0 ? ' without repeating the mistakes of the earlier attempts' : ''}. ${answerInstruction(options.proof)}`),
    ],
  };
}

/** The Rewrite agent's definition. */
export const rewriteRole = {
  role: 'rewrite',
  endpoint: 'solution',
  request: 'rewrite.requested',
  index: (request) => request.candidate,
  prompt: rewritePrompt,
  reply: (request, output) => ({ type: 'rewrite.completed', ...replyBase(request), candidate: request.candidate, text: output.content, answer: extractAnswer(output.content), call: callInfo(output) }),
} satisfies RoleDefinition<'rewrite.requested'>;

/** The Critique agent's actor definition. */
export const critiqueMachine = createRoleMachine(critiqueRole);
/** The Rewrite agent's actor definition. */
export const rewriteMachine = createRoleMachine(rewriteRole);
