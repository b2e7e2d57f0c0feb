/**
 * An answer struck through and corrected ("The answer is ~~12~~ 14."): the correction is the answer, the struck value
 * none; a strike inside a computation leaves it as it was. Every case was written for this project.
 */
import { describe, it } from 'vitest';
import { expectReplies } from '../grader-verdicts.ts';

describe('an answer struck through and corrected', () => {
  it('is the correction, never the struck value', () => {
    // Read with the strike, "~~12~~ 14" was a text graded unsure against the right 14, and "~~$12$~~ $14$" was 12 and 14.
    expectReplies(
      [
        'We check each case.\n\nThe answer is ~~12~~ 14.',
        'We check each case.\n\nSo the answer is ~~$12$~~ $14$.',
        'We check each case.\n\nThe answer is <del>12</del> 14.',
        'We check each case.\n\nThe answer is $\\cancel{12}$ $14$.',
        'We check each case.\n\nThus $\\boxed{~~12~~ 14}$.',
      ],
      { 14: 'equal', 12: 'different' },
    );
  });

  it('leaves a cancelled factor inside a computation, and a lone tilde', () => {
    expectReplies(['We simplify: $\\frac{\\cancel{2} x}{\\cancel{2}} = x$, so the answer is $14$.', 'So $a \\sim b$ and the answer is $14$.'], { 14: 'equal', 12: 'different' });
  });
});
