/**
 * The accuracy model of the simulated Solution agent: the chance that a
 * candidate is correct is the logistic of the problem's base logit plus
 * bonuses from what the prompt carries, and a wrong candidate picks one of the
 * problem's distractors by weight. This is where TMAS's loop dynamics come from:
 * true conclusions help, pitfalls steer away from wrong answers, well-scored
 * wrong rollouts and false conclusions pull toward their answer.
 */
import { classifyAnswer, type SimProblem } from './catalogue.ts';
import { answerOfRecord } from './records.ts';
import { strategyEffect } from './solver-strategies.ts';
import type { ExperienceLine, RolloutView, SolutionMode } from './wire.ts';

/** Logit bonuses; exported so the report and the tests can name them. */
export const BONUS = {
  /** Any exploit prompt: seeing earlier attempts helps a little. */
  exploit: 0.2,
  /** At least one true conclusion for this problem in the experience bank. */
  trueConclusion: 1.6,
  /** Each false conclusion (supports a distractor) in the bank, down to `falseConclusionFloor`. */
  falseConclusion: -0.8,
  falseConclusionFloor: -1.6,
  /** Each pitfall that names a wrong answer, up to `pitfallCap`: ruling answers out helps. */
  pitfall: 0.25,
  pitfallCap: 0.75,
  /** Each pitfall that names the right answer (the verifiers were fooled), down to `wrongPitfallFloor`. */
  wrongPitfall: -0.8,
  wrongPitfallFloor: -1.6,
  /** Each well-scored rollout with the right answer, up to `rightRolloutCap`. */
  rightRollout: 0.35,
  rightRolloutCap: 1.4,
  /** Each well-scored rollout with a wrong answer, down to `wrongRolloutFloor`. */
  wrongRollout: -0.3,
  wrongRolloutFloor: -1.2,
  /** Explore prompts redraw from the base with this bonus plus the strategy's affinity. */
  explore: 0.3,
} as const;

/** A rollout counts as well-scored from this mean verification score. */
export const HIGH_SCORE = 0.6;
/** A rollout counts as poorly scored below this score. */
export const LOW_SCORE = 0.4;

/** What a solution prompt carries, as the accuracy model sees it. */
export interface SolutionInputs {
  mode: SolutionMode;
  strategy: string;
  experience: ExperienceLine[];
  rollouts: RolloutView[];
}

/** The odds of one solution: the logit of being correct and the weight of each distractor if not. */
export interface SolutionOdds {
  logit: number;
  weights: number[];
  /** The true conclusions that were used, for the solution text. */
  usedConclusions: number;
  /** The wrong answers the prompt warned about, for the solution text. */
  avoided: string[];
}

/** Computes the odds of a solution prompt on `problem`. */
export function solutionOdds(seed: number, problem: SimProblem, inputs: SolutionInputs): SolutionOdds {
  const weights = problem.distractors.map((d) => d.weight);
  if (inputs.mode === 'normal') return { logit: problem.baseLogit, weights, usedConclusions: 0, avoided: [] };
  if (inputs.mode === 'guideline') {
    const logit = problem.baseLogit + BONUS.explore + strategyEffect(seed, problem.id, inputs.strategy);
    return { logit, weights, usedConclusions: 0, avoided: [] };
  }

  let trueConclusions = 0;
  let falseBonus = 0;
  let pitfallBonus = 0;
  let wrongPitfallBonus = 0;
  const avoided: string[] = [];
  const scale = (index: number, factor: number): void => {
    const weight = weights[index];
    if (weight !== undefined) weights[index] = weight * factor;
  };
  for (const line of inputs.experience) {
    const about = answerOfRecord(problem, line.text);
    if (about === null) continue; // another problem's record, or free text: irrelevant
    if (line.kind === 'conclusion') {
      if (about.correct) trueConclusions++;
      else {
        falseBonus += BONUS.falseConclusion;
        scale(about.distractor, 4);
      }
    } else if (about.correct) {
      wrongPitfallBonus += BONUS.wrongPitfall;
    } else {
      pitfallBonus += BONUS.pitfall;
      scale(about.distractor, 0.2);
      avoided.push(about.answer);
    }
  }

  let rightRollouts = 0;
  let wrongRollouts = 0;
  for (const rollout of inputs.rollouts) {
    if (rollout.answer === null || rollout.score === null || rollout.score < HIGH_SCORE) continue;
    const about = classifyAnswer(problem, rollout.answer);
    if (about.correct) rightRollouts += rollout.score;
    else {
      wrongRollouts += rollout.score;
      // Self-reinforcing error: a confident wrong answer is copied.
      const index = about.distractor;
      const weight = weights[index];
      if (weight !== undefined) weights[index] = weight + rollout.score;
    }
  }

  const logit =
    problem.baseLogit +
    BONUS.exploit +
    (trueConclusions > 0 ? BONUS.trueConclusion : 0) +
    Math.max(BONUS.falseConclusionFloor, falseBonus) +
    Math.min(BONUS.pitfallCap, pitfallBonus) +
    Math.max(BONUS.wrongPitfallFloor, wrongPitfallBonus) +
    Math.min(BONUS.rightRolloutCap, BONUS.rightRollout * rightRollouts) +
    Math.max(BONUS.wrongRolloutFloor, BONUS.wrongRollout * wrongRollouts);
  return { logit, weights, usedConclusions: trueConclusions, avoided };
}

/** Index of a weighted pick, given a uniform draw `u` in [0, 1). */
export function weightedIndex(weights: readonly number[], u: number): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let at = u * total;
  for (let i = 0; i < weights.length; i++) {
    at -= weights[i] ?? 0;
    if (at < 0) return i;
  }
  return Math.max(0, weights.length - 1);
}
