/**
 * The grader on each class of failure found on olympiad answers (issue 17),
 * false positives first: a wrong answer graded equal inflates Pass@1 silently.
 * Every case here is written for this project.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer, type GradeOptions, type Verdict } from '../src/grader/index.ts';

type Case = [gold: string, pred: string, options?: GradeOptions];

function expectVerdict(verdict: Verdict, cases: Case[]): void {
  for (const [gold, pred, options] of cases) {
    expect(gradeAnswer(pred, gold, options).verdict, `${pred} against ${gold}`).toBe(verdict);
  }
}

/** Never a false "equal": different or unsure are both acceptable. */
function expectNotEqual(cases: Case[]): void {
  for (const [gold, pred, options] of cases) {
    expect(gradeAnswer(pred, gold, options).equal, `${pred} must not equal ${gold}`).toBe(false);
  }
}

describe('big numbers are compared exactly', () => {
  it('tells an off-by-one apart from a big power, factorial or binomial', () => {
    expectVerdict('different', [
      ['3^{20}', '3486784402'],
      ['2^{31}', '2147483649'],
      ['\\binom{50}{25}', '126410606437753'],
      ['20!', '2432902008176640001'],
      ['7^{15} - 1', '7^{15}'],
      ['\\frac{10^{18}+1}{3}', '333333333333333334'],
      ['(2k-1)!!', '(2k+1)!!'],
    ]);
  });

  it('still equates the same big value written differently', () => {
    expectVerdict('equal', [
      ['3^{20}', '3486784401'],
      ['\\binom{50}{25}', '126410606437752'],
      ['20!', '2432902008176640000'],
      ['2^{64}', '18446744073709551616'],
      ['\\frac{2^{40}}{4}', '2^{38}'],
      ['\\sqrt{\\frac{49}{4}}', '3.5'],
    ]);
  });

  it('does not call a big irrational value equal to a neighbour it cannot tell apart', () => {
    expectNotEqual([
      ['2^{60}\\sqrt{2}', '2^{60}\\sqrt{2} + 1'],
      ['\\pi \\cdot 10^{20}', '\\pi \\cdot 10^{20} + 3'],
    ]);
    expectVerdict('equal', [['\\sqrt{8} \\cdot 10^{15}', '2\\sqrt{2}\\cdot 10^{15}']]);
  });
});

describe('one tolerance rule: relative, with a stated policy for rounded decimals', () => {
  it('never lets a small number pass for another or for zero', () => {
    expectVerdict('different', [
      ['0', '0.0000005'],
      ['0', '10^{-9}'],
      ['1.5\\times10^{-5}', '1.6\\times10^{-5}'],
      ['2.4 \\times 10^{-8}', '2.5 \\times 10^{-8}'],
      ['\\frac{1}{3000000}', '0.0000003'],
      ['0.000012', '0.000013'],
    ]);
  });

  it('accepts a decimal rounded or truncated at enough significant digits', () => {
    expectVerdict('equal', [
      ['\\frac{1}{3000000}', '3.33333\\times 10^{-7}'],
      ['\\frac{2}{3}', '0.666667'],
      ['\\frac{2}{3}', '0.666666'],
      ['\\sqrt{2}', '1.414213'],
      ['12345.6789', '12345.68'],
      ['0.33', '\\frac{1}{3}'],
    ]);
    expectVerdict('different', [
      ['\\frac{2}{3}', '0.6667'],
      ['\\frac{2}{3}', '0.666665'],
      ['12345.6789', '12345.66'],
      ['0.33', '0.3'],
      ['\\pi', '3.1416'],
    ]);
  });

  it('lets the precision option lower the digits required', () => {
    expectVerdict('equal', [['\\frac{2}{3}', '0.6667', { precision: 4 }]]);
    expectVerdict('different', [['\\frac{2}{3}', '0.6667', { precision: 5 }]]);
  });
});

describe('units are stripped only when what is left is a number', () => {
  it('never deletes a letter that is a variable', () => {
    expectVerdict('different', [
      ['3-3k', '0'],
      ['a_1 a_2 t^2', 'a_1 a_2'],
      ['\\frac{1}{3}\\pi r^2 h', '\\frac{1}{3}\\pi r^2'],
      ['7 - 7s', '7'],
    ]);
    expectVerdict('equal', [
      ['3-3k', '3(1-k)'],
      ['a_1 a_2 t^2', 't^2 a_2 a_1'],
    ]);
  });

  it('reads a one-letter unit after a number as unsure, never as equal', () => {
    expectVerdict('unsure', [['6', '6m'], ['6', '6 s']]);
    expectVerdict('different', [['6m', '6'], ['2m', '6m']]);
  });

  it('still strips units of several letters after a number, and words after a value only when they are units', () => {
    expectVerdict('equal', [['45', '45 \\text{ km}'], ['45', '45km'], ['12', '12 \\text{ square units}']]);
    expectNotEqual([['n', 'n \\text{ is odd}']]);
  });

  it('reads degree marks inside an expression', () => {
    expectVerdict('equal', [['90^\\circ - \\theta', '90 - \\theta'], ['120°', '120']]);
    expectVerdict('different', [['90^\\circ - \\theta', '90 + \\theta']]);
  });
});

describe('commas inside brackets separate items', () => {
  it('never reads a tuple or a set as one number', () => {
    expectVerdict('different', [
      ['3125125', '\\left(3,125,125\\right)'],
      ['(3,125,125)', '(3,125,126)'],
      ['\\{4,100,200\\}', '\\{4,100\\}'],
    ]);
    expectVerdict('equal', [
      ['(3,125,125)', '\\left(3,125,125\\right)'],
      ['\\{4,100,200\\}', '\\left\\{200,4,100\\right\\}'],
      ['3125125', '3,125,125'],
    ]);
  });
});

describe('Unicode radicals take their whole argument', () => {
  it('reads √ with every digit after it', () => {
    expectVerdict('different', [['\\sqrt{7}', '√72'], ['2\\sqrt{3}', '2√33']]);
    expectVerdict('equal', [['\\sqrt{72}', '√72'], ['6\\sqrt{2}', '√72'], ['\\sqrt{x+1}', '√(x+1)'], ['\\sqrt[3]{5}', '∛5']]);
  });
});

describe('less frequent notation', () => {
  it('drops a trailing backslash and never equates two empty answers', () => {
    expectVerdict('equal', [['12', '12\\']]);
    expect(gradeAnswer('', '').equal).toBe(false);
  });
});
