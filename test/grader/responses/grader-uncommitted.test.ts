/**
 * Replies that do not commit to one value: a second value offered as a result as well, a hedge after a value, a value
 * named as a wrong answer. Each is graded never equal to the value it does not commit to, with near misses beside it:
 * the same trigger words in innocent uses ("too large", "as well" of one answer) keep their verdicts. Every case was
 * written for this project.
 */
import { describe, it } from 'vitest';
import { expectReplies } from '../grader-verdicts.ts';

describe('a second value added as a result as well', () => {
  it('makes the reply unsure, never equal to either value', () => {
    // Read as the last math, 15 of "So we get $12$, but $15$ is too." was the answer, graded equal to 15, sure of it.
    expectReplies(
      [
        'We count the cases. So we get $12$, but $15$ is too.',
        'We count the cases. So we get $12$, and $15$ works too.',
        'We count the cases. So we get $12$. But $15$ is also a solution.',
        'We count the cases. So $n = 12$ works, but so does $n = 15$.',
        'We count the cases. So we get $12$, but $15$ is a solution too.',
      ],
      { 12: 'not equal', 15: 'not equal' },
    );
  });

  it('keeps a value whose second is rejected, and one answer joined by a plain "and"', () => {
    expectReplies(['We count the cases. So we get $12$, but $15$ is too large.', 'We count the cases. So we get $12$, but $15$ is too many.'], { 12: 'equal', 15: 'different' });
    expectReplies(['We solve it. Both $x = 1$ and $x = 2$ work too.', 'We solve it. The solutions are $x = 1$ and $x = 2$ as well.'], { '1, 2': 'equal', 1: 'different' });
    expectReplies(['We solve it. We have $a = 3$, and $b = 3$ too.'], { 3: 'equal' });
  });
});

describe('a hedge between plain numbers after an announced answer', () => {
  it('makes the announced answer unsure, as it does between values in mathematics', () => {
    // Reduced to its first number, 40 of "The answer is 40 (not 41), or perhaps 42." was graded equal to 40, sure of it.
    expectReplies(
      ['The answer is 40 (not 41), or perhaps 42.', 'The answer is 40 (not 41); possibly 42.', 'Final answer: 40 (not 41), or maybe 42', 'The answer is 40, or perhaps 42.'],
      { 40: 'not equal', 41: 'not equal', 42: 'not equal' },
    );
  });

  it('keeps a number whose parenthesis only sets another aside, or whose words only restate it', () => {
    expectReplies(
      ['The answer is 40 (not 41).', 'The answer is 40 (not 41), or equivalently 40.0.', 'The answer is 40 (not 41), perhaps surprisingly.', 'The answer is 40 (not 41, as one might think).'],
      { 40: 'equal', 41: 'different', 42: 'different' },
    );
  });
});

describe('a value named as a wrong answer', () => {
  it('is never the answer, after the answer or alone', () => {
    // Read as the last math, 41 was the answer: graded equal to a reference 41, and a right 40 different.
    expectReplies(
      [
        'Computing gives the count. The total is $40$, though $41$ is a tempting wrong answer.',
        'Computing gives the count. The total is $40$. Note that $41$ is a common mistake.',
        'Computing gives the count. So the total is $40$ ($41$ is a tempting wrong answer).',
        'Computing gives the count. The total is $40$; a common wrong answer is $41$.',
        'The answer is 40, though 41 is a tempting wrong answer.',
      ],
      { 40: 'equal', 41: 'different' },
    );
    expectReplies(['Computing gives the count. $41$ is a tempting wrong answer.', 'Computing gives the count. A common wrong answer is 41.'], { 41: 'not equal' });
  });

  it('leaves a value whose words only mention something wrong', () => {
    expectReplies(
      [
        'Computing gives the count. Our guess was wrong, so the total is $40$.',
        'Computing gives the count. The total is $40$, which is not wrong.',
        'Computing gives the count. Hence the answer is $40$, the wrong-looking count.',
        'Computing gives the count. The total is $40$, so the statement about $41$ is false.',
      ],
      { 40: 'equal', 41: 'different' },
    );
    expectReplies(['Computing gives the count. So the error term is $41$.'], { 41: 'equal' });
  });
});

describe('a value for the other case after the answer', () => {
  it('makes the answer unsure, never equal to either value', () => {
    // Reduced to the first value (or, unannounced, the last), the reply's choice between two cases was graded equal.
    expectReplies(
      [
        'We check. Answer: 12 (if rotations count as distinct; otherwise 3).',
        'We check. Answer: $12$ (if rotations count as distinct; otherwise $3$).',
        'We check. The answer is $12$, or else $3$ if reflections are identified.',
        'We check. So the count is $12$ if rotations count as distinct, otherwise $3$.',
        'We check. So the answer is $\\boxed{12}$ (if rotations count as distinct; otherwise 3).',
      ],
      { 12: 'not equal', 3: 'not equal' },
    );
  });

  it('keeps an answer whose "otherwise" gives a reason', () => {
    expectReplies(
      ['We check. Answer: 12 (otherwise the count would double).', 'We check. The answer is $12$, since otherwise two of the $3$ sides coincide.', 'We check. The answer is 12, as otherwise 3 sides coincide.'],
      { 12: 'equal', 3: 'different' },
    );
  });
});

describe('remarks after an answer that offer no other value', () => {
  // Each was graded unsure against its right 12 (and the first, with a wrong reference 13, unsure, not different).
  it('keeps an answer whose "otherwise" names another quantity', () => {
    expectReplies(['We check. So the answer is $\\boxed{12}$ (otherwise the product would be $0$).', 'We check. The answer is $12$ (otherwise the sum would be $0$).'], { 12: 'equal', 13: 'different' });
  });

  it('keeps an answer whose granted or doubted value is settled in the same sentence', () => {
    expectReplies(
      [
        'We check. The answer is $12$. Although $13$ looks plausible at first glance, it fails the second condition.',
        'We check. The answer is $\\boxed{12}$.\n\n(At first I was not sure whether $n = 1$ should be included, but it gives no solution.)',
        'We check. So the answer is $\\boxed{12}$. I was unsure about $n = 0$ initially, but the problem says positive integers.',
      ],
      { 12: 'equal', 13: 'different' },
    );
  });

  it('keeps an answer after "realize", "forgot" or "overlooked" that finds no fault', () => {
    expectReplies(
      [
        'We check. The answer is $12$. I realize the approach in step $2$ was roundabout, but it is correct.',
        'We check. The answer is $12$. I forgot to mention that $n = 1$ trivially works as a base case.',
        'We check. The answer is $12$. (I overlooked nothing: all $3$ cases were covered.)',
      ],
      { 12: 'equal', 13: 'different' },
    );
  });

  it('keeps an answer whose "and up" or "or so" opens a clause of its own', () => {
    expectReplies(['We check. The answer is $12$ and up to symmetry there is one configuration.', 'We check. The answer is $12$ or so I believe, having checked all cases.'], { 12: 'equal', 13: 'different' });
  });

  it('keeps an answer after a denied "overcounted"', () => {
    expectReplies(['We check. The answer is $\\boxed{12}$. We never overcounted: each of the $3$ cases was disjoint.', "We check. The answer is $\\boxed{12}$. We haven't double-counted, since the $2$ orientations were divided out."], { 12: 'equal' });
  });
});

describe('an unannounced answer reopened on a condition', () => {
  it('is unsure, never equal to the conditional value', () => {
    // Read as the last math, the conditional 13 was graded equal to a reference 13, sure of it.
    expectReplies(
      [
        'Let me check.\n\nWe conclude $12$. Hmm, but wait: if $n = 0$ is allowed, it is $13$.',
        'Let me check.\n\nWe conclude $12$. Actually, if we count the empty set, we get $13$.',
        'Let me check.\n\nWe conclude $12$.\n\nWait, if $n = 0$ were allowed we would get $13$, but it is not.',
      ],
      { 12: 'not equal', 13: 'not equal' },
    );
  });

  it('is the correction where the reopening sets no condition', () => {
    expectReplies(['Let me check.\n\nWe conclude $12$. Wait, actually I missed one case: it is $13$.'], { 13: 'equal', 12: 'different' });
  });
});

describe('another value offered after the answer', () => {
  it('reopens the answer: under another reading of the problem, as possible too, or on realising a miscount', () => {
    // Read past, the box or the announcement before each was graded equal to a reference 12, sure of it.
    expectReplies(
      [
        'We work.\n\n$$\\boxed{12}$$\n\nNote: if the problem meant ordered pairs, the answer would be $24$.',
        'We work.\n\nThe answer is $12$. If the balls are distinguishable, the count becomes 24.',
        "We work.\n\nThe answer is $12$. I'm fairly confident, though $13$ is possible.",
        'We work.\n\nThe answer is $\\boxed{12}$. But 13 could also be correct.',
        'We work.\n\nThe answer is 12. But I realize this counts each pair twice, so it is 6.',
      ],
      { 12: 'not equal', 13: 'not equal', 24: 'not equal' },
    );
  });

  it('leaves an answer whose later sentences check it or restate it', () => {
    expectReplies(
      [
        'We work.\n\nThe answer is $\\boxed{12}$. Though $12$ seems large, it is right.',
        'We work.\n\nThe answer is $\\boxed{12}$. If we had $n = 3$, the sum would be $9$.',
        'We work.\n\nThe answer is $\\boxed{12}$. If order matters, the answer would still be $12$.',
      ],
      { 12: 'equal', 13: 'different' },
    );
  });
});

describe('a value stated as a bound', () => {
  it('is never equal to the bound', () => {
    // Reduced to its number, "12 or more" was graded equal to a reference 12, sure of it.
    expectReplies(['We work.\n\nThe answer: 12 or more.', 'We work.\n\nThe answer is $12$ or fewer.', 'We work.\n\nThe answer is 12+.', 'We work.\n\nThe answer is 12 or so.'], { 12: 'not equal' });
  });

  it('leaves a sum and a restatement that only read like one', () => {
    expectReplies(['We work.\n\nThe answer is $12 + 5 = 17$.', 'We work.\n\nThe answer is -2 + 19 = 17.'], { 17: 'equal', 12: 'different' });
  });
});

describe('a doubt after the answer that names another value', () => {
  it('reopens the answer', () => {
    // Read past, the box was graded equal to a reference 12, sure of it.
    expectReplies(["We work.\n\nTherefore, the answer is $\\boxed{12}$.\n\nHowever, I'm unsure whether $13$ should be counted."], { 12: 'not equal', 13: 'not equal' });
  });

  it('leaves a doubt that names no other value', () => {
    expectReplies(["We work.\n\nTherefore, the answer is $\\boxed{12}$.\n\nI'm not sure whether the problem intends this, but $12$ it is."], { 12: 'equal', 13: 'different' });
  });
});

describe('a hedge set off by a dash', () => {
  it('makes the answer unsure, as after a comma', () => {
    // Without the dash among the separators, 12 of "$12$ — or $13$ if we include zero" was graded equal to 12, sure of it.
    expectReplies(
      ['We work.\n\nThe answer is $12$ — or $13$ if we include zero.', 'We work.\n\nThe answer is $12$ – or perhaps $13$.', 'We work.\n\nThe answer is 12 — or 13 if we include zero.', 'We work.\n\nThus $\\boxed{12}$ — or $13$ if we include zero.'],
      { 12: 'not equal', 13: 'not equal' },
    );
    expectReplies(['We work.\n\nThe answer is $12$ — exactly as the $3 \\cdot 4$ grid suggests.', 'We work.\n\nThe answer is $12$ — or, equivalently, $\\frac{24}{2}$.'], { 12: 'equal', 13: 'different' });
  });
});
