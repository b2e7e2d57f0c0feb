/**
 * "the empty set" in words is \emptyset (named-sets.ts): once a leading "the"
 * was dropped from answers in words, "the empty set" against the reference
 * \emptyset was different, sure of it, where it had been a reader's call.
 */
import { describe, expect, it } from 'vitest';
import { verdictsAgainst as against } from './grader-verdicts.ts';

describe('the empty set in words', () => {
  it('is \\emptyset, and never a set with members', () => {
    expect(against('\\emptyset', ['the empty set', 'The empty set.', 'empty set'])).toEqual(['equal', 'equal', 'equal']);
    expect(against('\\{1\\}', ['the empty set'])).toEqual(['different']);
    expect(against('\\emptyset', ['the set \\{0\\}'])).not.toContain('equal');
  });
});
