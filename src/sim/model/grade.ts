/**
 * Answer equivalence for the simulated model. The simulator must agree with
 * the runtime about what "correct" means, so it asks the runtime's grader.
 */
import { gradeAnswer } from '../../grader/index.ts';

/** True when `pred` is the same answer as `gold` by the runtime's grader. */
export function sameAnswer(pred: string | null, gold: string): boolean {
  return gradeAnswer(pred, gold).equal;
}
