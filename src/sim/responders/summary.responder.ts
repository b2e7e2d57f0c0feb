/**
 * The simulated Summary agent: reads the verification scores of the prompt and
 * says, after `SUMMARY:`, what was validated, what was found wrong and whether
 * the final answer can be trusted (mean score at least 0.5).
 */
import { lastBoxed } from '../model/boxed.ts';
import type { Responder } from './responder.ts';
import { readSolution, readVerificationScores } from '../model/wire.ts';

/** Answers a Summary-agent request. */
export const respondSummary: Responder = ({ rest }) => {
  const scores = readVerificationScores(rest);
  const answer = lastBoxed(readSolution(rest) ?? '');
  const shown = answer === null ? 'no final answer' : `the final answer ${answer}`;
  if (scores.length === 0) {
    return `SUMMARY: no verification gave a usable judgement, so ${shown} cannot be trusted yet.`;
  }
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const approving = scores.filter((s) => s >= 0.5).length;
  const trusted = mean >= 0.5;
  const validated = trusted
    ? 'Validated: the main computation and the final step were confirmed by most verifiers.'
    : 'Validated: the setup and the first reductions were confirmed.';
  const flaws =
    approving === scores.length
      ? 'Flaws: none of substance.'
      : trusted
        ? `Flaws: ${scores.length - approving} verifier(s) raised an objection that the others did not confirm.`
        : `Flaws: ${scores.length - approving} of ${scores.length} verifiers found an error before the final step.`;
  return [
    `SUMMARY: ${scores.length} verifications, mean ${mean.toFixed(2)}; ${approving} of ${scores.length} judged the solution correct.`,
    validated,
    flaws,
    `Conclusion: ${shown} ${trusted ? 'can be trusted' : 'should not be trusted'}.`,
  ].join('\n');
};
