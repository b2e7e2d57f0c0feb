/**
 * A bound on a formula's own letter after a comma, "(n^2+3n+2, n^3-1), n \ge 1",
 * says the domain as "for n \ge 1" does (words.ts): read as a second item of a
 * list, the same pair written with "for" was graded different.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../src/grader/index.ts';

/** Each [pred, gold] pair's verdict, graded bare. */
function verdicts(pairs: ReadonlyArray<readonly [string, string]>): string[] {
  return pairs.map(([pred, gold]) => gradeAnswer(pred, gold).verdict);
}

const PAIR = '(n^2+3n+2, n^3+4n^2+3n-1)';

describe('a bound after a comma on the letter of one formula', () => {
  it('is its domain, as "for" says it', () => {
    const restated = [
      [`${PAIR}, n \\ge 1`, `${PAIR} \\text{ for } n \\ge 1`],
      ['((n+1)(n+2), n^3+4n^2+3n-1), n\\geq 1', `$${PAIR}$ for $n \\ge 1$`],
      [`${PAIR}, n \\ge 1`, PAIR],
      ['(a, a+1), a > 0', '(a, a+1) \\text{ for } a > 0'],
    ] as const;
    expect(verdicts(restated)).toEqual(['equal', 'equal', 'equal', 'equal']);
  });

  it('leaves a changed formula, another bound, a list and a family of powers as they were', () => {
    const apart = [
      ['(n^2+3n+2, n^3+4n^2+3n+1), n \\ge 1', `${PAIR} \\text{ for } n \\ge 1`],
      ['(n, n+2), n \\ge 1', '(n, n+1), n \\ge 1'],
      // A list of a value and a condition is two answers, not a domain.
      ['n = 1', 'n = 1, n \\ge 3'],
      ['1', '1, n \\ge 3'],
      // A family of powers keeps its parameter's range: from 1 is not every power of 2.
      ['2^n, n \\ge 1', 'all powers of 2'],
    ] as const;
    expect(verdicts(apart)).toEqual(['different', 'different', 'different', 'different', 'different']);
    expect(verdicts([['2^n, n \\ge 0', 'all powers of 2']])).toEqual(['equal']);
    // Other domains on the two sides: a reader says which the question meant.
    expect(verdicts([[`${PAIR}, n \\ge 2`, `${PAIR} \\text{ for } n \\ge 1`]])).toEqual(['unsure']);
  });
});
