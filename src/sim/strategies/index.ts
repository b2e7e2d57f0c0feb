/** The simulator's responders for the roles of the baseline strategies, by role. */
import { respondVerification } from '../verification.responder.ts';
import type { Responder } from '../responder.ts';
import { respondCeo, respondCritic, respondEvaluator, respondRecruiter } from './mas-ceo.responder.ts';
import { respondRevision } from './revision.responder.ts';
import type { StrategySimRole } from './roles.ts';
import { respondDistill, respondRollout } from './rse.responder.ts';

/** Every baseline role's responder. A critique is a verification in format (analysis, then `SCORE: s`). */
export const STRATEGY_RESPONDERS: Record<StrategySimRole, Responder> = {
  critique: respondVerification,
  rewrite: respondRevision,
  refine: respondRevision,
  rollout: respondRollout,
  distill: respondDistill,
  ceo: respondCeo,
  recruiter: respondRecruiter,
  solver: respondRevision,
  critic: respondCritic,
  evaluator: respondEvaluator,
};
