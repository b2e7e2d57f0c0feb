/**
 * The simulated Judge agent: decides whether the candidate response in the
 * prompt gives the reference's final answer, and is right with probability
 * `JUDGE_ACCURACY`. It reads what it is sent: the response's final text (the
 * `<solution>` block), in which it finds the final answer (finalAnswerIn),
 * and the reference: the `<reference-answer>` block with `--no-proof`, or,
 * in proof mode (a `<reference>` solution), the problem's known answer. The
 * last line is `VERDICT: equivalent` or `VERDICT: not equivalent`.
 */
import { lastBoxed } from '../model/boxed.ts';
import { CHARS_PER_TOKEN, filler } from '../model/filler.ts';
import { sameAnswer } from '../model/grade.ts';
import { jitteredTokens, type Responder } from './responder.ts';
import { readSolution } from '../model/wire.ts';

/** Chance that a simulated judge pass gives the right verdict. */
export const JUDGE_ACCURACY = 0.9;

/** The lines strictly between `<tag>` and `</tag>` lines, or null when the block is absent. */
function tagged(text: string, tag: string): string | null {
  const match = new RegExp(`^<${tag}>\\n([\\s\\S]*?)\\n</${tag}>$`, 'm').exec(text);
  return match?.[1] ?? null;
}

/** A number stated as the value of something, ending its clause: "is 12.", "is $-3/4$,", "is $2.5$" (not "is 6 times 7"). */
const STATED_NUMBER = /\bis\s+\$?\s*(-?\d+(?:\.\d+)?(?:\s*\/\s*\d+)?)\s*\$?(?=\s*(?:[.,;:!]|$))/gim;

/**
 * The final answer a response gives, as the simulated judge finds it: its
 * last `\boxed{}`, else its last statement that something is a number ("the
 * number of solutions is $12$, attained when $n = 5$" gives 12, not the `n = 5` a
 * trailing-mathematics extraction takes); null when it states none (a reply
 * cut off before its conclusion).
 */
export function finalAnswerIn(response: string): string | null {
  const boxed = lastBoxed(response);
  if (boxed !== null) return boxed;
  const stated = [...response.matchAll(STATED_NUMBER)].at(-1)?.[1];
  return stated === undefined ? null : stated.replace(/\s+/g, '');
}

/** Answers a Judge-agent request. */
export const respondJudge: Responder = ({ problem, rest, rng, outputTokens }) => {
  const referenceAnswer = tagged(rest, 'reference-answer');
  const answer = finalAnswerIn(readSolution(rest) ?? '');
  const reference = referenceAnswer ?? problem.answer;
  const truth = answer !== null && sameAnswer(answer, reference);
  const says = rng.next() < JUDGE_ACCURACY ? truth : !truth;

  const head = answer === null ? 'The candidate states no final answer.' : `The candidate's final answer is ${answer}; the reference is ${reference}.`;
  const reason = says ? 'Both denote the same value.' : 'They are not the same value.';
  const tail = `VERDICT: ${says ? 'equivalent' : 'not equivalent'}`;
  const body = filler(jitteredTokens(outputTokens / 8, rng) * CHARS_PER_TOKEN - head.length - reason.length - tail.length, rng);
  return [head, ...(body ? [body] : []), reason, tail].join('\n');
};
