/**
 * The Experience agent: distils the iteration's rollouts into reliable
 * intermediate conclusions and pitfalls, as strict JSON. The problem actor
 * merges them into the bank with Jaccard deduplication.
 */
import { z } from 'zod';
import type { ExperienceRecord } from '../../../src/kernel/protocol.ts';
import { bankRecordRole, recordList } from '../../bank-record-role.ts';
import { parseJsonReply, replyBase } from '../../reply.ts';
import { COMMON_VARIABLES, PROBLEM_BLOCK } from '../../role-template.ts';
import { createRoleMachine } from '../../role.machine.ts';
import { CONTEXT_VARIABLES, EXPERIENCE_BLOCK, experienceValues, ROLLOUTS_BLOCK, ROUND_ROLLOUTS_VARIABLE, roundValues } from './tmas-context.ts';

const item = z.object({ text: z.string().min(1), candidate: z.number().int().nonnegative().nullable().optional() });
const schema = z.object({ conclusions: z.array(item).default([]), pitfalls: z.array(item).default([]) });

/** The new records of a reply, with provenance; throws when the reply is not the schema. */
export function parseExperience(text: string, iteration: number, callKey: string): ExperienceRecord[] {
  const value = parseJsonReply(text);
  // Either list may be left out when empty, but an object with neither is not an empty update: it is another schema.
  if (typeof value === 'object' && value !== null && !('conclusions' in value) && !('pitfalls' in value)) throw new SyntaxError('a JSON object with neither "conclusions" nor "pitfalls"');
  const parsed = schema.parse(value);
  const record = (kind: ExperienceRecord['kind']) => (entry: z.infer<typeof item>): ExperienceRecord => ({
    kind,
    text: entry.text,
    provenance: { iteration, candidate: entry.candidate ?? null, callKey },
  });
  return [...parsed.conclusions.map(record('conclusion')), ...parsed.pitfalls.map(record('pitfall'))];
}

/** A one-line reason for a parse failure. */
export function describeParseError(error: unknown): string {
  if (error instanceof z.ZodError) return `not the expected schema: ${error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`;
  return error instanceof Error ? error.message : String(error);
}

/** The Experience agent's definition. */
export const experienceRole = bankRecordRole('experience', {
  index: () => 0,
  /** The Experience agent's user message: the problem, the round's rollouts and the bank so far. */
  template: {
    source: `${PROBLEM_BLOCK}

${ROLLOUTS_BLOCK}

${EXPERIENCE_BLOCK}

From the attempts above, extract (1) reliable intermediate conclusions that verified steps support, and \
(2) pitfalls: the errors that made attempts fail. Do not repeat what the experience bank already holds. \
Answer with JSON only, in a \`\`\`json block: \
{"conclusions": [{"text": "...", "candidate": 0}], "pitfalls": [{"text": "...", "candidate": 2}]}`,
    variables: {
      problem: COMMON_VARIABLES.problem,
      proof: COMMON_VARIABLES.proof,
      rollouts: ROUND_ROLLOUTS_VARIABLE,
      experience: CONTEXT_VARIABLES.experience,
    },
    system: () => 'You are the Experience agent of a team that solves hard mathematics problems. ' + 'You distil reusable knowledge from a round of attempts at one problem.',
    values: (request, options) => roundValues(request, options, 'experience', experienceValues(request.bank)),
  },
  ...recordList(parseExperience),
  describe: describeParseError,
  reply: (request, parsed, call) => ({ type: 'experience.completed', ...replyBase(request), ...parsed, call }),
  retried: true,
});

/** Builds the experience prompt for an iteration. */
export const experiencePrompt = experienceRole.prompt;

/** The Experience agent's actor definition. */
export const experienceMachine = createRoleMachine(experienceRole);
