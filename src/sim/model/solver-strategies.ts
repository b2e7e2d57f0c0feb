/**
 * The solving strategies a simulated solver names on its "Strategy:" line
 * (casework, generating functions, …), not the run's strategies (the methods
 * of machines/strategies/, whose simulated replies are in strategies/). Each problem has a default
 * strategy (what plain and exploit prompts use) and a hidden affinity for every
 * other one, so exploring a new strategy can pay off on one problem and not on
 * another, as with real solvers.
 */
import { uniformOf } from './random.ts';

/** Strategy names, as they appear on "Strategy:" lines and in guideline records. */
export const SOLVER_STRATEGIES = [
  'direct computation',
  'casework on small values',
  'invariants and monovariants',
  'generating functions',
  'coordinate bashing',
  'modular arithmetic',
  'complementary counting',
  'induction on n',
  'symmetry reduction',
  'extremal principle',
  'algebraic substitution',
  'telescoping sums',
] as const;

/** The strategy plain and exploit prompts of a problem use. */
export function defaultStrategy(seed: number, problemId: string): string {
  const index = Math.floor(uniformOf(seed, 'default-strategy', problemId) * SOLVER_STRATEGIES.length);
  return SOLVER_STRATEGIES[index] ?? 'direct computation';
}

/**
 * The logit bonus of `strategy` on a problem, in [-0.5, 0.75): mostly small,
 * occasionally a strategy that suits the problem well. The default strategy is
 * the baseline, 0.
 */
export function strategyEffect(seed: number, problemId: string, strategy: string): number {
  if (strategy === defaultStrategy(seed, problemId)) return 0;
  return -0.5 + 1.25 * uniformOf(seed, 'strategy-effect', problemId, strategy);
}
