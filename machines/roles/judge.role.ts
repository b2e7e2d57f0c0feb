/**
 * The Judge agent: one pass of an LLM judge that decides whether a candidate
 * is equivalent to the reference (the short answer with `--no-proof`, the
 * reference solution in proof mode). It ends with `VERDICT: equivalent` or
 * `VERDICT: not equivalent`; a reply without a verdict gives `verdict: null`,
 * never a silent "wrong".
 *
 * Each pass is a call of its own: its index is candidate × 100 + pass, so the
 * runtime derives a distinct sampling seed per pass, and the journal records
 * the temperature it ran at.
 */
import type { MessageOf } from '../../src/kernel/protocol.ts';
import { instructionPart, problemPart, solutionPart, type PromptSpec } from '../prompt.ts';
import { callInfo, replyBase } from '../reply.ts';
import { createRoleMachine, type RoleDefinition, type RoleOptions } from '../role.machine.ts';

/** Judge passes per candidate are at most this many: the call index is candidate × 100 + pass. */
export const MAX_JUDGE_PASSES = 100;

/** The call index of a judge pass; unique within an iteration. */
export function judgeIndex(candidate: number, pass: number): number {
  return candidate * MAX_JUDGE_PASSES + pass;
}

/** Builds the prompt of one judge pass. */
export function judgePrompt(request: MessageOf<'judge.requested'>, options: RoleOptions): PromptSpec {
  const what = options.proof ? 'solution' : 'final answer';
  const candidate = options.proof
    ? solutionPart(request.response ?? '(no solution)').text
    : `<candidate-answer>\n${request.response ?? '(none stated)'}\n</candidate-answer>`;
  return {
    system:
      'You are the Judge agent of a team that evaluates solutions to hard mathematics problems. ' +
      `You decide whether a candidate's ${what} is mathematically equivalent to the reference.`,
    parts: [
      problemPart(request.question),
      { id: 'reference', text: `<reference>\n${request.reference}\n</reference>` },
      { id: 'candidate', text: candidate },
      instructionPart(
        (options.proof
          ? 'Decide whether the candidate solution above is correct and reaches the same result as the reference solution. '
          : 'Decide whether the candidate answer above is mathematically equivalent to the reference answer ' +
            '(different but equal forms count as equivalent; a missing answer does not). ') +
          'Explain briefly, then write on the last line exactly "VERDICT: equivalent" or "VERDICT: not equivalent".',
      ),
    ],
  };
}

/** The last `VERDICT: …` of a reply: true for equivalent, false for not equivalent, null when absent. */
export function parseVerdict(text: string): boolean | null {
  const last = [...text.matchAll(/verdict\**\s*[:=]\s*\**\s*(not\s+equivalent|equivalent|incorrect|correct|yes|no)\b/gi)].at(-1)?.[1];
  if (last === undefined) return null;
  return /^(equivalent|correct|yes)$/i.test(last.trim());
}

/** The Judge agent's definition. */
export const judgeRole = {
  role: 'judge',
  endpoint: 'judge',
  grading: true,
  request: 'judge.requested',
  index: (request) => judgeIndex(request.candidate, request.pass),
  prompt: judgePrompt,
  reply: (request, output) => ({
    type: 'judge.completed',
    ...replyBase(request),
    candidate: request.candidate,
    pass: request.pass,
    verdict: parseVerdict(output.content),
    call: callInfo(output),
  }),
} satisfies RoleDefinition<'judge.requested'>;

/** The Judge agent's actor definition. */
export const judgeMachine = createRoleMachine(judgeRole);
