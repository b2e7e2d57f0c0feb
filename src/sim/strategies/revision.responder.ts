/**
 * The simulated Rewrite, Refine and Solver agents: a revision of a solution
 * after feedback. A right solution that the feedback endorses is usually kept
 * (the feedback is right with the verifiers' accuracy); anything else is
 * solved afresh, as the Solution agent would. A first draft (no `<solution>`
 * block) is a plain solution.
 */
import { boxedLine, lastBoxed } from '../model/boxed.ts';
import { CHARS_PER_TOKEN, filler } from '../model/filler.ts';
import { sameAnswer } from '../model/grade.ts';
import { jitteredTokens, type Responder } from '../responders/responder.ts';
import { respondSolution } from '../responders/solution.responder.ts';
import { readSolution } from '../model/wire.ts';

/** Chance that a right solution is kept through a revision. */
const KEEP_RIGHT = 0.9;

/** Answers a revision request. */
export const respondRevision: Responder = (input) => {
  const previous = readSolution(input.rest);
  const answer = previous === null ? null : lastBoxed(previous);
  if (answer === null || !sameAnswer(answer, input.problem.answer) || input.rng.next() >= KEEP_RIGHT) {
    // A fresh attempt: the solution responder reads only the blocks it knows, so this is a `normal` draw.
    return respondSolution({ ...input, rest: '' });
  }
  const head = 'Revised solution: the argument holds after the review; the gaps it raised are now justified.';
  const tail = boxedLine(answer);
  const body = filler(jitteredTokens(input.outputTokens, input.rng) * CHARS_PER_TOKEN - head.length - tail.length - 2, input.rng);
  return [head, ...(body ? [body] : []), tail].join('\n');
};
