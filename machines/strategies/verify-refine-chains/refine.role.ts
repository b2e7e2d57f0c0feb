/**
 * The Refine agent of `verify-refine-chains`: rewrites a candidate using the
 * verifications of it (each with its analysis and score).
 */
import { COMMON_VARIABLES, PROBLEM_BLOCK, problemValues, SOLUTION_BLOCK } from '../../role-template.ts';
import { VERIFICATION_ITEM, VERIFICATIONS_VARIABLE, verificationValues } from '../../verification-values.ts';
import { createRoleMachine } from '../../role.machine.ts';
import { answerReply, onePerCandidate, templateRole } from '../../template-role.ts';
import { ANSWER_INSTRUCTION, roleLine } from '../../kit.ts';

/** The Refine agent's definition. */
export const refineRole = templateRole('refine', {
  kind: 'solution',
  endpoint: 'solution',
  ...onePerCandidate('refine'),
  /** The Refine agent's user message: the problem, the candidate and every verification of it. */
  template: {
    source: `${PROBLEM_BLOCK}

${SOLUTION_BLOCK}

<verifications>
{% for verification in verifications %}
${VERIFICATION_ITEM}
{% endfor %}
</verifications>

Using the verifications above, correct every flaw they found and write a refined, complete solution. ${ANSWER_INSTRUCTION}`,
    variables: { ...COMMON_VARIABLES, verifications: VERIFICATIONS_VARIABLE },
    system: () => roleLine('Refine', 'You improve a candidate solution using independent verifications of it.'),
    values: (request, options) => {
      // A verification that filled the window (cut at its limit) cannot be quoted whole: verifications go when the prompt does not fit, as the summary's do.
      const verifications = verificationValues(request.verifications);
      return { variables: problemValues(request, options, { solution: request.solution, verifications: verifications.values }), drops: verifications.drops };
    },
  },
  reply: answerReply('refine.completed'),
});

/** The Refine agent's actor definition. */
export const refineMachine = createRoleMachine(refineRole);
