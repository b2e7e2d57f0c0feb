/**
 * The roles of `rse` (Recycling Search Experience): the Rollout agent solves
 * with the problem's experience bank in its system prompt; the Distill agent
 * turns one rollout into verified propositions and critical pitfalls as strict
 * JSON. The bank is shown in the `<experience>` line format of the TMAS
 * prompts (`- [conclusion] …`, `- [pitfall] …`), which the simulator reads.
 */
import { extractAnswer } from '../../../src/grader/index.ts';
import type { ExperienceRecord, MessageOf } from '../../../src/kernel/protocol.ts';
import { instructionPart, problemPart, solutionPart, type PromptSpec } from '../../prompt.ts';
import { callInfo, parseJsonReply, replyBase } from '../../reply.ts';
import { createRoleMachine, type RoleDefinition, type RoleOptions } from '../../role.machine.ts';
import { answerInstruction, roleLine } from '../../kit.ts';

/** Retries of a distillation per rollout, index-keyed so each attempt is a new call: index = candidate × this + attempt. */
export const MAX_DISTILL_ATTEMPTS = 3;

/** The system prompt of a rollout: the bank, so every rollout of the iteration sees the same experience. */
export function rolloutSystem(experience: ExperienceRecord[], options: RoleOptions): string {
  const lead = roleLine('Rollout', answerInstruction(options.proof));
  if (experience.length === 0) return lead;
  const lines = experience.map((record) => `- [${record.kind}] ${record.text}`);
  return `${lead}\nExperience from earlier attempts at this problem: rely on the verified propositions, avoid the pitfalls.\n<experience>\n${lines.join('\n')}\n</experience>`;
}

/** The Rollout agent's definition. */
export const rolloutRole = {
  role: 'rollout',
  endpoint: 'solution',
  request: 'rollout.requested',
  index: (request) => request.candidate,
  prompt: (request, options): PromptSpec => ({ system: rolloutSystem(request.experience, options), parts: [problemPart(request.question), instructionPart('Solve the problem above.')] }),
  reply: (request, output) => ({ type: 'rollout.completed', ...replyBase(request), candidate: request.candidate, text: output.content, answer: extractAnswer(output.content), call: callInfo(output) }),
} satisfies RoleDefinition<'rollout.requested'>;

/** Parses the Distill agent's strict JSON: `{"propositions": string[], "pitfalls": string[]}`. Throws a SyntaxError saying what is wrong. */
export function parseDistillation(text: string): { propositions: string[]; pitfalls: string[] } {
  const value = parseJsonReply(text);
  const isStrings = (list: unknown): list is string[] => Array.isArray(list) && list.every((item) => typeof item === 'string');
  if (typeof value !== 'object' || value === null) throw new SyntaxError('the reply is not a JSON object');
  const { propositions, pitfalls } = value as Record<string, unknown>;
  if (!isStrings(propositions) || !isStrings(pitfalls)) throw new SyntaxError('"propositions" and "pitfalls" must both be arrays of strings');
  return { propositions, pitfalls };
}

/** Builds the distill prompt. */
export function distillPrompt(request: MessageOf<'distill.requested'>): PromptSpec {
  return {
    system: roleLine('Distill', 'You recycle a solution attempt into reusable experience. You answer in strict JSON only.'),
    parts: [
      problemPart(request.question),
      solutionPart(request.solution),
      instructionPart(
        'Check the attempt above. Extract (1) verified propositions: intermediate results you have checked and that will help solve the problem, ' +
          'and (2) critical pitfalls: mistakes in it that lead to a wrong answer. Answer with one JSON object and nothing else: ' +
          '{"propositions": ["..."], "pitfalls": ["..."]}',
      ),
    ],
  };
}

/** The Distill agent's definition. An invalid reply carries `parseError`; the problem actor retries it. */
export const distillRole = {
  role: 'distill',
  endpoint: 'experience',
  request: 'distill.requested',
  index: (request) => request.candidate * MAX_DISTILL_ATTEMPTS + request.attempt,
  prompt: distillPrompt,
  reply: (request, output) => {
    let parsed = { propositions: [] as string[], pitfalls: [] as string[] };
    let parseError: string | null = null;
    try {
      parsed = parseDistillation(output.content);
    } catch (error) {
      parseError = error instanceof Error ? error.message : String(error);
    }
    return { type: 'distill.completed', ...replyBase(request), candidate: request.candidate, attempt: request.attempt, ...parsed, parseError, call: callInfo(output) };
  },
} satisfies RoleDefinition<'distill.requested'>;

/** The Rollout agent's actor definition. */
export const rolloutMachine = createRoleMachine(rolloutRole);
/** The Distill agent's actor definition. */
export const distillMachine = createRoleMachine(distillRole);
