import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer } from '../src/grader/index.ts';

/** The verdict a run gives a whole response: its extracted answer, graded with the response as context. */
function verdictOf(response: string, gold: string): string {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response }).verdict;
}

/** Unannounced endings written for this project that hedge between two values. */
describe('an unannounced value offered as an alternative to the one before it', () => {
  it('is graded neither as the answer nor as the only one', () => {
    // The hedge's value was read as the answer: a wrong reference 21 was graded equal, sure of it.
    for (const response of [
      'Hence we get $20$ (or possibly $21$).',
      'So we get $20$, or perhaps $21$.',
      'Therefore it is $20$, though it could be $21$.',
      'Thus the total is $20$ (maybe $21$).',
    ]) {
      expect(verdictOf(response, '21')).not.toBe('equal');
      expect(verdictOf(response, '20')).not.toBe('equal');
    }
    // A restatement, or a plain "or" between two answers, is no hedge.
    expect(verdictOf('Hence we get $20$ (or equivalently $\\frac{40}{2}$).', '20')).toBe('equal');
    expect(verdictOf('Thus $x = 20$ or $x = 21$.', '20, 21')).toBe('equal');
  });
});
