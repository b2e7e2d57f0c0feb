/**
 * Answer forms a held-out grader set holds: a closing sentence that only says a case can be checked, and others
 * added below. Every case was written for this project; each rule is shown with its near misses.
 */
import { describe, expect, it } from 'vitest';
import { expectReplies, verdictOf } from './grader-verdicts.ts';

describe('a sentence after the answer that says a case of it is easy to check', () => {
  it('leaves the answer before it, never the case', () => {
    // "Actually" with "when" was read as a reopening on a condition and the case's 3 as the answer: unsure both ways.
    expectReplies(
      [
        'So we get $9$. Actually, when $n = 3$ this is also easy to verify directly.',
        'So we get $9$. When $n = 3$ this is also easy to verify directly.',
        'So we get $9$. Actually, this is also easy to verify directly when $n = 3$.',
        'So we get $9$. For $n = 3$ one can check this by hand.',
      ],
      { 9: 'equal', 10: 'different', 3: 'different' },
    );
  });

  it('still reads a value the sentence states under its condition', () => {
    expectReplies(['So we get $9$. Actually, if $n = 3$ the count is $10$.', 'We conclude $12$. Hmm, but wait: if $n = 0$ is allowed, it is $13$.'], {
      9: 'not equal',
      10: 'not equal',
      12: 'not equal',
      13: 'not equal',
    });
    expectReplies(['So we get $9$. For $n = 3$ we get $10$, which is easy to check.'], { 9: 'not equal' });
  });
});

describe('values given "respectively"', () => {
  it('are the list in its order', () => {
    // "respectively" was a third item, a word: the right pair was graded different from (12, 13), sure of it.
    for (const pred of ['12 and 13, respectively', '12, 13, respectively', '$12$ and $13$, respectively', '12 and 13, in that order']) {
      expect(verdictOf(pred, '(12, 13)'), pred).toBe('equal');
      expect(verdictOf(pred, '(13, 12)'), pred).toBe('different');
      expect(verdictOf(pred, '(12, 14)'), pred).toBe('different');
    }
    expect(verdictOf('13 and 12, respectively', '(12, 13)')).toBe('different');
  });
});
