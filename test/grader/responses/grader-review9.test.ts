/**
 * Near misses of the grader9 rules that an independent review found graded wrong: the same trigger words ("but",
 * "about", "caveat", "perhaps", "Alternatively") in a hedge, in an innocent use or around a wrong value. Every case was
 * written for this project.
 */
import { describe, it } from 'vitest';
import { expectReplies } from '../grader-verdicts.ts';

describe('"but" and another value that the words after it do not reject', () => {
  it('still takes the announced answer back', () => {
    // Read as rejections, "…, but $8$ is too." (8 is an answer as well) and "is not excluded" left 7 equal, sure of it.
    const open = [
      'Thus the answer is $7$, but $8$ is too.',
      'Thus the answer is $7$, but $8$ is not excluded.',
      'Thus the answer is $7$, but $8$ is not ruled out either.',
      'Thus the answer is $7$, but $8$ does not seem impossible.',
      'Thus the answer is $7$, but $8$ is not much different, so maybe $8$.',
      'So we get 7, but 8 is too.',
    ];
    expectReplies(open, { 7: 'not equal', 8: 'not equal' });
  });

  it('keeps the answer where they reject it', () => {
    const rejected = ['Thus the answer is $7$, but $8$ fails.', 'Thus the answer is $7$, but $8$ does not work.', 'Thus the answer is $7$, but $8$ is too large.', 'Thus the answer is $7$, but $8$ does not.', 'Thus the answer is $7$, but $8$ is not a solution.'];
    expectReplies(rejected, { 7: 'equal', 8: 'different' });
  });
});

describe('a word of rounding that no value follows', () => {
  it('opens no remark: the sentence goes on to its answer', () => {
    // Cut at ", approximately half", the 5 before it was the answer: a wrong 5 equal, the right 4 different.
    const replies = ['We fix $5$ points, approximately half, and the count is $4$.', 'We choose $5$ of them, roughly a third, so the count is $4$.'];
    expectReplies(replies, { 4: 'equal', 5: 'different' });
  });

  it('still cuts a rounding of the value', () => {
    expectReplies(['Hence $P = \\frac{1}{6}$, about $16.7\\%$.'], { '\\frac16': 'equal' });
    expectReplies(['So there are $12$ ways, about $3$ per case.'], { 12: 'equal', 3: 'different' });
  });
});

describe('a caveat that carries on to a value', () => {
  it('corrects the answer before it: the value it gives is the answer', () => {
    // Cut as an aside, the naive 5 was the answer: the right 4 different, a wrong 5 equal, sure of it.
    const replies = [
      'We get $5$ from the naive count. One caveat: the empty set is excluded, so the true count is $4$.',
      'A naive count gives $5$. A subtle point is that two of them coincide, giving $4$.',
    ];
    expectReplies(replies, { 4: 'equal', 5: 'different' });
  });

  it('is still an aside where it gives no value', () => {
    expectReplies(['So the count is $12$. There is one subtlety: $n = 0$.', 'So the answer is $12$. As an aside, the count for $n = 3$ is $5$.'], { 12: 'equal', 0: 'different', 5: 'different' });
  });
});

describe('words after a box that offer no other value', () => {
  it('leave the box the answer', () => {
    // Read as an offered alternative, each made a right box unsure.
    const replies = [
      '$\\boxed{4}$ (perhaps easiest via $2 + 2$).',
      '$\\boxed{4}$, or perhaps more simply $2 + 2$.',
      '$\\boxed{4}$, possibly the intended answer since $2 + 2 = 4$.',
      'The answer is $\\boxed{4}$ (possibly written as $4.0$ in other sources).',
      '\\boxed{4}\n\nPerhaps surprisingly, this is the only value: $4$.',
    ];
    expectReplies(replies, { 4: 'equal', 5: 'different' });
  });

  it('still make a box unsure where they offer another value', () => {
    const hedges = ['The answer is $\\boxed{4}$, or perhaps $5$.', 'The answer is $\\boxed{4}$ (maybe $5$ if zero counts).', 'The answer is $\\boxed{4}$; possibly $5$.', 'So $\\boxed{4}$, though it could be $5$.', 'Thus \\boxed{4} or maybe 5.'];
    expectReplies(hedges, { 4: 'unsure', 5: 'not equal' });
  });
});

describe('a sentence that finds the same value another way', () => {
  it('is no alternative to the answer', () => {
    // Compared whole, "x = 4" and "9 - 5 = 4" differed and the two were read as a hedge: the right 4 unsure.
    expectReplies(['Hence $x = 4$. Alternatively, one can count complements: $9 - 5 = 4$.'], { 4: 'equal', 5: 'different' });
  });

  it('still hedges where it offers another value', () => {
    expectReplies(['Hence $x = 4$. Alternatively, $x = 5$ if negative values are allowed.', 'Hence $x = 4$. Alternatively, one can count complements: $9 - 4 = 5$.'], { 4: 'not equal', 5: 'not equal' });
  });
});

describe('a choice letter and a hedge after a comma', () => {
  it('is no choice with its value', () => {
    // Read as the choice E with the value ", though (D) might also work", the hedge was graded equal to (E), sure of it.
    expectReplies(['So we get $\\text{(E)}$, though $\\text{(D)}$ might also work.', 'So the answer is $\\text{(E)}$, though $8$ might also work.'], { '\\text{(E)}': 'not equal' });
  });

  it('keeps a choice with its value', () => {
    expectReplies(['The answer is $\\textbf{(E)}\\ 12$.'], { '\\text{(E)}': 'equal' });
  });
});
