/**
 * The simulated agents of `mas-ceo`, each in its fixed format: the CEO
 * (Decision / Experts / Direction / Budget), the Recruiter (`Expert k: …`),
 * the Critic (ends with `Decision: agree|disagree`, agreeing when its own
 * answer is the solution's) and the Evaluator
 * (`Correctness: 0|1`, `Advice: …`). The Solver is the revision responder.
 */
import { CHARS_PER_TOKEN, filler } from '../model/filler.ts';
import { jitteredTokens, type Responder } from '../responders/responder.ts';
import { SOLVER_STRATEGIES } from '../model/solver-strategies.ts';
import { reviewSolution } from './judging.ts';

const FIELDS = ['number theory', 'combinatorics', 'algebra', 'geometry', 'analysis', 'probability'] as const;

/** Answers a CEO-agent request: continue until a solution it judges right exists, then stop. */
export const respondCeo: Responder = (input) => {
  const { rng } = input;
  const { answer, saysCorrect } = reviewSolution(input);
  const stop = answer !== null && saysCorrect;
  const experts = 2 + rng.int(3);
  const budget = rng.pick([2048, 4096, 8192]);
  return [
    stop ? 'The latest solution looks right; more rounds would not pay off.' : 'The problem needs another round.',
    `Decision: ${stop ? 'stop' : 'continue'}`,
    `Experts: ${experts}`,
    `Direction: try ${rng.pick(SOLVER_STRATEGIES)} and check every case`,
    `Budget: ${budget}`,
  ].join('\n');
};

/** Answers a Recruiter-agent request with as many experts as `<recruit count="n">` asks. */
export const respondRecruiter: Responder = ({ rest, rng }) => {
  const count = Number(/<recruit count="(\d+)">/.exec(rest)?.[1] ?? 3);
  return Array.from({ length: count }, (_, i) => `Expert ${i + 1}: a specialist in ${rng.pick(FIELDS)} who checks every step.`).join('\n');
};

/**
 * Answers a Critic-agent request as MAS-TTS's critic: it solves the problem
 * itself and agrees exactly when its final answer is the solution's. Its own
 * answer agrees with the solution's when its (noisy) review calls the solution
 * right; a solution without a final answer has nothing to agree with.
 */
export const respondCritic: Responder = (input) => {
  const { answer, saysCorrect } = reviewSolution(input);
  const agree = answer !== null && saysCorrect;
  const head = agree
    ? 'My own solution reaches the same final answer; the steps that lead there follow.'
    : answer === null
      ? 'The solution states no final answer to compare with mine.'
      : 'My own solution reaches a different final answer: a step in the middle does not follow.';
  const body = filler(jitteredTokens(input.outputTokens / 4, input.rng) * CHARS_PER_TOKEN - head.length, input.rng);
  return [head, ...(body ? [body] : []), `Decision: ${agree ? 'agree' : 'disagree'}`].join('\n');
};

/** Answers an Evaluator-agent request. */
export const respondEvaluator: Responder = (input) => {
  const { saysCorrect } = reviewSolution(input);
  return [`Correctness: ${saysCorrect ? 1 : 0}`, `Advice: ${saysCorrect ? 'the solution is complete.' : 'recheck the counting step and recompute the final answer.'}`].join('\n');
};
