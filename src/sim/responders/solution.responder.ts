/**
 * The simulated Solution agent. Whether the candidate is right is drawn from
 * the accuracy model (accuracy.ts); the text is a few readable lines, padding
 * up to about `outputTokens`, and the final `\boxed{}` (the reference answer
 * verbatim when correct, a distractor otherwise).
 */
import { solutionOdds, weightedIndex } from '../model/accuracy.ts';
import { boxedLine } from '../model/boxed.ts';
import { CHARS_PER_TOKEN, filler } from '../model/filler.ts';
import { sigmoid, type Rng } from '../model/random.ts';
import { excerpt, jitteredTokens, type Responder } from './responder.ts';
import { SOLVER_STRATEGIES } from '../model/solver-strategies.ts';
import { readExperience, readGuidelines, readRollouts, solutionModeOf } from '../model/wire.ts';

/** An explore prompt's strategy: one the guideline bank does not hold, other than the problem's default. */
function exploreStrategy(rng: Rng, tried: readonly string[], usual: string): string {
  const fresh = SOLVER_STRATEGIES.filter((s) => s !== usual && !tried.includes(s));
  return rng.pick(fresh.length > 0 ? fresh : SOLVER_STRATEGIES.filter((s) => s !== usual));
}

/** Answers a Solution-agent request. */
export const respondSolution: Responder = ({ seed, problem, rest, rng, outputTokens }) => {
  const mode = solutionModeOf(rest);
  const strategy = mode === 'guideline' ? exploreStrategy(rng, readGuidelines(rest), problem.defaultStrategy) : problem.defaultStrategy;
  const odds = solutionOdds(seed, problem, {
    mode,
    strategy,
    experience: mode === 'experience' ? readExperience(rest) : [],
    rollouts: mode === 'experience' ? readRollouts(rest) : [],
  });
  const correct = rng.next() < sigmoid(odds.logit);
  const answer = correct
    ? problem.answer
    : (problem.distractors[weightedIndex(odds.weights, rng.next())]?.answer ?? `${problem.answer}+1`);

  const head: string[] = [];
  if (mode === 'guideline') head.push(`Strategy: ${strategy}`);
  head.push(`We are asked: ${excerpt(problem.question)}`);
  if (odds.usedConclusions > 0) head.push('We build on the verified step recorded in the experience bank.');
  if (odds.avoided.length > 0) head.push(`We keep clear of the known pitfalls that lead to ${odds.avoided.join(', ')}.`);
  head.push(`Approach: ${strategy}.`);
  const tail = boxedLine(answer);
  const fixed = head.join('\n').length + tail.length + 2;
  const body = filler(jitteredTokens(outputTokens, rng) * CHARS_PER_TOKEN - fixed, rng);
  return [...head, ...(body ? [body] : []), tail].join('\n');
};
