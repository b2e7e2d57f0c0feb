/**
 * Words between two answers that do not take the first back: a check ("Wait, let me sanity-check …"), a verb ("we
 * wait for …", "wait-free"), a remark on a method ("naive counting overcounts"), the next part of a question. Read
 * as a revision, such a reply was graded by its later answer alone: a check value or the second part of two graded
 * equal to a reference it never gave as its answer. Cases written for this review.
 */
import { describe, expect, it } from 'vitest';
import { finalAnswers } from '../../../src/grader/index.ts';
import { expectReplies } from '../grader-verdicts.ts';

describe('words that do not take an answer back', () => {
  it('leave a reply that answers two parts with both answers', () => {
    const numbered = '(1) The minimum is $\\boxed{3}$.\n\n(2) Wait, this part asks for the maximum. It is $\\boxed{4}$.';
    expect(finalAnswers(numbered)).toEqual(['3', '4']);
    expectReplies(
      [
        numbered,
        'The first count is $\\boxed{3}$. Now we wait for the second step to settle: the second count is $\\boxed{4}$.',
        'The first count is $\\boxed{3}$. As the protocol is wait-free, the second count is $\\boxed{4}$.',
        'The minimum is $\\boxed{3}$. For the maximum, naive counting overcounts, so we halve it: the maximum is $\\boxed{4}$.',
        '**Question 1.** The minimum is $\\boxed{3}$.\n\n**Question 2.** Correction factors aside, the maximum is $\\boxed{4}$.',
      ],
      { 4: 'not equal', 3: 'not equal' },
    );
  });

  it('never make a value the reply only checks or asks about its answer', () => {
    const check = 'The answer is $\\boxed{12}$.\n\nWait, let me sanity-check with $n=2$: the formula gives $\\boxed{3}$, which matches a direct count. So the answer stands.';
    expectReplies([check], { 3: 'not equal' });
    expectReplies(['We get $\\boxed{5}$. Wait, is it $\\boxed{7}$? No, that was a misreading; the answer remains 5.'], { 7: 'not equal' });
    expectReplies(['We get $\\boxed{5}$. Wait, before the final answer: could $n = 7$ work? No, it fails.'], { 7: 'not equal' });
  });

  it('take nothing back inside a clause on another quantity', () => {
    // "For the maximum, I made a mistake …": the fault is in the next part's work, not in the box before it.
    const other = 'The minimum is $\\boxed{3}$.\n\nFor the maximum, I made a mistake in the bound earlier, so we redo it: the maximum is $\\boxed{4}$.';
    expect(finalAnswers(other)).toEqual(['3', '4']);
    expectReplies([other], { 4: 'not equal' });
    // A run of spaces before the words is no start of a sentence.
    const padded = `The minimum is $\\boxed{3}$; for the maximum,${' '.repeat(30)}I made a mistake in the bound, so: the maximum is $\\boxed{4}$.`;
    expect(finalAnswers(padded)).toEqual(['3', '4']);
  });

  it('keep a box that a remark or an apology without a fault follows', () => {
    const note = 'So there are $\\boxed{36}$ arrangements.\n\nNote: a common error is to overcount the rotations.\n\nThe final answer is the number of arrangements above.';
    const apology = 'The count is $\\boxed{36}$.\n\nI apologize for the lengthy explanation; the final answer is as boxed above.';
    expectReplies([note, apology], { 36: 'equal', 35: 'different' });
  });
});
