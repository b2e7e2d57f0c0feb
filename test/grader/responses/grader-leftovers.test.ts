/**
 * Endings and answers the grader misread, each with its near misses: the same trigger words in innocent uses, and a
 * wrong value in the same words, which must keep their verdicts. Every case was written for this project.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer, type Verdict } from '../../../src/grader/index.ts';
import { expectReplies, verdictOfReply } from '../grader-verdicts.ts';

/** The verdict a run gives a reply to `question`. */
function verdictAsked(response: string, gold: string, question: string): Verdict {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response, question }).verdict;
}

describe('an integer parameter the reply names its own way', () => {
  const cosine = 'Find all real $x$ such that $\\cos x = 1$.';

  it('is the same family where the question names neither letter', () => {
    // Compared letter for letter, "2n\pi" was a value other than "2k\pi": a right answer graded different, sure of it.
    expect(verdictAsked('Therefore $x = 2n\\pi$.', 'x = 2k\\pi', cosine)).toBe('equal');
    expect(verdictAsked('So the solutions are $2m\\pi$.', '2k\\pi', cosine)).toBe('equal');
    expect(verdictAsked('Hence $x = \\frac{\\pi}{4} + n\\pi$.', '\\frac{\\pi}{4} + k\\pi', 'Solve $\\tan x = 1$ over the reals.')).toBe('equal');
    expect(verdictAsked('So $n \\equiv 1$, that is $3j + 1$.', '3k+1', 'Which residues occur?')).toBe('equal');
  });

  it('is another value where the question names the letter, and without a question nobody can say', () => {
    expect(verdictAsked('Therefore $x = 2n\\pi$.', 'x = 2k\\pi', 'For a positive integer $n$, find all $x$ with $\\cos(x/n) = 1$.')).toBe('different');
    expect(verdictAsked('Therefore $x = 2n\\pi$.', 'x = 2k\\pi', 'Let $k$ be a positive integer. Find all $x$ with $\\cos x = 1$.')).toBe('different');
    expect(verdictAsked('Thus the sum is $n^2$.', 'k^2', 'Let $k$ be a positive integer. Find the sum of the first $k$ odd numbers.')).toBe('different');
    expect(verdictOfReply('Therefore $x = 2n\\pi$.', 'x = 2k\\pi')).toBe('unsure');
  });

  it('renames no wrong family into a right one, nor a lone letter', () => {
    expect(verdictAsked('Therefore $x = n\\pi$.', 'x = 2k\\pi', cosine)).toBe('different');
    expect(verdictAsked('Therefore $x = 2n\\pi + 1$.', 'x = 2k\\pi', cosine)).toBe('different');
    expect(verdictAsked('Hence $x = \\frac{\\pi}{4} + m\\pi$.', '\\frac{\\pi}{4} + 2k\\pi', 'Solve $\\tan x = 1$.')).toBe('different');
    expect(verdictAsked('So the answer is $n$.', 'k', 'Find the value.')).not.toBe('equal');
    // Letters that are no integer parameters stay variables: "2x + y" is not "2x + z".
    expect(verdictAsked('So $2t\\pi$.', '2s\\pi', cosine)).not.toBe('equal');
  });
});

describe('a caveat or a check after the answer', () => {
  it('is a remark, not the answer', () => {
    // Read as the last math, the caveat's n = 0 and the check's 25 were the answer: the right 12 and 5 graded different.
    const caveats = [
      'So the count is $12$. There is one subtlety: $n = 0$.',
      'So the count is $12$.\n\nThere is one subtlety: $n = 0$ must be excluded.',
      'Hence we get $12$. One caveat: $n = 0$ needs separate treatment.',
      'Hence we get $12$. A subtle point is that $n = 0$ is allowed.',
      'Hence we get $12$. As an aside, $n = 0$ gives $1$.',
    ];
    expectReplies(caveats, { 12: 'equal', 0: 'different' });
    const checks = ['Thus $x = 5$. $5^2 = 25$ works.', 'Thus $x = 5$, and $5^2 = 25$ works.', 'Thus $x = 5$.\n\n$5^2 = 25$ holds.', 'So $x = 5$. Indeed $2 \\cdot 5 + 15 = 25$ checks out.', 'So $x = 5$; $5^2 = 25$, as required.'];
    expectReplies(checks, { 5: 'equal', 25: 'different' });
  });

  it('keeps the answer where the same words state it', () => {
    // A value under a letter that "works" may be the answer; arithmetic without a word of a check is a computation.
    expect(verdictOfReply('We test small cases. So $x = 5$ works.', '5')).toBe('equal');
    expect(verdictOfReply('We add the parts. Thus $3 \\cdot 4 = 12$.', '12')).toBe('equal');
    expect(verdictOfReply('We solve it. There is one solution: $x = 3$.', '3')).toBe('equal');
    expect(verdictOfReply('We solve it. There is one exception: $p = 2$.', '2')).toBe('equal');
    expect(verdictOfReply('First $x = 2$. One subtlety aside, the answer is $12$.', '12')).toBe('equal');
    expect(verdictOfReply('So $5^2 = 25$ works.', '25')).toBe('equal');
  });
});

describe('a box and another value offered after it', () => {
  it('is a hedge between two answers, never the box alone', () => {
    // Read as the box, "$\boxed{12}$, or perhaps $13$" was 12, graded equal to a reference 12, sure of it.
    const hedges = [
      'The answer is $\\boxed{12}$, or perhaps $13$.',
      'The answer is $\\boxed{12}$ (or possibly $13$).',
      'So $\\boxed{12}$, though it could be $13$.',
      'So $\\boxed{12}$; possibly $13$.',
      'Thus \\boxed{12} or maybe 13.',
      // A sentence or a paragraph after the box that offers another value: read alone, the box was 12, sure of it.
      'The answer is $\\boxed{12}$.\n\nOr perhaps $13$?',
      'The answer is $\\boxed{12}$. Maybe $13$, though.',
    ];
    expectReplies(hedges, { 12: 'unsure', 13: 'not equal' });
  });

  it('keeps a restatement, two boxes of one answer, and "or" in words after the sentence', () => {
    expect(verdictOfReply('The answer is $\\boxed{12}$ (or equivalently $\\frac{24}{2}$).', '12')).toBe('equal');
    expect(verdictOfReply('The answer is $\\boxed{\\frac{\\sqrt3}{2}}$, or approximately $0.866$.', '\\frac{\\sqrt3}{2}')).toBe('equal');
    expect(verdictOfReply('The solutions are $\\boxed{2}$ or $\\boxed{3}$.', '2, 3')).toBe('equal');
    expect(verdictOfReply('Thus $\\boxed{12}$. For $n = 3$ or more, this holds.', '12')).toBe('equal');
    expect(verdictOfReply('So the answer is $\\boxed{12}$, which counts the ways to pick $2$ or more.', '12')).toBe('equal');
    expect(verdictOfReply('The answer is $\\boxed{12}$. Perhaps surprisingly, this is the only solution.', '12')).toBe('equal');
    expect(verdictOfReply('The answer is $\\boxed{12}$.\n\nPerhaps $12$ can be seen more directly.', '12')).toBe('equal');
  });
});

describe('an answer that corrects a value to another', () => {
  it('is the value it corrects to', () => {
    // Read whole, "not $6$ but $7$" was free text: the right 7 was unsure, left to a judge or counted wrong.
    const corrections = ['The answer is not $6$ but $7$.', 'So the answer is not 6 but 7.', 'So the answer is not 6, but rather 7.', 'The final answer is not $6$; it is $7$.'];
    expectReplies(corrections, { 7: 'equal', 6: 'different' });
  });

  it('keeps a denial, "not only … but also", and a correction to words', () => {
    expectReplies(['The answer is not only $6$ but also $7$.', 'The answer is not $6$.', 'The answer is not 6 but rather something else.'], { 6: 'not equal' });
    expectReplies(['The answer is not $6$ but $7$ or $8$.'], { 7: 'not equal' });
  });
});

describe('a value set against the answer in a parenthesis after it, in prose', () => {
  it('is no part of the answer', () => {
    // Kept, "12 (and not 13, a common mistake)" was free text: the right 12 unsure, as a wrong 13 was.
    expectReplies(['The answer is 12 (and not 13, a common mistake).', 'The answer is 12 (not 13).', 'The answer is 12 (but not 13).'], { 12: 'equal', 13: 'different' });
  });

  it('keeps a parenthesis that states no value against it', () => {
    expectReplies(['The answer is 12 (not counting reflections).'], { 12: 'equal' });
    expectReplies(['The answer is $12$ (not $13$), or perhaps $14$.'], { 12: 'not equal' });
  });
});

describe('an answer announced by "Answer." at the start of a paragraph', () => {
  it('is the statement after it', () => {
    // Not a marker, "**Answer.** $12$" was read whole as text: the right 12 graded different, sure of it.
    const announced = ['<think>Maybe $13$? No.</think>\n\n**Answer.** $12$', 'Answer. $12$', 'Solution.\n\nWe count.\n\n**Answer.** The number of ways is $12$.', 'Answer.\n\n$12$'];
    expectReplies(announced, { 12: 'equal', 13: 'different' });
  });

  it('is no marker inside a sentence', () => {
    expectReplies(['We need to check the answer. $x = 12$ fails, so $x = 13$.'], { 13: 'equal', 12: 'different' });
  });
});

describe('a value rounded after the exact one', () => {
  it('restates the answer and is no value of its own', () => {
    // Read as the last math, the rounding was the answer: unsure against the exact reference, and ", about $3$ per
    // case" graded a wrong 3 equal, sure of it.
    expectReplies(['Hence $P = \\frac{1}{6}$, about $16.7\\%$.', 'Hence $P = \\frac{1}{6}$, approximately $0.1667$.', 'So $P$ is $\\frac{1}{6}$, or roughly $0.17$.'], { '\\frac16': 'equal', '\\frac17': 'different' });
    expectReplies(['So there are $12$ ways, about $3$ per case.'], { 12: 'equal', 3: 'different' });
  });

  it('keeps a rounding stated alone, and one that the sentence leads on to', () => {
    expectReplies(['So the length is about $1.414$.'], { '\\sqrt2': 'unsure' });
    expectReplies(['We have $s = 2$, so the area is about $3.46$.'], { 3.46: 'equal' });
  });
});

describe('a clause that rejects its value before a semicolon', () => {
  it('leaves the clause after the semicolon the answer', () => {
    // Cut at the semicolon as an aside, "$n = 12$ is too large; the largest valid $n$ is $11$." was 12: a wrong 12
    // graded equal, the right 11 different, sure of it.
    const rejected = ['So $n = 12$ is too large; the largest valid $n$ is $11$.', 'So $n = 12$ fails; the largest valid $n$ is $11$.', 'So $12$ is too large; the largest valid value is $11$.'];
    expectReplies(rejected, { 11: 'equal', 12: 'different' });
    expectReplies(['Hence $n = 11$. $n = 12$ is too large.'], { 11: 'equal', 12: 'different' });
  });

  it('keeps an aside after a value it does not reject', () => {
    expectReplies(['So $x = 5$ is the answer; the other root $-2$ is negative.', 'The count is $5$; the side is $4$.'], { 5: 'equal' });
    expectReplies(['There are too many cases to list, so the answer is $5$.', 'We get $5$, which is not too large.'], { 5: 'equal' });
  });
});

describe('another value offered after the answer, as a hedge', () => {
  it('makes the answer unsure, never the offered value alone', () => {
    // Read as the last math, "$7$, though $8$ might also work" and "… Alternatively, $x = 8$ …" were 8, graded equal
    // to a reference 8, sure of it; "although $8$ also seems plausible" left 7 sure.
    const hedged = [
      'So the answer is $7$, although $8$ also seems plausible.',
      'So we get $7$, though $8$ might also work.',
      'The answer is $\\boxed{7}$, although $8$ is also possible.',
      'Hence $x = 7$. Alternatively, $x = 8$ if negative values are allowed.',
      'Hence $7$. Or perhaps $8$.',
    ];
    expectReplies(hedged, { 7: 'not equal', 8: 'not equal' });
  });

  it('keeps the answer where the words offer no other value', () => {
    expectReplies(['So the answer is $7$, although $8$ is what a naive count gives.', 'Hence $x = 7$. Alternatively, substituting back gives $x = 7$ again.'], { 7: 'equal', 8: 'different' });
    expectReplies(['Thus $x = 7$. Perhaps surprisingly, this is the only solution: $x = 7$.', 'The answer is $7$. Alternatively, one can count complements: $10 - 3 = 7$.'], { 7: 'equal' });
  });
});

describe('an announced answer followed by "but" and another value that fails', () => {
  it('keeps the answer: the "but" rejects the other value and takes nothing back', () => {
    // Taken back as hedged, "Thus the answer is $7$, but $8$ fails." had no answer: the right 7 unsure.
    expectReplies(['Thus the answer is $7$, but $8$ fails.', 'Thus the answer is 7, but 8 does not work.', 'Thus the answer is $7$, but $8$ is not possible.'], { 7: 'equal', 8: 'different' });
  });

  it('still takes back an answer that "but" doubts or offers another for', () => {
    expectReplies(['Thus the answer is $7$, but this misses a case.', 'Thus the answer is $7$, but $8$ is also possible.', 'The answer is $7$, but $8$ is the answer if we count zero.'], { 7: 'not equal' });
  });
});

describe('the period of "i.e." or "e.g."', () => {
  it('ends no sentence, so a remark after the answer stays a remark', () => {
    // Split there, "…, i.e. about $1.414$." was a sentence of its own whose rounding was the answer: unsure, not equal.
    expectReplies(['So the length is $\\sqrt{2}$, i.e. about $1.414$.', 'So the length is $\\sqrt{2}$, i.e. roughly $1.41$.'], { '\\sqrt2': 'equal', '\\sqrt3': 'different' });
  });

  it('still ends the sentence at a full stop after it', () => {
    expectReplies(['We test small values, e.g. $n = 2$. So the answer is $7$.'], { 7: 'equal', 2: 'different' });
  });
});

describe('the mark a reply closes on after its answer', () => {
  it('is no answer: the end of a proof or a check', () => {
    // Read as the last math, "$\checkmark$" or "$\square$" was the answer: a right 17 graded different, sure of it.
    const marked = ['So $x = 17$ $\\blacksquare$', 'So $x = 17$. $\\blacksquare$', 'We find that $x = 17$. $\\checkmark$', 'We find that $x = 17$. $\\square$', 'Hence $x = 17$. Q.E.D.'];
    expectReplies(marked, { 17: 'equal', 16: 'different' });
  });

  it('keeps an answer the reply closes on without a mark', () => {
    expectReplies(['We find that $x = 17$. ∎', 'We find that the answer is $17$ ✓', 'So the shape is a $\\square$-free graph on $17$ vertices.'], { 17: 'equal' });
  });
});

describe('two quantities, each with its own noun, at the end', () => {
  it('are no one value: the sentence is the answer, for a reader', () => {
    // Read as the last math, the oranges' 3 was the answer: a reference 3 graded equal, sure of it, where the apples
    // may have been asked.
    expectReplies(['So she has $5$ apples and $3$ oranges left.'], { 3: 'unsure', 5: 'unsure' });
  });

  it('keeps a conclusion after them, one noun twice, and values under letters', () => {
    expectReplies(['So she has $5$ apples and $3$ oranges, so $8$ fruits in total.'], { 8: 'equal', 3: 'different' });
    expectReplies(['So we need $3$ steps and $3$ steps more.'], { 3: 'equal' });
    expectReplies(['So $x = 5$ and $y = 3$.'], { '(5, 3)': 'equal', 3: 'different' });
  });
});
