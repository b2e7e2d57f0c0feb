/**
 * The Summary agent: condenses a candidate's M verifications into a short
 * summary (validated steps, flaws). The calibrated score is the mean of the
 * parseable verification scores, computed here rather than asked of the model.
 */
import type { MessageOf, Verification } from '../../src/kernel/protocol.ts';
import { callInfo, replyBase, unusableBecause } from '../reply.ts';
import { instructionPart, problemPart, solutionPart, type PromptPart, type PromptSpec } from '../prompt.ts';
import { createRoleMachine, type RoleDefinition } from '../role.machine.ts';

/** The mean of the parseable scores, or null when none parsed. */
export function calibratedScore(verifications: Verification[]): number | null {
  const scores = verifications.flatMap((v) => (v.score === null ? [] : [v.score]));
  return scores.length === 0 ? null : scores.reduce((a, b) => a + b, 0) / scores.length;
}

function verificationParts(verifications: Verification[]): PromptPart[] {
  return [
    { id: 'verifications-open', text: '<verifications>' },
    ...verifications.map((v) => ({
      id: `verification-${v.index}`,
      text: `<verification index="${v.index}" score="${v.score === null ? 'none' : v.score.toFixed(3)}">\n${v.analysis}\n</verification>`,
      // Long analyses go before anything else when the prompt does not fit.
      drop: v.index,
    })),
    { id: 'verifications-close', text: '</verifications>' },
  ];
}

/** Builds the summary prompt for a candidate. */
export function summaryPrompt(request: MessageOf<'summary.requested'>): PromptSpec {
  return {
    system:
      'You are the Summary agent of a team that solves hard mathematics problems. ' +
      'You condense several independent verifications of one candidate solution.',
    parts: [
      problemPart(request.question),
      solutionPart(request.solution),
      ...verificationParts(request.verifications),
      instructionPart(
        'Write a concise summary of the verifications above: which steps were validated, which flaws were found, ' +
          'and whether the final answer can be trusted. Start with "SUMMARY:".',
      ),
    ],
  };
}

/** The summary text: what follows `SUMMARY:`, or the whole reply. */
export function parseSummary(text: string): string {
  const at = text.search(/summary\s*:/i);
  const body = at < 0 ? text : text.slice(at).replace(/^summary\s*:\s*/i, '');
  return body.replace(/\n\s*score\s*:.*$/is, '').trim();
}

/** The Summary agent's definition. */
export const summaryRole = {
  role: 'summary',
  request: 'summary.requested',
  index: (request) => request.candidate,
  prompt: summaryPrompt,
  reply: (request, output) => ({
    type: 'summary.completed',
    ...replyBase(request),
    candidate: request.candidate,
    summary: parseSummary(output.content),
    score: calibratedScore(request.verifications),
    call: callInfo(output),
  }),
  validate: (_, output) => unusableBecause(parseSummary(output.content) === '' ? 'no summary text' : null, output),
} satisfies RoleDefinition<'summary.requested'>;

/** The Summary agent's actor definition. */
export const summaryMachine = createRoleMachine(summaryRole);
