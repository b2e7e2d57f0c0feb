/**
 * The reply formats the simulated model (src/sim) can answer in. A strategy
 * maps each of its roles to one of these (`Strategy.sim`), so a new strategy
 * whose roles answer like existing ones needs no change in the simulator.
 */
export const SIM_FORMATS = [
  /** A solution ending in \boxed{}; reads `<rollouts>`, `<experience>`, `<guidelines>` blocks. */
  'solution',
  /** An analysis ending in `SCORE: s`. */
  'verification',
  /** A summary of a candidate's verifications. */
  'summary',
  /** TMAS's experience records (JSON). */
  'experience',
  /** TMAS's guideline records (JSON). */
  'guideline',
  /** A verdict on a candidate against the reference. */
  'judge',
  /** A solution revised after feedback (a `<solution>` block and a critique), or a first draft. */
  'revision',
  /** Self-Refine's feedback: a verification that says "It is correct." when it finds no error. */
  'critique',
  /** RSE: a solution with the experience bank in the system prompt. */
  'rse-rollout',
  /** RSE: propositions and pitfalls distilled from a rollout (JSON). */
  'rse-distill',
  /** MAS-CEO: the CEO's plan in its fixed format. */
  'ceo',
  /** MAS-CEO: the recruited experts' descriptions. */
  'recruiter',
  /** MAS-CEO: a critic's review ending in agree or disagree. */
  'critic',
  /** MAS-CEO: the evaluator's verdict and advice. */
  'evaluator',
  /** verify-refine: a `## Solution` section, then a `## Self Evaluation` ending in a boxed score; a revision when a `<solution>` is shown. */
  'self-evaluated',
  /** verify-refine: an evaluation of the `<solution>` ending in a boxed score 0, 0.5 or 1. */
  'rating',
  /** A bare prompt (no system message): the problem alone, or the problem quoted with reference answers to weigh (PaCoRe). */
  'synthesis',
] as const;

/** One reply format of the simulated model. */
export type SimFormat = (typeof SIM_FORMATS)[number];
