/**
 * What the simulated reviewers of the baseline strategies share: read the
 * candidate's final answer and give a verdict that is right with probability
 * `verifierAccuracy`, as the simulated Verification agent does.
 */
import { lastBoxed } from '../model/boxed.ts';
import type { ResponderInput } from '../responders/responder.ts';
import { sameAnswer } from '../model/grade.ts';
import { readSolution } from '../model/wire.ts';

/** The candidate's answer, whether it is right, and the reviewer's (noisy) verdict. */
export function reviewSolution({ problem, rest, rng, verifierAccuracy }: ResponderInput): { answer: string | null; truth: boolean; saysCorrect: boolean } {
  const solution = readSolution(rest);
  const answer = solution === null ? null : lastBoxed(solution);
  const truth = answer !== null && sameAnswer(answer, problem.answer);
  const saysCorrect = rng.next() < verifierAccuracy ? truth : !truth;
  return { answer, truth, saysCorrect };
}
