/** The roles of the baseline strategies (machines/strategies/*) the simulator answers, by the name in "You are the X agent". */
export const STRATEGY_SIM_ROLES = ['critique', 'rewrite', 'refine', 'rollout', 'distill', 'ceo', 'recruiter', 'solver', 'critic', 'evaluator'] as const;
/** One of those roles. */
export type StrategySimRole = (typeof STRATEGY_SIM_ROLES)[number];
