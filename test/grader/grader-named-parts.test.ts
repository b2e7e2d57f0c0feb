/**
 * Answers in named parts ("\min = 4, \max = 9"): the parts in another order
 * are the answer, the values swapped between the names or changed are not,
 * and sure of it (a pairing of two names no formula reads left it unsure).
 */
import { describe, expect, it } from 'vitest';
import { verdictsAgainst as against } from './grader-verdicts.ts';

describe('an answer in parts named by words no formula reads', () => {
  it('is equal in another order, and different with its values swapped or changed', () => {
    expect(against('\\min = 4, \\max = 9', ['\\max = 9, \\min = 4', '\\min = 9, \\max = 4', '\\min = 4, \\max = 10', '\\min = 4'])).toEqual(['equal', 'different', 'different', 'different']);
    expect(against('\\max = 1, \\min = -1', ['\\min = -1, \\max = 1', '\\max = -1, \\min = 1'])).toEqual(['equal', 'different']);
  });

  it('leaves equations in letters to their own rules', () => {
    // Two labels that are letters may state one equation: "x = 2y" is "y = x/2".
    expect(against('x = 2y', ['y = \\frac{x}{2}'])).toEqual(['equal']);
    expect(against('a = 2, b = 3', ['b = 3, a = 2', 'a = 3, b = 2'])).toEqual(['equal', 'different']);
  });
});
