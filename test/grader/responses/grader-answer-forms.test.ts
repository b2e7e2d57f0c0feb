/**
 * Answer forms a held-out grader set holds: a closing sentence that only says a case can be checked, and others
 * added below. Every case was written for this project; each rule is shown with its near misses.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer, type Verdict } from '../../../src/grader/index.ts';
import { expectReplies, verdictOf } from '../grader-verdicts.ts';

/** The verdict a run gives a reply to `question`. */
function verdictAsked(response: string, gold: string, question: string): Verdict {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response, question }).verdict;
}

describe('a sentence after the answer that says a case of it is easy to check', () => {
  it('leaves the answer before it, never the case', () => {
    // "Actually" with "when" was read as a reopening on a condition and the case's 3 as the answer: unsure both ways.
    expectReplies(
      [
        'So we get $9$. Actually, when $n = 3$ this is also easy to verify directly.',
        'So we get $9$. When $n = 3$ this is also easy to verify directly.',
        'So we get $9$. Actually, this is also easy to verify directly when $n = 3$.',
        'So we get $9$. For $n = 3$ one can check this by hand.',
      ],
      { 9: 'equal', 10: 'different', 3: 'different' },
    );
  });

  it('still reads a value the sentence states under its condition', () => {
    expectReplies(['So we get $9$. Actually, if $n = 3$ the count is $10$.', 'We conclude $12$. Hmm, but wait: if $n = 0$ is allowed, it is $13$.'], {
      9: 'not equal',
      10: 'not equal',
      12: 'not equal',
      13: 'not equal',
    });
    expectReplies(['So we get $9$. For $n = 3$ we get $10$, which is easy to check.'], { 9: 'not equal' });
  });
});

describe('a last sentence that names two quantities, each in its clause', () => {
  const both = ['The largest is $13$ and the smallest is $12$.', 'The largest value is $13$, and the smallest value is $12$.', 'The maximum is $13$ and the minimum is $12$.'];

  it('is unsure without a question, which alone says which was asked', () => {
    // Read as its last clause, the smallest 12 was graded equal to a reference 12, sure of it.
    expectReplies(both, { 12: 'unsure', 13: 'unsure' });
    expectReplies(['The area is $12$ and the perimeter is $14$.'], { 14: 'unsure', 12: 'unsure' });
    // A clause that names the answer concludes; values that agree name one answer; a first clause that leads on is none.
    expectReplies(['The sum is $5$ and the answer is $7$.'], { 7: 'equal', 5: 'different' });
    expectReplies(['We find $x = 3$ and so $y = 4$, and the product is $xy = 12$.'], { 12: 'equal' });
    expectReplies(['The volume is $64$ cubic units; the side is $4$.'], { 64: 'equal', 4: 'different' });
  });

  it('is unsure without a question where the two ends of a range are joined by a semicolon or in two sentences', () => {
    // Read as the first clause (the rest a remark on it) or as the last sentence, one end was graded, sure of it.
    expectReplies(['The largest is $13$; the smallest is $12$.', 'The minimum is $12$. The maximum is $13$.'], { 12: 'unsure', 13: 'unsure' });
    expectReplies(['The minimum value is $5$. The maximum value is $5$.'], { 5: 'equal', 6: 'different' });
    expect(verdictAsked('The minimum is $12$. The maximum is $13$.', '13', 'Find the maximum of $f$.')).toBe('equal');
  });

  it('is the one the question names, or both in the order it asks for them', () => {
    for (const response of both.slice(0, 2)) {
      expect(verdictAsked(response, '12', 'Find the smallest possible value of $n$.'), response).toBe('equal');
      expect(verdictAsked(response, '13', 'Find the smallest possible value of $n$.'), response).toBe('different');
      // Read as its last clause, 12 alone was graded different from the right (12, 13), sure of it.
      expect(verdictAsked(response, '(12, 13)', 'Find the smallest and the largest possible values of $n$.'), response).toBe('equal');
      expect(verdictAsked(response, '(13, 12)', 'Find the smallest and the largest possible values of $n$.'), response).toBe('different');
      expect(verdictAsked(response, '(13, 12)', 'Find the largest and the smallest possible values of $n$.'), response).toBe('equal');
    }
  });
});

describe('values given "respectively"', () => {
  it('are the list in its order', () => {
    // "respectively" was a third item, a word: the right pair was graded different from (12, 13), sure of it.
    for (const pred of ['12 and 13, respectively', '12, 13, respectively', '$12$ and $13$, respectively', '12 and 13, in that order']) {
      expect(verdictOf(pred, '(12, 13)'), pred).toBe('equal');
      expect(verdictOf(pred, '(13, 12)'), pred).toBe('different');
      expect(verdictOf(pred, '(12, 14)'), pred).toBe('different');
    }
    expect(verdictOf('13 and 12, respectively', '(12, 13)')).toBe('different');
    const question = 'Find the smallest and the largest possible values of $n$.';
    expect(verdictAsked('So the smallest and largest values are $12$ and $13$, respectively.', '(12, 13)', question)).toBe('equal');
    expect(verdictAsked('So the smallest and largest values are $13$ and $12$, respectively.', '(12, 13)', question)).toBe('different');
  });

  it('are read in prose too, closing the reply', () => {
    // With no math and two numbers, the sentence was no answer: unsure against the right (12, 13).
    const prose = 'We compute both. The smallest and largest values of $n$ are 12 and 13, respectively.';
    expectReplies([prose, 'The smallest and largest values are 12, 13 respectively.'], { '(12, 13)': 'equal', '(13, 12)': 'different', '(12, 14)': 'different' });
    // Without "respectively", or without its full stop (a reply cut there), the sentence stays a reader's.
    expectReplies(['The smallest and largest values are 12 and 13.', 'The two roots are 2 and 3, respectively'], { '(12, 13)': 'not equal', '2, 3': 'not equal' });
  });
});

describe('an unannounced answer restated in another notation', () => {
  it('is the answer, checked against its restatement', () => {
    // Read as a list, "$\frac{1}{16}$, or $0.0625$ as a decimal" was two values: unsure against the right 1/16, and a
    // restatement that is no rounding of it (0.07) was different, sure of it.
    const right = ['So the probability is $\\frac{1}{16}$, or $0.0625$ as a decimal.', 'So the probability is $\\frac1{16}$ — or $0.06$ as a decimal.', 'Hence we get $\\frac{1}{16}$, or $0.063$ as a decimal.'];
    expectReplies(right, { '\\frac{1}{16}': 'equal', '0.0625': 'equal', '\\frac{1}{15}': 'different', '\\frac{1}{8}': 'different' });
    expectReplies(['So the probability is $\\frac{2}{3}$, or $0.67$ as a decimal.'], { '\\frac{2}{3}': 'equal', '\\frac{1}{3}': 'different' });
    // A restatement that is neither the value nor it rounded: the reply states two values, which only a reader settles.
    expectReplies(['So the probability is $\\frac{1}{16}$, or $0.07$ as a decimal.', 'So the probability is $\\frac{1}{16}$, or $0.6$ as a decimal.'], {
      '\\frac{1}{16}': 'unsure',
    });
    // A wrong answer restated stays wrong; a hedge ("or perhaps") is no restatement.
    expectReplies(['So the probability is $\\frac{1}{15}$, or $0.07$ as a decimal.'], { '\\frac{1}{16}': 'different', '\\frac{1}{15}': 'equal' });
    expectReplies(['So the probability is $\\frac{1}{16}$, or perhaps $0.07$.'], { '\\frac{1}{16}': 'not equal' });
  });
});

describe('a set against a list where the question names a form', () => {
  const question = 'For a positive integer $n$, let $m$ be the exponent of $2$ in the prime factorization of $n$. Find all positive integers $v$ with this property.';
  const simplest = 'Find all solutions of the equation. Express your answers in simplest form.';

  it('is the same form: braces change nothing a question asks for', () => {
    // The set and the list had different form keys: the right set was unsure against the reference list.
    expect(verdictAsked('So the answer is $\\boxed{\\{1, 3, 5\\}}$.', '$1,3,5$', question)).toBe('equal');
    expect(verdictAsked('So the answer is $\\boxed{1, 3, 5}$.', '\\{1, 3, 5\\}', question)).toBe('equal');
    expect(verdictAsked('So the answer is $\\boxed{\\{1, 3\\}}$.', '$1,3,5$', question)).toBe('different');
    expect(verdictAsked('So the answer is $\\boxed{\\{\\frac{1}{2}, 1\\}}$.', '\\frac12, 1', simplest)).toBe('equal');
    // An item in another form than the one asked still leaves it to a reader.
    expect(verdictAsked('So the answer is $\\boxed{\\{\\frac{2}{4}, 1\\}}$.', '\\frac12, 1', simplest)).toBe('unsure');
  });
});

describe('a value a Chinese concluding sentence states', () => {
  it('is the answer: what 一共有, 了 or "=" reaches after 所以 or 因此, and a short line that 为 closes', () => {
    // Read as no answer (or the whole line as bare mathematics), each right count was unsure.
    expectReplies(
      ['小红先买了5个苹果，又买了7个。所以她一共买了12个苹果。', '先算两组：4只和8只。所以一共有4 + 8 = 12只小鸟。', '每盒6支，共2盒。因此，老师一共有**12支**铅笔。', '所以，他们一共赚了12美元。'],
      { 12: 'equal', 13: 'different', 4: 'different' },
    );
    expectReplies(['这个班男生和女生的比例为5/7'], { '\\frac{5}{7}': 'equal', '\\frac{7}{5}': 'different' });
  });

  it('is no answer where no verb states it, or where the reply may be cut before its full stop', () => {
    expectReplies(['每分钟流出4升。因此，水池将在12分钟内被放完。', '小红先买了5个苹果，又买了7个。所以她一共买了12个苹果'], { 12: 'not equal' });
  });
});

describe('a numeral in another base, written other ways', () => {
  it('is the numeral: its base in parentheses or in \\text, or left off', () => {
    // "52_{(8)}", "(52)_8" and "52_\text{8}" were unsure against 52_8, and "52", the digits asked for, different.
    for (const pred of ['52_{(8)}', '(52)_8', '52_\\text{8}', '52_{\\text{8}}', '52']) {
      expect(verdictOf(pred, '52_8'), pred).toBe('equal');
      expect(verdictOf(pred.replace('52', '53'), '52_8'), pred).toBe('different');
    }
    expectReplies(['Converting, we get $\\boxed{2516_{(8)}}$.', 'Converting, we get $\\boxed{2516}$.'], { '2516_8': 'equal', '2517_8': 'different' });
    // The value in base ten is not the numeral asked for, nor the digits another base's.
    expect(verdictOf('42', '52_8')).toBe('unsure');
    expect(verdictOf('52_8', '52')).toBe('different');
    expect(verdictOf('520', '52_8')).toBe('different');
  });
});

describe('a degree sign set in \\text', () => {
  it('is the degree sign', () => {
    // "72\text{°}" was cut at its \text: unsure against the right 72.
    expectReplies(['So the angle is $\\boxed{72\\text{°}}$.', 'So the angle is $\\boxed{72\\textdegree}$.'], { 72: 'equal', '72^\\circ': 'equal', 73: 'different' });
  });
});

describe('a percent sign where the question asks for a percentage', () => {
  const question = 'What percent of the students in the class are girls?';

  it('answers the number of percent its reference gives', () => {
    // Read as its value 0.25, or as a guess at 25, "25\%" was unsure against the reference 25.
    for (const response of ['So the answer is $\\boxed{25\\%}$.', 'So the answer is $\\boxed{25 \\text{ percent}}$.', 'Thus $25\\%$ of the class are girls.']) {
      expect(verdictAsked(response, '25', question), response).toBe('equal');
      expect(verdictAsked(response, '26', question), response).toBe('different');
    }
    expect(verdictAsked('So the answer is $\\boxed{2.5\\%}$.', '25', question)).toBe('different');
    // Its value still answers a reference written as one, and without a question 25 may be a count: a guess.
    expect(verdictAsked('So the answer is $\\boxed{25\\%}$.', '0.25', question)).toBe('equal');
    expect(verdictAsked('So the answer is $\\boxed{25\\%}$.', '25', 'How many students in the class are girls?')).toBe('unsure');
    expect(verdictOf('25\\%', '25')).toBe('unsure');
    // A percentage the statement only describes asks for none: a grade 12 answered "12%" stays a guess.
    const grade = 'The table shows the percent of bus riders in each grade. For which grade is the number of male riders largest?';
    expect(verdictAsked('So the answer is $\\boxed{12\\%}$.', '12', grade)).toBe('unsure');
    expect(verdictAsked('So the answer is $\\boxed{12\\%}$.', '12', 'By what percent did the price rise? Express your answer as a percentage.')).toBe('equal');
  });
});

describe('a fraction written as a coefficient where the question asks for a form', () => {
  const radical = 'What is the area of the triangle? Express your answer as a common fraction in simplest radical form.';

  it('is the same form as the one fraction', () => {
    // Keyed apart, "\frac{3}{4}\sqrt{3}" was unsure against "\frac{3\sqrt{3}}{4}" under "simplest radical form".
    for (const pred of ['\\frac{3}{4}\\sqrt{3}', '\\sqrt{3} \\cdot \\frac{3}{4}', '3\\sqrt{3}/4']) {
      expect(verdictAsked(`So the area is $\\boxed{${pred}}$.`, '\\frac{3\\sqrt{3}}{4}', radical), pred).toBe('equal');
    }
    expect(verdictAsked('So the area is $\\boxed{\\frac{1}{3}\\sqrt{3}}$.', '\\frac{\\sqrt{3}}{3}', radical)).toBe('equal');
    // A fraction in a group of braces is a factor as any other: "{1 \over n}" as "\frac{1}{n}".
    const asFunction = 'Express the maximum value as a function of $n$.';
    expect(verdictAsked('So it is $\\boxed{{1 \\over n}4\\cos^{2}{\\pi \\over 2n}}$.', '\\frac{1}{n}4\\cos^{2}\\frac{\\pi}{2n}', asFunction)).toBe('equal');
    expect(verdictAsked('So the area is $\\boxed{\\frac{3}{4}\\sqrt{3}}$.', '\\frac{3\\sqrt{3}}{2}', radical)).toBe('different');
    // Another form of the value is still for a reader: a root left in the denominator, a fraction not in lowest terms.
    expect(verdictAsked('So the area is $\\boxed{\\frac{1}{\\sqrt{3}}}$.', '\\frac{\\sqrt{3}}{3}', radical)).toBe('unsure');
    expect(verdictAsked('So the area is $\\boxed{\\frac{6}{8}\\sqrt{3}}$.', '\\frac{3\\sqrt{3}}{4}', radical)).toBe('unsure');
  });
});

describe('a point joined to inequalities in its letter', () => {
  it('is one more piece of the set they describe', () => {
    // Read as a list of two answers, "x < 0 or x = \frac12" was graded different from the right set, sure of it.
    for (const pred of ['x < 0 \\text{ or } x = \\frac{1}{2}', 'x < 0, x = \\frac12', 'x = 0.5 or x < 0']) {
      expect(verdictOf(pred, '(-\\infty,0)\\cup\\{\\frac{1}{2}\\}'), pred).toBe('equal');
      expect(verdictOf(pred, '(-\\infty,0]\\cup\\{\\frac{1}{2}\\}'), pred).toBe('different');
      expect(verdictOf(pred, '(-\\infty,0)\\cup\\{\\frac{1}{3}\\}'), pred).toBe('different');
    }
    expect(verdictOf('x > 0 \\text{ or } x = 0', '[0, \\infty)')).toBe('equal');
    // "and" asks both at once, another letter is another unknown, and equations alone are a list of solutions.
    expect(verdictOf('x < 0 \\text{ and } x = \\frac12', '(-\\infty,0)\\cup\\{\\frac{1}{2}\\}')).not.toBe('equal');
    expect(verdictOf('x < 0 \\text{ or } y = \\frac12', '(-\\infty,0)\\cup\\{\\frac{1}{2}\\}')).not.toBe('equal');
    expect(verdictOf('x = 1, x = 2', '1, 2')).toBe('equal');
  });
});

describe('an endless progression against a residue class', () => {
  it('is the class it lists from its least positive member', () => {
    // Read as a list, "2, 4, 6, \ldots" was graded different from "even n", sure of it.
    expectReplies(['So the answer is $\\boxed{2, 4, 6, \\ldots}$.', 'So $n$ can be $\\boxed{2, 4, 6, 8, \\dots}$.'], { 'even $n$': 'equal', 'odd $n$': 'different', 'n = 2k': 'equal' });
    expectReplies(['So the answer is $\\boxed{3, 7, 11, \\ldots}$.'], { '$n=4k+3$': 'equal', '$n=4k+1$': 'different' });
    // A progression that leaves out the class's first members, or is none, is another set.
    for (const pred of ['4, 6, 8, \\ldots', '2, 4, 7, \\ldots', '2, 4, 6']) expect(verdictOf(pred, 'even $n$'), pred).toBe('different');
    expect(verdictOf('1, 2, \\ldots, 1235', '1, 2, \\ldots, 1235')).toBe('equal');
  });
});

describe('a case said to be easy to check after a boxed or announced answer', () => {
  it('reopens nothing', () => {
    // Read as a reopening ("Actually" and then mathematics), a right boxed 10 was unsure, a wrong 9 unsure, not different.
    expectReplies(
      ['So we get $\\boxed{10}$. Actually, when $n = 3$ this is also easy to verify directly.', 'The answer is $10$. Actually, when $n = 3$ this is also easy to verify directly.'],
      { 10: 'equal', 9: 'different', 3: 'different' },
    );
    // A value beyond the case, or a fault found in it, still reopens the answer.
    expectReplies(
      ['So we get $\\boxed{10}$. Actually, when $n = 3$ we get $11$.', 'So we get $\\boxed{10}$. Wait, for $n = 3$ it fails.', 'So we get $\\boxed{10}$. Actually, I made an error when $n = 3$.'],
      { 10: 'unsure' },
    );
  });
});

describe('a box set in another box', () => {
  it('is that box, where it is all of the box around it', () => {
    // Read as a box that is only part of the value around it, "$\boxed{\boxed{16}}$" was unsure against the right 16.
    expectReplies(['So the answer is $\\boxed{\\boxed{16}}$.', 'So the answer is $\\fbox{\\boxed{16}}$.'], { 16: 'equal', 17: 'different' });
    // A box that is part of the value still leaves the value to a reader.
    expectReplies(['So the answer is $-\\boxed{\\boxed{5}}$.', 'So the answer is $\\boxed{\\boxed{5}\\sqrt{2}}$.', 'So the answer is $\\boxed{\\boxed{5}}\\sqrt{2}$.'], { 5: 'unsure' });
  });
});
