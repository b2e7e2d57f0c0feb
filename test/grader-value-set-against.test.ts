import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer } from '../src/grader/index.ts';

/** The verdict a run gives a whole response: its extracted answer, graded with the response as context. */
function verdictOf(response: string, gold: string): string {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response }).verdict;
}

/** Unannounced endings written for this project that set a rejected value, or where it is reached, after the answer. */
describe('a value set against the unannounced answer, or the point where it is reached', () => {
  it('is cut as a remark', () => {
    // Read as the last math, the rejected value was the answer: a wrong reference 9 or 3 was graded equal, sure of it.
    for (const response of ['So $y = -9$, not $9$.', 'So $y = -9$ rather than $9$.', 'Therefore $y = -9$ instead of $y = 9$.']) {
      expect(verdictOf(response, '-9')).toBe('equal');
      expect(verdictOf(response, '9')).toBe('different');
    }
    // "whereas", "while", "but not", "and not" set a value against the answer as well.
    for (const response of ['We get $y = -9$, whereas $y = 9$ fails.', 'We get $y = -9$, while $y = 9$ fails.', 'We get $y = -9$ but not $y = 9$.', 'So $y=-9$ and not $y = 9$.']) {
      expect(verdictOf(response, '-9')).toBe('equal');
      expect(verdictOf(response, '9')).toBe('different');
    }
    expect(verdictOf('The largest value is $5$, when $t = 3$.', '5')).toBe('equal');
    expect(verdictOf('The largest value is $5$, when $t = 3$.', '3')).toBe('different');
    expect(verdictOf('The largest value is $5$, attained when $t = 3$.', '3')).toBe('different');
    // "when" that ranges the value's own letter belongs to it.
    expect(extractAnswer('Hence $g(t) = 0$, when $t < 0$.')).toContain('t < 0');
  });
});
