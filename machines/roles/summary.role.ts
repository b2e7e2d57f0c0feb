/**
 * The Summary agent: condenses a candidate's M verifications into a short
 * summary (validated steps, flaws). The calibrated score is the mean of the
 * parseable verification scores, computed here rather than asked of the model.
 */
import type { Verification } from '../../src/kernel/protocol.ts';
import { callInfo, replyBase, statedText, unusableBecause } from '../reply.ts';
import { COMMON_VARIABLES, PROBLEM_BLOCK, problemValues, SOLUTION_BLOCK } from '../role-template.ts';
import { VERIFICATION_ITEM, VERIFICATIONS_VARIABLE, verificationValues } from '../verification-values.ts';
import { createRoleMachine } from '../role.machine.ts';
import { onePerCandidate, templateRole } from '../template-role.ts';

/** The mean of the parseable scores, or null when none parsed. */
export function calibratedScore(verifications: Verification[]): number | null {
  const scores = verifications.flatMap((v) => (v.score === null ? [] : [v.score]));
  return scores.length === 0 ? null : scores.reduce((a, b) => a + b, 0) / scores.length;
}

/** The summary text: what follows `SUMMARY:`, or the whole reply. */
export function parseSummary(text: string): string {
  const at = text.search(/summary\s*:/i);
  const body = at < 0 ? text : text.slice(at).replace(/^summary\s*:\s*/i, '');
  return body.replace(/\n\s*score\s*:.*$/is, '').trim();
}

/** The Summary agent's definition. */
export const summaryRole = templateRole('summary', {
  kind: 'memory',
  ...onePerCandidate('summary'),
  /** The Summary agent's user message: the problem, the candidate and its M verifications. */
  template: {
    source: `${PROBLEM_BLOCK}

${SOLUTION_BLOCK}

<verifications>
{% for verification in verifications %}

${VERIFICATION_ITEM}
{% endfor %}

</verifications>

Write a concise summary of the verifications above: which steps were validated, which flaws were found, \
and whether the final answer can be trusted. Start with "SUMMARY:".`,
    variables: {
      ...COMMON_VARIABLES,
      verifications: { ...VERIFICATIONS_VARIABLE, about: `${VERIFICATIONS_VARIABLE.about}; when the prompt does not fit, verifications are left out, first ones first` },
    },
    system: () => 'You are the Summary agent of a team that solves hard mathematics problems. ' + 'You condense several independent verifications of one candidate solution.',
    values: (request, options) => {
      // Long analyses go before anything else when the prompt does not fit.
      const verifications = verificationValues(request.verifications);
      return { variables: problemValues(request, options, { solution: request.solution, verifications: verifications.values }), drops: verifications.drops };
    },
  },
  reply: (request, output) => ({
    type: 'summary.completed',
    ...replyBase(request),
    candidate: request.candidate,
    summary: parseSummary(statedText(output)),
    score: calibratedScore(request.verifications),
    call: callInfo(output),
  }),
  validate: (_, output) => unusableBecause(parseSummary(statedText(output)) === '' ? 'no summary text' : null, output),
});

/** Builds the summary prompt for a candidate. */
export const summaryPrompt = summaryRole.prompt;

/** The Summary agent's actor definition. */
export const summaryMachine = createRoleMachine(summaryRole);
