/**
 * A reply that boxes an answer, takes it back and gives another ("$\boxed{5}$ … Wait, I made an error … $\boxed{7}$",
 * or "… the final answer is 7"), as reasoning models write whenever they check themselves: graded by the later answer,
 * not unsure for two. Replies in parts, and replies that add no words taking the first answer back, keep both.
 * Cases written for this project.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer, finalAnswers } from '../../../src/grader/index.ts';
import { expectReplies } from '../grader-verdicts.ts';

describe('an answer the reply takes back and replaces', () => {
  it('is graded by the later box', () => {
    expectReplies(
      [
        'So we get $\\boxed{5}$.\n\nWait, I made an arithmetic error in the second step. Redoing it:\n\nThe correct value is $\\boxed{7}$.',
        'This gives $\\boxed{5}$. Oops, that was wrong: the sum has eight terms, not six. So the total is \\[\\boxed{7}\\]',
        'So the count is $\\boxed{5}$. Final Answer: The final answer is $5$. I hope it is correct. I apologize for the mistake in the previous solution. Let me correct it. The count is $\\boxed{7}$. Final Answer: The final answer is $7$.',
        '答案是 $\\boxed{5}$。Wait, I made a mistake in the last line; the answer is $\\boxed{7}$.',
      ],
      { 7: 'equal', 5: 'different' },
    );
  });

  it('is graded by a final answer stated after the words that take the box back', () => {
    const reply = 'A first estimate gives $\\boxed{0}$, but this overcounts.\n\nCorrecting for the overcount, the final answer is odd $n$.';
    expect(extractAnswer(reply)).not.toBe('0');
    expectReplies([reply], { 'odd $n$': 'equal', 0: 'different' });
    expectReplies(['We get $\\boxed{12}$. Wait, I made a mistake in the count.\n\n**Final Answer:** $14$'], { 14: 'equal', 12: 'different' });
  });

  it('keeps both answers where nothing takes the first back, or the reply answers in parts', () => {
    expectReplies(['Counting the corners once: $\\boxed{12}$. Each corner was counted twice, so the total is $\\boxed{14}$.'], { 14: 'unsure', 12: 'unsure' });
    // "Wait" and "let me recompute" open a check as often as a fault: no admission that the first box was wrong.
    expectReplies(
      ['Thus $\\boxed{5}$. Hmm, wait — the case $n = 2$ was counted twice. Removing it gives $\\boxed{7}$.', 'First pass: $\\boxed{5}$. Let me recompute with the corrected bound: $\\boxed{7}$.'],
      { 7: 'unsure', 5: 'unsure' },
    );
    const parts = '(a) The sum is $\\boxed{5}$.\n\n(b) Wait, this part asks for the product: $\\boxed{6}$.';
    expect(finalAnswers(parts)).toEqual(['5', '6']);
    expectReplies([parts, 'Part 1: $\\boxed{5}$. Correction to the setup of part 2 below.\n\nPart 2: $\\boxed{6}$.'], { 6: 'unsure', 5: 'unsure' });
    // "We never overcounted" takes nothing back.
    expectReplies(['The first count is $\\boxed{5}$; we never overcounted. The second is $\\boxed{6}$.'], { 6: 'unsure' });
  });

  it('leaves a reopening after the last box unsure, as before', () => {
    expectReplies(['So $\\boxed{12}$. Wait, I made an error: the count is 14.'], { 12: 'unsure', 14: 'unsure' });
  });
});
