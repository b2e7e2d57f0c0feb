/**
 * Functions named in words (function-words.ts): "the identity function" is
 * f(x) = x and "the zero function" f(x) = 0; as words they were different
 * from the formula, sure of it.
 */
import { describe, expect, it } from 'vitest';
import { verdictsAgainst as against } from './grader-verdicts.ts';

describe('a function named in words', () => {
  it('is its formula', () => {
    expect(against('f(x) = x', ['The identity function', '$f$ is the identity.', 'the identity map', '\\text{identity}'])).toEqual(['equal', 'equal', 'equal', 'equal']);
    expect(against('f(x) = 0', ['the zero function', 'f is identically zero'])).toEqual(['equal', 'equal']);
  });

  it('is never another function', () => {
    expect(against('f(x) = x + 1', ['the identity function', 'the zero function'])).toEqual(['different', 'different']);
    expect(against('f(x) = 0', ['the identity function'])).toEqual(['different']);
  });
});
