/**
 * The simulated Judge agent: decides whether the candidate in the prompt is
 * equivalent to the reference, and is right with probability
 * `JUDGE_ACCURACY`. It knows the reference: the `<reference>` block of a
 * short-answer prompt, or, for a response it reads whole (a `<solution>`
 * block: a proof, or a response no answer was extracted from), the problem's
 * known answer against the response's last `\boxed{}`. The last line is
 * `VERDICT: equivalent` or `VERDICT: not equivalent`.
 */
import { lastBoxed } from './boxed.ts';
import { CHARS_PER_TOKEN, filler } from './filler.ts';
import { sameAnswer } from './grade.ts';
import { jitteredTokens, type Responder } from './responder.ts';
import { readSolution } from './wire.ts';

/** Chance that a simulated judge pass gives the right verdict. */
export const JUDGE_ACCURACY = 0.9;

/** The lines strictly between `<tag>` and `</tag>` lines, or null when the block is absent. */
function tagged(text: string, tag: string): string | null {
  const match = new RegExp(`^<${tag}>\\n([\\s\\S]*?)\\n</${tag}>$`, 'm').exec(text);
  return match?.[1] ?? null;
}

/** Answers a Judge-agent request. */
export const respondJudge: Responder = ({ problem, rest, rng, outputTokens }) => {
  const stated = tagged(rest, 'candidate-answer');
  const proof = stated === null;
  const answer = proof ? lastBoxed(readSolution(rest) ?? '') : stated === '(none stated)' ? null : stated;
  const reference = proof ? problem.answer : (tagged(rest, 'reference') ?? problem.answer);
  const truth = answer !== null && sameAnswer(answer, reference);
  const says = rng.next() < JUDGE_ACCURACY ? truth : !truth;

  const head = answer === null ? 'The candidate states no final answer.' : `The candidate's final answer is ${answer}; the reference is ${reference}.`;
  const reason = says ? 'Both denote the same value.' : 'They are not the same value.';
  const tail = `VERDICT: ${says ? 'equivalent' : 'not equivalent'}`;
  const body = filler(jitteredTokens(outputTokens / 8, rng) * CHARS_PER_TOKEN - head.length - reason.length - tail.length, rng);
  return [head, ...(body ? [body] : []), reason, tail].join('\n');
};
