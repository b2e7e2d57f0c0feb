/**
 * The Refine agent of `verify-refine-chains`: rewrites a candidate using the
 * verifications of it (each with its analysis and score).
 */
import { extractAnswer } from '../../../src/grader/index.ts';
import type { MessageOf } from '../../../src/kernel/protocol.ts';
import { instructionPart, problemPart, solutionPart, type PromptSpec } from '../../prompt.ts';
import { callInfo, replyBase } from '../../reply.ts';
import { createRoleMachine, type RoleDefinition, type RoleOptions } from '../../role.machine.ts';
import { answerInstruction, roleLine } from '../../kit.ts';

/** Builds the refine prompt. */
export function refinePrompt(request: MessageOf<'refine.requested'>, options: RoleOptions): PromptSpec {
  const verifications = request.verifications.map((v) => `<verification index="${v.index}" score="${v.score === null ? 'none' : v.score.toFixed(3)}">\n${v.analysis}\n</verification>`);
  return {
    system: roleLine('Refine', 'You improve a candidate solution using independent verifications of it.'),
    parts: [
      problemPart(request.question),
      solutionPart(request.solution),
      { id: 'verifications', text: `<verifications>\n${verifications.join('\n')}\n</verifications>` },
      instructionPart(`Using the verifications above, correct every flaw they found and write a refined, complete solution. ${answerInstruction(options.proof)}`),
    ],
  };
}

/** The Refine agent's definition. */
export const refineRole = {
  role: 'refine',
  endpoint: 'solution',
  request: 'refine.requested',
  index: (request) => request.candidate,
  prompt: refinePrompt,
  reply: (request, output) => ({ type: 'refine.completed', ...replyBase(request), candidate: request.candidate, text: output.content, answer: extractAnswer(output.content), call: callInfo(output) }),
} satisfies RoleDefinition<'refine.requested'>;

/** The Refine agent's actor definition. */
export const refineMachine = createRoleMachine(refineRole);
