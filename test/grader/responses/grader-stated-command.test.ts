/**
 * A sentence that closes on mathematics written out of math ("\frac43", "\frac 59", "f(x)=x+1", ".35"), in prose or
 * after the escaped dollar of an amount: its last digits are no number stated on their own. Read as one, "So the
 * total is \frac43." was 43, graded equal to a reference 43. Cases written for this review.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer } from '../../../src/grader/index.ts';
import { expectReplies } from '../grader-verdicts.ts';

describe('digits that a command, an operator, a letter or a decimal point takes', () => {
  it('are never the value a sentence states', () => {
    const replies = ['So the total is \\frac43.', 'So the total is \\$\\frac43.', 'Thus the side is \\sqrt2 and the total is \\$\\frac43.'];
    for (const reply of replies) expect(extractAnswer(reply)).not.toBe('43');
    expectReplies(replies, { 43: 'not equal', 3: 'not equal' });
    expectReplies(['Thus the length is \\sqrt2.', 'So the cost is \\$\\sqrt2.'], { 2: 'not equal' });
    expectReplies(['So the total is \\$\\frac 59.', 'So the total is \\frac 59.'], { 59: 'not equal' });
    expectReplies(['So the rule is \\$f(x)=x+1.', 'So the rule is f(x)=x+1.'], { 1: 'not equal' });
    expectReplies(['So the total is \\$.35.', 'So the rate is .35.'], { 35: 'not equal' });
  });

  it('leave an amount read, after the escaped dollar, a space or a command and a space', () => {
    expectReplies(['Hence the total is \\$18.90.', 'Hence the total is 18.90.', 'So the total is \\approx 18.90.'], { '18.90': 'equal', '18.91': 'different' });
  });
});
