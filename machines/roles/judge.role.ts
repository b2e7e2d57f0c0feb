/**
 * The Judge agent: one pass of an LLM judge that decides whether a candidate
 * is equivalent to the reference (the short answer with `--no-proof`, the
 * reference solution in proof mode). It reads the candidate's final text in
 * both modes; with `--no-proof` it finds the final answer there itself, as
 * an answer benchmark's grader does, rather than trusting an extraction. It
 * ends with `VERDICT: equivalent` or `VERDICT: not equivalent`; a reply
 * without a verdict gives `verdict: null`, never a silent "wrong", and so does
 * one cut at its length limit, whatever verdict it wrote on its way.
 *
 * Each pass is a call of its own: its index is candidate × 100 + pass, so the
 * runtime derives a distinct sampling seed per pass, and the journal records
 * the temperature it ran at.
 */
import type { MessageOf } from '../../src/kernel/protocol.ts';
import { instructionPart, problemPart, solutionPart, type PromptPart, type PromptSpec } from '../prompt.ts';
import { callInfo, cutOff, replyBase, statedText, unusableIf } from '../reply.ts';
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

/** Candidate blocks kept for the passes still to come: a candidate's passes are asked one after another. */
const SHARED_BLOCKS = 16;
const sharedBlocks = new Map<string, string>();

/**
 * The candidate's final text, bounded to JUDGE_VIEW_TOKENS (the pool cuts it,
 * and says so where it does). A candidate's passes share one block: each
 * made its own, a copy of the whole response (a block is a new string, and
 * the pool cuts it only once fitted), held while its pass waited its turn. In
 * `tmas table1` on 4 problems, majority's 1,024 samples judged 4 times each,
 * those copies were half of the heap (193 MB for 111 MB of responses); on 40
 * problems the run died at V8's heap limit.
 */
function candidatePart(request: MessageOf<'judge.requested'>): PromptPart {
  const response = request.response;
  let block = sharedBlocks.get(response);
  if (block === undefined) {
    block = solutionPart(response).text;
    if (sharedBlocks.size >= SHARED_BLOCKS) sharedBlocks.delete(sharedBlocks.keys().next().value as string);
    sharedBlocks.set(response, block);
  }
  return { id: 'candidate', text: block, maxTokens: JUDGE_VIEW_TOKENS };
}

/** The reference block: the short answer (`<reference-answer>`) with `--no-proof`, the reference solution in proof mode. */
function referencePart(request: MessageOf<'judge.requested'>, proof: boolean): PromptPart {
  const tag = proof ? 'reference' : 'reference-answer';
  return { id: 'reference', text: `<${tag}>\n${request.reference}\n</${tag}>` };
}

/**
 * What the judge is shown of the response: its final text, within a bound. A response cut before its end is never
 * shown (ruledByRule in judging.ts: it has no final answer).
 */
function viewNote(): string {
  return (
    `The candidate response above is its final text, after any reasoning, at most ${JUDGE_VIEW_TOKENS} tokens of it: ` +
    'a longer one is shown as its beginning and its end, with a line saying how many tokens were left out between them. '
  );
}

/** What the judge is asked to decide, by mode. */
function judgeInstruction(proof: boolean): string {
  if (proof) return 'Decide whether the candidate solution above is correct and reaches the same result as the reference solution. ';
  return (
    'Find the final answer the response gives to the question asked: what it concludes with, in whatever form it states it (boxed or in words), ' +
    'all of it when the question asks for several things; not an intermediate value, nor a case or parameter at which the answer is attained. ' +
    'Decide whether that final answer is mathematically equivalent to the reference answer: different but equal forms count as equivalent; ' +
    'a response that gives no final answer, or several that disagree, does not. '
  );
}

/** Builds the prompt of one judge pass. */
export function judgePrompt(request: MessageOf<'judge.requested'>, options: RoleOptions): PromptSpec {
  const proof = options.proof === true;
  const what = proof ? 'solution' : 'final answer';
  return {
    system:
      'You are the Judge agent of a team that evaluates solutions to hard mathematics problems. ' +
      `You decide whether a candidate's ${what} is mathematically equivalent to the reference.`,
    parts: [
      problemPart(request.question),
      referencePart(request, proof),
      candidatePart(request),
      instructionPart(`${viewNote()}${judgeInstruction(proof)}Explain briefly, then write on the last line exactly "VERDICT: equivalent" or "VERDICT: not equivalent".`),
    ],
  };
}

/** The verdicts a line states, in order: true for equivalent, false for not equivalent. */
function lineVerdicts(line: string): boolean[] {
  return [...line.matchAll(/verdict\**\s*[:=]\s*\**\s*(not\s+equivalent|equivalent|incorrect|correct|yes|no)\b/gi)].map((match) => /^(equivalent|correct|yes)$/i.test((match[1] ?? '').trim()));
}

/**
 * The last `VERDICT: …` of a reply: true for equivalent, false for not
 * equivalent, null when absent. A line that names both quotes the choice (a
 * judge repeating its instruction, `"VERDICT: equivalent" or "VERDICT: not
 * equivalent"`) and decides nothing: read as a verdict, its second half made
 * a judge that gave none, or gave its own before it, say "not equivalent".
 */
export function parseVerdict(text: string): boolean | null {
  const stated = text.split('\n').flatMap((line) => {
    const verdicts = lineVerdicts(line);
    return new Set(verdicts).size > 1 ? [] : verdicts;
  });
  return stated.at(-1) ?? null;
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
    const verdict = parseVerdict(statedText(output));
    const cut = cutOff(output);
    const unusable = verdict !== null ? null : cut === null ? 'no "VERDICT: equivalent" or "VERDICT: not equivalent" line' : `the verdict was ${cut}`;
    return { type: 'judge.completed', ...replyBase(request), candidate: request.candidate, pass: request.pass, verdict, ...unusableIf(unusable), call: callInfo(output) };
  },
} satisfies RoleDefinition<'judge.requested'>;

/** The Judge agent's actor definition. */
export const judgeMachine = createRoleMachine(judgeRole);
