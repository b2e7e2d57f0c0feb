/**
 * The simulated Verification agent: grades the candidate's last `\boxed{}`
 * against the reference, then reports the right verdict with probability
 * `verifierAccuracy`. A "correct" verdict scores in [0.7, 1), a "wrong" one
 * in [0, 0.3). The last line is `SCORE: 0.xx`. The simulated Critique agent
 * (Self-Refine's feedback) is the same review, which also says "It is
 * correct." when its verdict is that there is no error.
 */
import { lastBoxed } from '../model/boxed.ts';
import { CHARS_PER_TOKEN, filler } from '../model/filler.ts';
import { sameAnswer } from '../model/grade.ts';
import { jitteredTokens, type Responder, type ResponderInput } from './responder.ts';
import { readSolution } from '../model/wire.ts';

const FLAWS = [
  'the count in the middle of the argument misses the boundary cases',
  'the simplification before the last step drops a sign',
  'one family of configurations is counted twice',
  'the final step divides by a quantity that may vanish',
  'the claimed bound is used before it is proved',
] as const;

/** Answers a Verification-agent request. */
export const respondVerification: Responder = (input) => review(input, null);

/** Answers a Critique-agent request: a review that, finding no error, says so in Self-Refine's words. */
export const respondCritique: Responder = (input) => review(input, 'There is no error in the solution. It is correct.');

/** The review of the candidate's answer; `noError` is the line added to a verdict that finds nothing wrong. */
function review({ problem, rest, rng, outputTokens, verifierAccuracy }: ResponderInput, noError: string | null): string {
  const solution = readSolution(rest);
  const answer = solution === null ? null : lastBoxed(solution);
  const truth = answer !== null && sameAnswer(answer, problem.answer);
  const saysCorrect = rng.next() < verifierAccuracy ? truth : !truth;
  const score = saysCorrect ? 0.7 + 0.3 * rng.next() : 0.3 * rng.next();

  const head = [
    'Verification of the candidate solution, step by step.',
    answer === null ? 'The candidate states no final answer.' : `The candidate's final answer is ${answer}.`,
  ];
  const verdict = saysCorrect
    ? 'Verdict: every step checks out and the final answer follows from them.'
    : `Verdict: ${rng.pick(FLAWS)}, so the final answer is not justified.`;
  const tail = [verdict, ...(saysCorrect && noError !== null ? [noError] : []), `SCORE: ${score.toFixed(2)}`];
  const fixed = [...head, ...tail].join('\n').length + 2;
  const body = filler(jitteredTokens(outputTokens / 2, rng) * CHARS_PER_TOKEN - fixed, rng);
  return [...head, ...(body ? [body] : []), ...tail].join('\n');
}
