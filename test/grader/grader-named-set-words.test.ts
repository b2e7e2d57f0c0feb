/**
 * Sets named in words (named-sets.ts) in the other ways answers say them: the
 * primes with their letter or "number" ("all primes $n$", "$n$ is a prime
 * number"), a base of powers in words ("powers of two"), and "infinitely many
 * such $n$". Each was a reader's call against the reference's own words.
 */
import { describe, expect, it } from 'vitest';
import { verdictsAgainst as against } from './grader-verdicts.ts';

describe('sets named in words', () => {
  it('the primes, however their letter and "number" are written', () => {
    expect(against('n is prime', ['all primes n', 'all prime numbers', 'n is a prime number', 'prime numbers p', 'the primes'])).toEqual(['equal', 'equal', 'equal', 'equal', 'equal']);
    // A part of them, or another set, is never the primes.
    expect(against('n is prime', ['odd primes', 'all odd primes n', 'n is composite']).every((v) => v !== 'equal')).toBe(true);
  });

  it('powers of a base written in words', () => {
    expect(against('All powers of 2', ['powers of two', 'n is a power of two'])).toEqual(['equal', 'equal']);
    expect(against('All powers of 2', ['powers of three', 'all powers of ten'])).toEqual(['different', 'different']);
  });

  it('infinitely many such n, and never finitely many', () => {
    expect(against('infinitely many', ['There are infinitely many such n', 'there exist infinitely many'])).toEqual(['equal', 'equal']);
    expect(against('infinitely many', ['finitely many'])).toEqual(['different']);
  });
});
