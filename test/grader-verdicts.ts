/**
 * The two verdicts grader tests ask for: of a bare answer, and of a whole
 * reply as a run grades it.
 */
import { extractAnswer, gradeAnswer, type Verdict } from '../src/grader/index.ts';

/** The verdict a run gives a reply: its extracted answer, graded with the reply as context. */
export function verdictOfReply(response: string, gold: string): Verdict {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response }).verdict;
}

/** The verdict of a bare answer against the reference. */
export function verdictOf(pred: string, gold: string): Verdict {
  return gradeAnswer(pred, gold).verdict;
}
