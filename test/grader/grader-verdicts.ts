/**
 * The two verdicts grader tests ask for: of a bare answer, and of a whole
 * reply as a run grades it.
 */
import { expect } from 'vitest';
import { extractAnswer, gradeAnswer, type Verdict } from '../../src/grader/index.ts';

/** The verdict a run gives a reply: its extracted answer, graded with the reply as context. */
export function verdictOfReply(response: string, gold: string): Verdict {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response }).verdict;
}

/** The verdict of a bare answer against the reference. */
export function verdictOf(pred: string, gold: string): Verdict {
  return gradeAnswer(pred, gold).verdict;
}

/** Grades each reply against each reference, expecting its verdict ('not equal': unsure or different). */
export function expectReplies(responses: readonly string[], verdicts: Readonly<Record<string, Verdict | 'not equal'>>): void {
  for (const response of responses) {
    for (const [gold, verdict] of Object.entries(verdicts)) {
      const found = verdictOfReply(response, gold);
      if (verdict === 'not equal') expect(found, `${response} against ${gold}`).not.toBe('equal');
      else expect(found, `${response} against ${gold}`).toBe(verdict);
    }
  }
}

/** The verdict of each prediction against `gold`, graded bare. */
export function verdictsAgainst(gold: string, preds: readonly string[]): Verdict[] {
  return preds.map((pred) => verdictOf(pred, gold));
}
