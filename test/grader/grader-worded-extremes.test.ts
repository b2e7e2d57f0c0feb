/**
 * A minimum and a maximum stated in words (worded-extremes.ts) are the parts
 * "\min = …, \max = …": in another order or other words the same answer,
 * with the values swapped or changed another.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../src/grader/index.ts';

const GOLD = 'the minimum is 4 and the maximum is 9';

describe('a minimum and a maximum in words', () => {
  it('are the same answer in another order or other words', () => {
    const restated = ['the maximum is 9 and the minimum is 4', 'maximum 9, minimum 4', '\\text{the minimum is } 4 \\text{ and the maximum is } 9', '\\min = 4, \\max = 9', 'the smallest value is 4; the largest value is \\frac{18}{2}', 'Max: 9, min: 4'];
    expect(restated.map((pred) => gradeAnswer(pred, GOLD).verdict)).toEqual(restated.map(() => 'equal'));
  });

  it('are another answer with the values swapped or changed, or a part left out', () => {
    const apart = ['the minimum is 9 and the maximum is 4', 'the minimum is 4 and the maximum is 10', '\\max = 4, \\min = 9'];
    expect(apart.map((pred) => gradeAnswer(pred, GOLD).verdict)).toEqual(['different', 'different', 'different']);
    expect(gradeAnswer('the minimum is 4', GOLD).verdict).not.toBe('equal');
  });

  it('against one value, are for a reader where one of them is that value: only the question says which was asked', () => {
    expect(['9', '4', '5'].map((gold) => gradeAnswer(GOLD, gold).verdict)).toEqual(['unsure', 'unsure', 'different']);
  });
});
