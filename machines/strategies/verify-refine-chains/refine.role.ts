/**
 * The Refine agent of `verify-refine-chains`: rewrites a candidate using the
 * verifications of it (each with its analysis and score).
 */
import { extractAnswer } from '../../../src/grader/index.ts';
import type { MessageOf } from '../../../src/kernel/protocol.ts';
import { COMMON_VARIABLES, PROBLEM_BLOCK, SOLUTION_BLOCK, templatePrompt, type RoleTemplate } from '../../role-template.ts';
import { CONTEXT_VARIABLES, VERIFICATION_ITEM, verificationValues } from '../../tmas-context.ts';
import { answerFields, callInfo, replyBase } from '../../reply.ts';
import { createRoleMachine, oneCallPerCandidate, type RoleDefinition, type RoleOptions } from '../../role.machine.ts';
import { ANSWER_INSTRUCTION, roleLine } from '../../kit.ts';

/** The Refine agent's user message: the problem, the candidate and every verification of it. */
export const refineTemplate = {
  source: `${PROBLEM_BLOCK}

${SOLUTION_BLOCK}

<verifications>
{% for verification in verifications %}
${VERIFICATION_ITEM}
{% endfor %}
</verifications>

Using the verifications above, correct every flaw they found and write a refined, complete solution. ${ANSWER_INSTRUCTION}`,
  variables: { ...COMMON_VARIABLES, verifications: CONTEXT_VARIABLES.verifications },
  system: () => roleLine('Refine', 'You improve a candidate solution using independent verifications of it.'),
  values: (request, options) => ({
    variables: { problem: request.question, proof: options.proof, solution: request.solution, verifications: verificationValues(request.verifications, false).values },
  }),
} satisfies RoleTemplate<MessageOf<'refine.requested'>, RoleOptions>;

/** Builds the refine prompt. */
export const refinePrompt = templatePrompt(refineTemplate);

/** The Refine agent's definition. */
export const refineRole = {
  role: 'refine',
  kind: 'solution',
  endpoint: 'solution',
  request: 'refine.requested',
  index: (request) => request.candidate,
  subject: oneCallPerCandidate('refine'),
  prompt: refinePrompt,
  template: refineTemplate,
  reply: (request, output, options) => ({ type: 'refine.completed', ...replyBase(request), candidate: request.candidate, text: output.content, ...answerFields(extractAnswer(output.content), output, options.proof), call: callInfo(output) }),
} satisfies RoleDefinition<'refine.requested'>;

/** The Refine agent's actor definition. */
export const refineMachine = createRoleMachine(refineRole);
