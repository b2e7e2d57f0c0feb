/**
 * The roles of `self-refine`: the Critique agent reviews a candidate's own
 * solution (ending with `SCORE: s`, and saying "It is correct." when it finds
 * no error), the Rewrite agent rewrites it in the light of that critique. The
 * first solution comes from the Solution agent.
 */
import { COMMON_VARIABLES, PROBLEM_BLOCK, problemValues, SOLUTION_BLOCK, solutionValues } from '../../role-template.ts';
import { callInfo, cutOff, emptyReply, parseScore, replyBase, statedText, unusableIf } from '../../reply.ts';
import { createRoleMachine } from '../../role.machine.ts';
import { answerReply, onePerCandidate, templateRole } from '../../template-role.ts';
import { ANSWER_INSTRUCTION, roleLine } from '../../kit.ts';
import type { LlmOutput } from '../../llm.ts';

/** The sentence a critique that finds no error says: the stop phrase of madaan/self-refine's math feedback ("it is correct"). */
export const NO_ERROR = 'It is correct.';

/** A line that concludes nothing: blank, markdown alone (a rule, a fence), or the score the prompt asks for last. */
const NOT_A_CONCLUSION = /^[^a-z0-9]*$|^[^a-z0-9]*score\**\s*[:=]/i;

/** A line whose last sentence is "It is correct", whatever the case and the punctuation or emphasis around it. */
const ENDS_CORRECT = /(?:^|[.!?:][^a-z0-9\s]*\s+)[^a-z0-9\s]*it is correct[^a-z0-9]*$/i;

/**
 * Whether a critique found no error, upstream's stop: its conclusion, the last
 * line of its final text (after the last `</think>`) before the score, ends
 * with the sentence "It is correct", whatever the case and the punctuation or
 * emphasis around it ("There is no error. It is correct!" as upstream's
 * examples say it, "**Verdict:** It is correct."). Upstream looks for the
 * words anywhere in its few-shot-shaped feedback; ours is free prose, where a
 * reasoning model checks step by step ("Step 1 ... It is correct.", then
 * "Step 2 drops a sign."): only the conclusion speaks for the whole solution,
 * and "check whether it is correct" must not stop a candidate either.
 */
export function critiqueFindsNoError(text: string): boolean {
  const final = text.split('</think>').at(-1) ?? text;
  const conclusion = final.split('\n').filter((line) => !NOT_A_CONCLUSION.test(line)).at(-1) ?? '';
  return ENDS_CORRECT.test(conclusion.trim());
}

/**
 * Why a critique is unusable, or null: an empty one, or one cut off at its
 * length limit (it had not finished: a "It is correct." on its way is not its
 * verdict). The candidate is then not rewritten this iteration and keeps its
 * solution, as after a failed critique: a cut critique that filled the window
 * could not be quoted in the rewrite's prompt. Its score is not read by the
 * strategy, so a critique without one is still usable.
 */
export function critiqueUnusable(output: LlmOutput): string | null {
  const empty = emptyReply(output);
  if (empty !== null) return empty;
  const cut = cutOff(output);
  return cut === null ? null : `the critique was ${cut} before its verdict`;
}

/** The Critique agent's definition. */
export const critiqueRole = templateRole('critique', {
  kind: 'grade',
  endpoint: 'verification',
  ...onePerCandidate('critique'),
  /** The Critique agent's user message: the problem and the candidate's own solution. */
  template: {
    source: `${PROBLEM_BLOCK}

${SOLUTION_BLOCK}

Critique the solution above: list its errors, gaps and unjustified steps, and what should change. If you find no error at all, write "${NO_ERROR}" on a line of its own. On the last line write "SCORE: s", s in [0, 1].`,
    variables: COMMON_VARIABLES,
    system: () => roleLine('Critique', 'You review your own earlier solution as a demanding referee would.'),
    values: solutionValues,
  },
  reply: (request, output) => {
    const correct = critiqueFindsNoError(statedText(output));
    return {
      type: 'critique.completed',
      ...replyBase(request),
      candidate: request.candidate,
      critique: output.content,
      score: parseScore(statedText(output)),
      correct,
      ...unusableIf(critiqueUnusable(output)),
      call: callInfo(output),
    };
  },
});

/** The Rewrite agent's definition. */
export const rewriteRole = templateRole('rewrite', {
  kind: 'solution',
  endpoint: 'solution',
  ...onePerCandidate('rewrite'),
  /** The Rewrite agent's user message: the earlier attempts and critiques, then the current attempt and its critique. */
  template: {
    source: `${PROBLEM_BLOCK}

{% if history %}
<history>
Your earlier attempts at this problem and the critique each got, oldest first:
{% for step in history %}

<attempt index="{{ step.index }}">
{{ step.solution }}
</attempt>
<feedback index="{{ step.index }}">
{{ step.critique }}
</feedback>
{% endfor %}

</history>

{% endif %}
${SOLUTION_BLOCK}

<critique>
{{ critique }}
</critique>

Rewrite the solution above, fixing every point of the critique\
{% if history %} without repeating the mistakes of the earlier attempts{% endif %}. ${ANSWER_INSTRUCTION}`,
    variables: {
      ...COMMON_VARIABLES,
      solution: { shape: 'string', about: "the candidate's current attempt" },
      critique: { shape: 'string', about: 'the critique of the current attempt' },
      history: {
        shape: { listOf: { fields: { index: 'integer', solution: 'string', critique: 'string' } } },
        about: "the candidate's earlier attempts with the critique each got, oldest first; when the prompt does not fit, the oldest are left out first",
      },
    },
    system: () => roleLine('Rewrite', 'You rewrite your own solution after a critique of it.'),
    values: (request, options) => ({
      variables: problemValues(request, options, {
        solution: request.solution,
        critique: request.critique,
        history: request.history.map((step, index) => ({ index, solution: step.solution, critique: step.critique })),
      }),
      drops: request.history.map((_, index) => ({ id: `history-${index}`, path: ['history', index], drop: index })),
    }),
  },
  reply: answerReply('rewrite.completed'),
});

/** The Critique agent's actor definition. */
export const critiqueMachine = createRoleMachine(critiqueRole);
/** The Rewrite agent's actor definition. */
export const rewriteMachine = createRoleMachine(rewriteRole);
