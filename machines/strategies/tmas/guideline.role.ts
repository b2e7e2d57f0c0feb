/**
 * The Guideline agent: names the high-level strategies the iteration's rollouts
 * used and how each fared, as strict JSON. Explore prompts of the next
 * iteration ask for a strategy that differs from all of them.
 */
import { z } from 'zod';
import type { GuidelineRecord } from '../../../src/kernel/protocol.ts';
import { describeParseError } from './experience.role.ts';
import { bankRecordRole, recordList } from '../../bank-record-role.ts';
import { parseJsonReply, replyBase } from '../../reply.ts';
import { COMMON_VARIABLES, PROBLEM_BLOCK } from '../../role-template.ts';
import { createRoleMachine } from '../../role.machine.ts';
import { CONTEXT_VARIABLES, GUIDELINES_BLOCK, guidelineValues, ROLLOUTS_BLOCK, ROUND_ROLLOUTS_VARIABLE, roundValues } from './tmas-context.ts';

const schema = z.object({
  guidelines: z.array(
    z.object({
      strategy: z.string().min(1),
      outcome: z.string().default(''),
      candidates: z.array(z.number().int().nonnegative()).default([]),
    }),
  ),
});

/** The new records of a reply, with provenance; throws when the reply is not the schema. */
export function parseGuidelines(text: string, iteration: number, callKey: string): GuidelineRecord[] {
  return schema.parse(parseJsonReply(text)).guidelines.map((entry) => ({
    strategy: entry.strategy,
    outcome: entry.outcome,
    provenance: { iteration, candidate: entry.candidates[0] ?? null, callKey },
  }));
}

/** The Guideline agent's definition. */
export const guidelineRole = bankRecordRole('guideline', {
  index: () => 0,
  /** The Guideline agent's user message: the problem, the round's rollouts and the bank so far. */
  template: {
    source: `${PROBLEM_BLOCK}

${ROLLOUTS_BLOCK}

${GUIDELINES_BLOCK}

List the distinct high-level strategies used by the attempts above, each with its outcome (which \
candidates used it, their answers and scores). Do not repeat strategies the guideline bank already holds. \
Answer with JSON only, in a \`\`\`json block: \
{"guidelines": [{"strategy": "...", "outcome": "...", "candidates": [0, 3]}]}`,
    variables: {
      problem: COMMON_VARIABLES.problem,
      proof: COMMON_VARIABLES.proof,
      rollouts: ROUND_ROLLOUTS_VARIABLE,
      guidelines: CONTEXT_VARIABLES.guidelines,
    },
    system: () => 'You are the Guideline agent of a team that solves hard mathematics problems. ' + 'You name the high-level strategies that attempts used and how each fared.',
    values: (request, options) => roundValues(request, options, 'guidelines', guidelineValues(request.bank)),
  },
  ...recordList(parseGuidelines),
  describe: describeParseError,
  reply: (request, parsed, call) => ({ type: 'guideline.completed', ...replyBase(request), ...parsed, call }),
  retried: true,
});

/** Builds the guideline prompt for an iteration. */
export const guidelinePrompt = guidelineRole.prompt;

/** The Guideline agent's actor definition. */
export const guidelineMachine = createRoleMachine(guidelineRole);
