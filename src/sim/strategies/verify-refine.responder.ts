/**
 * The simulated agents of `verify-refine` (DeepSeek-Math-V2's formats). The
 * Prover writes a `## Solution` section (a revision of the shown `<solution>`
 * when it refines one, else a fresh solution) and a `## Self Evaluation`
 * ending in a boxed score that is right with the verifiers' accuracy; now and
 * then it leaves the self-evaluation out, which the strategy must not rate.
 * The Rater ends its evaluation with \boxed{1} when it judges the solution
 * right, else \boxed{0} or \boxed{0.5}.
 */
import { lastBoxed } from '../model/boxed.ts';
import { sameAnswer } from '../model/grade.ts';
import type { Responder } from '../responders/responder.ts';
import { respondSolution } from '../responders/solution.responder.ts';
import { reviewSolution } from './judging.ts';
import { respondRevision } from './revision.responder.ts';

/** Share of Prover replies without their self-evaluation section. */
export const PROVER_MALFORMED = 0.1;

/** Share of "wrong" ratings that give 0.5 rather than 0. */
const HALF_CREDIT = 0.3;

/** Answers a Prover-agent request. */
export const respondProver: Responder = (input) => {
  const { rng, problem, verifierAccuracy } = input;
  const solution = input.rest.includes('<solution>\n') ? respondRevision(input) : respondSolution({ ...input, rest: '' });
  if (rng.next() < PROVER_MALFORMED) return solution;
  const answer = lastBoxed(solution);
  const truth = answer !== null && sameAnswer(answer, problem.answer);
  const saysCorrect = rng.next() < verifierAccuracy ? truth : !truth;
  const score = saysCorrect ? '1' : rng.next() < HALF_CREDIT ? '0.5' : '0';
  return [
    '## Solution',
    solution,
    '',
    '## Self Evaluation',
    `Here is my evaluation of the solution: ${saysCorrect ? 'each step checks out on a second reading.' : 'a step of the argument is not justified.'}`,
    'Based on my evaluation, the final overall score should be:',
    `\\boxed{${score}}`,
  ].join('\n');
};

/** Answers a Rater-agent request. */
export const respondRater: Responder = (input) => {
  const { answer, saysCorrect } = reviewSolution(input);
  const score = saysCorrect ? '1' : input.rng.next() < HALF_CREDIT ? '0.5' : '0';
  return [
    'Here is my evaluation of the solution:',
    answer === null ? 'The solution states no final result.' : `The solution concludes with ${answer}.`,
    saysCorrect ? 'Every step is carried out properly.' : 'A key step is not justified, which undermines the conclusion.',
    'Based on my evaluation, the final overall score should be:',
    `\\boxed{${score}}`,
  ].join('\n');
};
