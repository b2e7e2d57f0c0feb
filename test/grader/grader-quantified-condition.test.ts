/**
 * "all n \ge 3": a quantifier before a condition on one letter says no more
 * than the condition (words.ts). Read as words, it was different from "n \ge 3",
 * sure of it.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../src/grader/index.ts';

describe('a quantifier before a condition on one letter', () => {
  it('is the condition', () => {
    const restated = ['n \\geq 3', '\\text{all } n \\ge 3', 'every $n \\ge 3$', 'any n \\geq 3'];
    expect(restated.map((pred) => gradeAnswer(pred, 'all n \\ge 3').verdict)).toEqual(['equal', 'equal', 'equal', 'equal']);
  });

  it('never another condition', () => {
    const apart = ['n \\ge 4', 'all n > 3', 'all n \\le 3', 'n \\ge 2'];
    expect(apart.map((pred) => gradeAnswer(pred, 'all n \\ge 3').verdict)).toEqual(['different', 'different', 'different', 'different']);
  });
});
