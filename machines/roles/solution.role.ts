/**
 * The Solution agent: writes one candidate. Its prompt depends on the
 * candidate's source (DESIGN.md section 1): `normal` sees the problem alone,
 * `experience` (exploit) sees R(t-1) and E(t-1), `guideline` (explore) sees
 * G(t-1) and is asked for a strategy none of them used.
 */
import { extractAnswer } from '../../src/grader/index.ts';
import type { MessageOf } from '../../src/kernel/protocol.ts';
import { callInfo, replyBase } from '../reply.ts';
import { experienceParts, guidelineParts, instructionPart, problemPart, rolloutParts, type PromptSpec } from '../prompt.ts';
import { createRoleMachine, type RoleDefinition, type RoleOptions } from '../role.machine.ts';

function system(options: RoleOptions): string {
  return options.proof
    ? 'You are the Solution agent of a team that solves hard mathematics problems. ' +
        'Write a complete and rigorous proof: justify every step. State the final result in \\boxed{} on the last line.'
    : 'You are the Solution agent of a team that solves hard mathematics problems. ' +
        'Reason step by step and check your work. Put the final answer, and only the final answer, in \\boxed{} on the last line.';
}

/** Builds the solution prompt for a candidate. */
export function solutionPrompt(request: MessageOf<'solution.requested'>, options: RoleOptions): PromptSpec {
  const problem = problemPart(request.question);
  switch (request.source) {
    case 'normal':
      return { system: system(options), parts: [problem, instructionPart('Solve the problem above.')] };
    case 'experience':
      return {
        system: system(options),
        parts: [
          problem,
          ...rolloutParts(request.rollouts),
          ...experienceParts(request.experience),
          instructionPart(
            'Above are the previous attempts at this problem, each with its final answer, the summary of its ' +
              'verifications and its score, and an experience bank of reliable intermediate conclusions and known ' +
              'pitfalls. Build on the reliable conclusions, avoid the pitfalls, and write an improved, complete solution.',
          ),
        ],
      };
    case 'guideline':
      return {
        system: system(options),
        parts: [
          problem,
          ...guidelineParts(request.guidelines),
          instructionPart(
            'Above are the high-level strategies already tried on this problem and how each fared. Solve the ' +
              'problem with a strategy that differs from all of them. Name it on the first line as "Strategy: ...".',
          ),
        ],
      };
  }
}

/** The Solution agent's definition. */
export const solutionRole = {
  role: 'solution',
  request: 'solution.requested',
  index: (request) => request.candidate,
  prompt: solutionPrompt,
  reply: (request, output) => ({
    type: 'solution.completed',
    ...replyBase(request),
    candidate: request.candidate,
    source: request.source,
    text: output.content,
    // A solution cut at the length limit has no final answer, even if a \boxed{} made it into the first part.
    answer: output.finishReason === 'length' ? null : extractAnswer(output.content),
    call: callInfo(output),
  }),
} satisfies RoleDefinition<'solution.requested'>;

/** The Solution agent's actor definition. */
export const solutionMachine = createRoleMachine(solutionRole);
