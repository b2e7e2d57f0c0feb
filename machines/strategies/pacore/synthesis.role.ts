/**
 * The one role of `pacore` (PaCoRe, arXiv 2601.05593; stepfun-ai/PaCoRe).
 * Round 0 sends the problem exactly as given; every later round sends one
 * prompt built as in the paper's Table 6: the problem, the previous round's
 * responses as numbered references, and a request for the model's own
 * comprehensive solution. No system message in either, as upstream.
 */
import { COMMON_VARIABLES, problemValues } from '../../role-template.ts';
import { createRoleMachine } from '../../role.machine.ts';
import { answerReply, onePerCandidate, templateRole } from '../../template-role.ts';

/** The synthesis role's definition. */
export const synthesisRole = templateRole('synthesis', {
  kind: 'solution',
  endpoint: 'solution',
  ...onePerCandidate('synthesis'),
  /**
   * The synthesis user message of a round with references. References that do
   * not fit the window are left out from the end (the last one first), and the
   * `context.trimmed` message names what was left out.
   */
  template: {
    source: `Here is a problem together with several reference responses to it. Examine the references critically, then write a response of your own.

Original problem:
{{ problem }}

Reference responses:
{% for reference in references %}

Reference {{ loop.index }}:
{{ reference }}
{% endfor %}

Using the problem and the reference responses above, write your own complete and comprehensive solution.`,
    variables: {
      problem: COMMON_VARIABLES.problem,
      proof: COMMON_VARIABLES.proof,
      references: {
        shape: { listOf: 'string' },
        about:
          "the previous round's non-empty responses, each the text after its last </think> as it came (leading newlines kept), " +
          "in the order PaCoRe gives them (by length, then a fixed permutation of the run's seed); " +
          'when the prompt does not fit, the last ones are left out first',
      },
    },
    applies: 'rounds after the first: round 0 sends the problem text alone, as upstream does',
    system: () => '',
    values: (request, options) => ({
      variables: problemValues(request, options, { references: request.references }),
      drops: request.references.map((_, index) => ({ id: `reference-${index + 1}`, path: ['references', index], drop: request.references.length - 1 - index })),
    }),
    // Round 0 is the problem as given: no prompt of ours to replace.
    untemplated: (request) => (request.references.length === 0 ? { system: '', parts: [{ id: 'problem', text: request.question }] } : null),
  },
  reply: answerReply('synthesis.completed'),
});

/** The synthesis prompt: the problem alone in round 0, else the template. No system message in either, as upstream. */
export const synthesisPrompt = synthesisRole.prompt;

/** The synthesis role's actor definition. */
export const synthesisMachine = createRoleMachine(synthesisRole);
