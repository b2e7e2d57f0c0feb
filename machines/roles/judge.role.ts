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
import { instructionPart, problemPart, solutionPart, type PromptPart, type PromptSpec } from '../prompt.ts';
import { callInfo, replyBase, unusableIf } from '../reply.ts';
import { createRoleMachine, passesPerCandidate, type RoleDefinition, type RoleOptions } from '../role.machine.ts';

/** Judge passes per candidate are at most this many: the call index is candidate × 100 + pass. */
export const MAX_JUDGE_PASSES = 100;

/**
 * The most tokens (of the run's tokenizer) of a candidate's final text the
 * judge reads: a longer one keeps its first and last halves, with a line
 * saying how many tokens were left out between them, so the judge still sees
 * how it starts and what it concludes. 16k tokens hold any competition
 * solution written out once the reasoning is over, and leave room for the
 * reference within a 32k window.
 */
export const JUDGE_VIEW_TOKENS = 16_384;

/** The call index of a judge pass; unique within an iteration. */
export function judgeIndex(candidate: number, pass: number): number {
  return candidate * MAX_JUDGE_PASSES + pass;
}

/** The candidate as the judge reads it: its answer, or its final text bounded to JUDGE_VIEW_TOKENS (the pool cuts it). */
function candidatePart(request: MessageOf<'judge.requested'>): PromptPart {
  if (request.view === 'answer') return { id: 'candidate', text: `<candidate-answer>\n${request.response}\n</candidate-answer>` };
  return { ...solutionPart(request.response), id: 'candidate', maxTokens: JUDGE_VIEW_TOKENS };
}

/** What the judge is asked to decide, by mode and view. */
function judgeInstruction(request: MessageOf<'judge.requested'>, proof: boolean): string {
  if (proof) return 'Decide whether the candidate solution above is correct and reaches the same result as the reference solution. ';
  if (request.view === 'text') {
    return (
      'No final answer could be extracted from the candidate response above. Find the final answer it states, if any, and decide whether it is ' +
      'mathematically equivalent to the reference answer (different but equal forms count as equivalent; a response that states no final answer does not). '
    );
  }
  return 'Decide whether the candidate answer above is mathematically equivalent to the reference answer (different but equal forms count as equivalent; a missing answer does not). ';
}

/** Builds the prompt of one judge pass. */
export function judgePrompt(request: MessageOf<'judge.requested'>, options: RoleOptions): PromptSpec {
  const what = options.proof ? 'solution' : 'final answer';
  return {
    system:
      'You are the Judge agent of a team that evaluates solutions to hard mathematics problems. ' +
      `You decide whether a candidate's ${what} is mathematically equivalent to the reference.`,
    parts: [
      problemPart(request.question),
      { id: 'reference', text: `<reference>\n${request.reference}\n</reference>` },
      candidatePart(request),
      instructionPart(`${judgeInstruction(request, options.proof === true)}Explain briefly, then write on the last line exactly "VERDICT: equivalent" or "VERDICT: not equivalent".`),
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
  kind: 'grade',
  endpoint: 'judge',
  grading: true,
  request: 'judge.requested',
  index: (request) => judgeIndex(request.candidate, request.pass),
  subject: passesPerCandidate(MAX_JUDGE_PASSES, (pass) => `judge pass ${pass}`),
  prompt: judgePrompt,
  reply: (request, output) => {
    const verdict = parseVerdict(output.content);
    const unusable = verdict !== null ? null : output.finishReason === 'length' ? 'the verdict was cut off at the length limit' : 'no "VERDICT: equivalent" or "VERDICT: not equivalent" line';
    return { type: 'judge.completed', ...replyBase(request), candidate: request.candidate, pass: request.pass, verdict, ...unusableIf(unusable), call: callInfo(output) };
  },
} satisfies RoleDefinition<'judge.requested'>;

/** The Judge agent's actor definition. */
export const judgeMachine = createRoleMachine(judgeRole);
