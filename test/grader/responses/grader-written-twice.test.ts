/**
 * An answer written twice in one statement: a number in words with its digits ("twelve (12)"), and a value after the
 * reason that bounds it ("…, but since $x > 0$, $x = 12$"). Each is the one value, never a text or a list graded
 * different from it. Every case was written for this project.
 */
import { describe, expect, it } from 'vitest';
import { expectReplies, verdictOf } from '../grader-verdicts.ts';

describe('a number in words with its digits', () => {
  it('is that number where the two agree, and two numbers where they do not', () => {
    // Read as text, the right 12 of "twelve (12)" was graded different, sure of it.
    expect(verdictOf('twelve (12)', '12')).toBe('equal');
    expect(verdictOf('12 (twelve)', '12')).toBe('equal');
    expect(verdictOf('twelve (13)', '13')).not.toBe('equal');
    expect(verdictOf('twelve (13)', '12')).not.toBe('equal');
    expectReplies(['We work through it.\n\nThe answer is twelve (12).'], { 12: 'equal', 13: 'different' });
  });
});

describe('a value after the reason that selects it', () => {
  it('is the value, without the bound the reason states', () => {
    // Joined to the bound, "x > 0, x = 12" was graded different from the right 12, sure of it.
    expectReplies(['We work through it.\n\nThus $x = 12$ or $x = -12$, but since $x > 0$, $x = 12$.'], { 12: 'equal', '-12': 'different' });
    expectReplies(['We work through it.\n\nThe solutions are $x = 1$, $x = 2$ and $x = 3$.'], { '1, 2, 3': 'equal', 3: 'different' });
  });
});
