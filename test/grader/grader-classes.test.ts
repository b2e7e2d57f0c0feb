/**
 * The grader on each class of failure found on olympiad answers (issue 17),
 * false positives first: a wrong answer graded equal inflates Pass@1 silently.
 * Every case here is written for this project.
 */
import { describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runGradeCommand } from '../../src/cli/tools/grade.command.ts';
import { extractAnswer, gradeAnswer, statedAnswer, type GradeOptions, type Verdict } from '../../src/grader/index.ts';

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
      ['0.000012', '0.000013'],
    ]);
    // One significant digit of \frac{1}{3000000}: an approximation, never equal.
    expectVerdict('unsure', [['\\frac{1}{3000000}', '0.0000003']]);
  });

  it('leaves a decimal that rounds or truncates an exact value to the judge, however many digits it has', () => {
    expectVerdict('unsure', [
      ['\\frac{1}{3000000}', '3.33333\\times 10^{-7}'],
      ['\\frac{2}{3}', '0.666667'],
      ['\\frac{2}{3}', '0.666666'],
      ['\\frac{2}{3}', '0.6667'],
      ['\\sqrt{2}', '1.414213'],
      ['0.333333', '\\frac{1}{3}'],
      ['0.33', '\\frac{1}{3}'],
      ['0.1', '\\frac{1}{7}'],
      ['\\pi', '3.1416'],
    ]);
    expectVerdict('different', [
      ['\\frac{2}{3}', '0.666665'],
      ['2.5', '\\frac{7}{3}'],
    ]);
  });

  it('compares two decimals as written', () => {
    expectVerdict('equal', [['12345.6789', '12345.68']]);
    expectVerdict('different', [
      ['12345.6789', '12345.66'],
      ['0.33', '0.3'],
      ['0.1', '0.14'],
    ]);
  });

  it('lets the precision option lower the digits a decimal needs to round another', () => {
    expectVerdict('equal', [['0.66667', '0.6667', { precision: 4 }]]);
    expectVerdict('different', [['0.66667', '0.6667', { precision: 5 }]]);
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
    expectVerdict('equal', [['45', '45 \\text{ km}'], ['45', '45km'], ['12', '12 \\text{ square units}'], ['12', '12 square meters']]);
    expectNotEqual([['n', 'n \\text{ is odd}']]);
  });

  it('never equates an area with a volume or a length because the unit is plural or unknown', () => {
    // The plural before the power ("yards^2") once hid the unit, and unknown units were compared without their power.
    expectNotEqual([
      ['72 \\text{ yards}^2', '72 \\text{ yards}^3'],
      ['40 \\mbox{ meters}^2', '40 \\mbox{ meters}'],
      ['9 \\text{ miles}', '9 \\text{ miles}^2'],
      ['15 \\text{ square blocks}', '15 \\text{ cubic blocks}'],
      ['15 \\text{ tiles}^2', '15 \\text{ tiles}^3'],
    ]);
    expectVerdict('equal', [
      ['72 \\text{ yards}^2', '72 \\text{ square yards}'],
      ['2 \\text{ feet}^2', '288 \\text{ inches}^2'],
      ['15 \\text{ square blocks}', '15 \\text{ blocks}^2'],
      ['15 \\text{ blocks}', '15'],
    ]);
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

describe('answers with words: qualifiers removed by rule, sets named once', () => {
  it('does not let words hide a different answer', () => {
    expectNotEqual([
      ['n \\text{ is even}', 'odd n'],
      ['\\text{all odd } m', 'm \\text{ is prime}'],
      ['\\emptyset', '\\{0\\}'],
      ['g(x) = 3x + 1 \\text{ for all } x', 'g(x) = 3x - 1 \\text{ for all } x'],
      ['Q(x) = x^2 + d \\text{ for some constant } d', 'Q(x) = x^2'],
      ['y = 2x', 'y = 2x + 2'],
      ['k = 3t + 1', 'k = 3t + 2'],
      ['p = 2q + 1', 'p \\equiv 1 \\pmod 2'],
    ]);
  });

  it('reads a residue form whose parameter ranges over every integer as its class', () => {
    // "n = 2k+1, k \in \mathbb{Z}" was no class: different from "all odd integers", sure of it.
    expectVerdict('equal', [
      ['\\text{all odd integers}', 'n = 2k+1, k \\in \\mathbb{Z}'],
      ['\\text{all even integers}', 'n = 2k, k \\in \\mathbb{Z}'],
      ['n \\equiv 3 \\pmod 4', 'n = 4k+3, k \\in \\mathbb{Z}'],
    ]);
    expectVerdict('different', [
      ['\\text{all even integers}', 'n = 2k+1, k \\in \\mathbb{Z}'],
      ['n \\equiv 3 \\pmod 4', 'n = 4k+1, k \\in \\mathbb{Z}'],
    ]);
    // Over \mathbb{N} the parameter is bounded: not every odd integer.
    expect(gradeAnswer('n = 2k+1, k \\in \\mathbb{N}', '\\text{all odd integers}').verdict).not.toBe('equal');
  });

  it('reads a family whose parameter ranges over the same set under another letter as the same family', () => {
    // "… + n\pi, n \in \mathbb{Z}" against "… + k\pi, k \in \mathbb{Z}" was different, sure of it.
    expectVerdict('equal', [
      ['x = \\frac{\\pi}{4} + k\\pi, k \\in \\mathbb{Z}', 'x = \\frac{\\pi}{4} + n\\pi, n \\in \\mathbb{Z}'],
      ['x = 2k\\pi \\pm \\frac{\\pi}{3}, k \\in \\mathbb{Z}', 'x = \\pm\\frac{\\pi}{3} + 2m\\pi, m \\in \\mathbb{Z}'],
      ['n = 3k + 1, k \\in \\mathbb{N}', 'n = 3j + 1, j \\in \\mathbb{N}'],
    ]);
    expectVerdict('different', [
      // Every other member of the family, a shifted one, and a parameter that also stands free in pred.
      ['x = \\frac{\\pi}{4} + k\\pi, k \\in \\mathbb{Z}', 'x = \\frac{\\pi}{4} + 2n\\pi, n \\in \\mathbb{Z}'],
      ['x = \\frac{\\pi}{4} + k\\pi, k \\in \\mathbb{Z}', 'x = \\frac{\\pi}{2} + n\\pi, n \\in \\mathbb{Z}'],
      ['x = \\frac{\\pi}{4} + k\\pi, k \\in \\mathbb{Z}', 'x = \\frac{k\\pi}{4} + n\\pi, n \\in \\mathbb{Z}'],
    ]);
    // Over another set the ranges differ: not known to be the same family.
    expect(gradeAnswer('x = \\frac{\\pi}{4} + n\\pi, n \\in \\mathbb{N}', 'x = \\frac{\\pi}{4} + k\\pi, k \\in \\mathbb{Z}').verdict).not.toBe('equal');
    // A reference that names its parameter without a range: its one letter pred lacks is taken for it, and the range stated on one side only leaves it unsure.
    expectVerdict('unsure', [['\\frac{\\pi}{4} + k\\pi', 'x = \\frac{\\pi}{4} + n\\pi, n \\in \\mathbb{Z}']]);
    expectVerdict('different', [['\\frac{\\pi}{4} + k\\pi', 'x = \\frac{\\pi}{4} + 2n\\pi, n \\in \\mathbb{Z}']]);
    // Words that differ in one such letter ("Evelyn", "Evelyk") rename nothing: the rule called itself until the stack ran out, and `tmas grade` stopped.
    expectVerdict('different', [['\\text{Evelyn}', '\\text{Evelyk}'], ['\\text{polynomial}', '\\text{polykomial}']]);
  });

  it('reads the range in a parenthesis or after "where" as the range after a comma', () => {
    // The same range written otherwise was still no class: different from "all odd integers", sure of it, or unsure.
    expectVerdict('equal', [
      ['\\text{all odd integers}', 'n = 2k+1 \\; (k \\in \\mathbb{Z})'],
      ['\\text{all odd integers}', 'n = 2k+1\\ (k\\in\\mathbb Z)'],
      ['n \\equiv 3 \\pmod 4', 'n = 4k+3, \\text{ where } k \\in \\mathbb{Z}'],
    ]);
    expect(gradeAnswer('n = 2k+1 (k \\in \\mathbb{N})', '\\text{all odd integers}').verdict).not.toBe('equal');
  });

  it('equates the same set in words and in symbols', () => {
    expectVerdict('equal', [
      ['m \\text{ is even}', 'even m'],
      ['\\text{all even } m', 'm \\equiv 0 \\pmod 2'],
      ['\\text{odd } k', 'k = 2j + 1'],
      ['\\text{no solutions}', '\\varnothing'],
      ['\\text{none}', '\\emptyset'],
      ['k \\equiv 2 \\pmod 5', 'k = 5t + 2'],
      ['k \\equiv 2 \\pmod 5', 'k = 5t - 3'],
    ]);
  });

  it('reads a labelled form as its formula too, and a bare form as a class only by a guess', () => {
    // "q = 3t + 2" is the class 2 mod 3 and also the formula 3t + 2; a bare "3t + 2" may be either.
    expectVerdict('equal', [
      ['3t + 2', 'q = 3t + 2'],
      ['q = 3t + 2', '3t + 2'],
      ['q = 3t + 2', 'q = 3t - 1'],
    ]);
    expectVerdict('unsure', [
      ['q \\equiv 2 \\pmod 3', '3t + 2'],
      ['3t + 2', 'q \\equiv 2 \\pmod 3'],
      ['3t + 2', 'q = 3t + 5'],
    ]);
    expectVerdict('different', [
      ['3t + 2', 'q = 3t + 1'],
      ['q \\equiv 2 \\pmod 3', '3t + 1'],
      ['3t + 2', '3t + 5'],
      ['q = 3t + 2', 'q = 6t + 2'],
    ]);
  });

  it('removes qualifiers that do not change the answer', () => {
    expectVerdict('equal', [
      ['g(x) = 3x + 1', 'g(x) = 3x + 1 \\text{ for all } x'],
      ['g(x) = 3x + 1', 'g(x) = 3x + 1 \\quad \\forall x \\in \\mathbb{R}'],
      ['Q(x) = x^2 + d', 'Q(x) = x^2 + d \\text{ for some constant } d'],
      ['Q(x) = x^2 + d', 'Q(x) = x^2 + d, \\; d \\in \\mathbb{R}'],
      ['Q(x) = x^2 + d \\text{ where } d \\text{ is a real constant}', 'Q(x) = x^2 + d'],
    ]);
  });

  it('keeps qualifiers that carry the answer, and calls the rest unsure', () => {
    expectNotEqual([['x = 2k\\pi \\text{ for some integer } k', 'x = 2k\\pi']]);
    expectVerdict('unsure', [['1 \\text{ if } n \\text{ is even, otherwise } 0', '1']]);
  });
});

describe('functions up to renaming', () => {
  it('does not accept a renamed function that is wrong', () => {
    expectVerdict('different', [
      ['h(t) = t^2 + 1', 'h(s) = s^2 - 1'],
      ['h(t) = t^2 + 1', 'h(s) = (s+1)^2 + 1'],
      ['h(t) = t + c', 'h(s) = c'],
      ['h(x) = ax + b', 'h(x) = ax'],
    ]);
  });

  it('renames the bound variable and free constants', () => {
    expectVerdict('equal', [
      ['h(t) = t^2 + 1', 'h(s) = s^2 + 1'],
      ['h(x) = kx^3', 'h(x) = Kx^3'],
      ['x^3 + K', 'x^3 + k'],
      ['d(x+2)^2(x-3)', 'b(x+2)^2(x-3)'],
      ['T(a, b) = a - b', 'T(u, v) = u - v'],
    ]);
  });

  it('pairs the arguments by position, not by name', () => {
    // The same formula under swapped arguments is another function: W(u, v) = u is not W(v, u) = u.
    expectVerdict('different', [
      ['W(u, v) = u', 'W(v, u) = u'],
      ['W(u, v) = 2u - v', 'W(v, u) = 2u - v'],
    ]);
    expectVerdict('equal', [
      ['W(u, v) = u', 'W(v, u) = v'],
      ['W(u, v) = u v + 1', 'W(v, u) = u v + 1'],
      ['W(u, v) = 2u - v', 'W(s, t) = 2s - t'],
    ]);
  });

  it('never takes a statement of the function elsewhere than at its variable for its formula', () => {
    // h(3t) = t + 4 is h(t) = t/3 + 4; h(5) = 1 is a value at 5, not at 6.
    expectNotEqual([
      ['h(t) = t + 4', 'h(3t) = t + 4'],
      ['h(t) = t + 4', 'h(t - 1) = t + 4'],
      ['h(t) = t^3', 'h(-t) = t^3'],
      ['t + 4', 'h(3t) = t + 4'],
      ['h(t) = 7, h(t) = t + 4', 'h(3t) = 7, h(t) = t + 4'],
      ['h(t) = 7, h(t) = t + 4', 'h(3t) = t + 4, h(t) = 7'],
    ]);
    expectVerdict('different', [
      ['h(5) = 1', 'h(6) = 1'],
      ['h(5) = 1, h(6) = 2', 'h(5) = 2, h(6) = 1'],
    ]);
    expectVerdict('equal', [
      ['h(5) = 1', 'h(5) = \\frac{3}{3}'],
      ['1', 'h(5) = 1'],
      ['h(5) = 1', '1'],
      ['h(5) = 1, h(6) = 2', 'h(6) = 2, h(5) = 1'],
      ['h(5) = 1, h(6) = 2', '1, 2'],
    ]);
  });

  it('is unsure when only a renaming of bare letters makes two expressions meet', () => {
    expectVerdict('unsure', [['3a', '3b'], ['h(t) = t^2 + 1', 's^2 + 1']]);
    expectVerdict('different', [['h(t) = t^2 + 1', 's^2 - 1']]);
    expectVerdict('different', [['R - 3r', 'r - 3R'], ['3R', '3r'], ['2x + y', '2x + z'], ['h(x) = x + y', 'h(x) = x + z']]);
  });
});

describe('relations, intervals and sets in one normal form', () => {
  it('equates an inequality with its interval both ways', () => {
    expectVerdict('equal', [
      ['y \\ge -\\frac{7}{3}', '[-\\frac{7}{3}, \\infty)'],
      ['[-\\frac{7}{3}, \\infty)', 'y \\ge -\\frac{7}{3}'],
      ['t < \\frac{5}{4}', '(-\\infty, 1.25)'],
    ]);
    expectVerdict('different', [['y \\ge -\\frac{7}{3}', '(-\\frac{7}{3}, \\infty)']]);
  });

  it('reads a label before a union as naming the whole union', () => {
    // "t = (1, 4) \\cup (4, 8)" was split at the union first, leaving "t = (1, 4)" as one part.
    expectVerdict('equal', [
      ['(1, 4) \\cup (4, 8)', 't = (1, 4) \\cup (4, 8)'],
      ['(1, 4) \\cup (4, 8)', 't \\in (1, 4) \\cup (4, 8)'],
      ['t = (1, 4) \\cup (4, 8)', 't \\in (4, 8) \\cup (1, 4)'],
      ['[-3, -1] \\cup \\{5\\}', 'y = [-3, -1] \\cup \\{5\\}'],
    ]);
    expectVerdict('different', [
      ['(1, 4) \\cup (4, 8)', 't = (1, 4) \\cup (4, 9)'],
      ['(1, 4) \\cup (4, 8)', 't = (1, 4]  \\cup (4, 8)'],
      ['[-3, -1] \\cup \\{5\\}', 'y = [-3, -1] \\cup \\{6\\}'],
    ]);
  });

  it('reads set differences and named sets of numbers', () => {
    expectVerdict('equal', [
      ['\\mathbb{R} \\setminus \\{2\\}', '(-\\infty, 2) \\cup (2, \\infty)'],
      ['[0, 3] \\setminus \\{1\\}', '[0, 1) \\cup (1, 3]'],
      ['\\mathbb{Z}_{>0}', '\\text{all positive integers}'],
    ]);
    expectVerdict('different', [
      ['\\mathbb{R} \\setminus \\{2\\}', '(-\\infty, 2) \\cup (2, 3)'],
      ['[0, 3] \\setminus \\{1\\}', '[0, 3]'],
    ]);
  });
});

describe('floor and ceiling are sampled at integers too', () => {
  it('tells neighbouring floors apart', () => {
    expectVerdict('different', [
      ['\\lfloor \\frac{q}{7} \\rfloor', '\\lfloor \\frac{q}{6} \\rfloor'],
      ['\\lceil \\frac{m}{5} \\rceil', '\\lfloor \\frac{m}{5} \\rfloor + 1'],
      ['\\lfloor \\frac{m+1}{3} \\rfloor', '\\lfloor \\frac{m}{3} \\rfloor'],
      ['g(x) = \\lfloor x \\rfloor', 'g(x) = x'],
    ]);
    expectVerdict('equal', [['\\lfloor m \\rfloor + 1', '\\lfloor m + 1 \\rfloor'], ['\\lceil \\frac{m}{3} \\rceil', '-\\lfloor -\\frac{m}{3} \\rfloor']]);
  });
});

describe('mixed numbers, choice letters, the gamma function', () => {
  it('reads them as people write them', () => {
    expectVerdict('equal', [
      ['\\frac{9}{4}', '2 1/4'],
      ['B, E', 'BE'],
      ['(B) \\text{ and } (E)', 'B, E'],
      ['(d)', 'D'],
      ['\\Gamma(m+1)', 'm!'],
    ]);
    expectVerdict('different', [['\\frac{9}{4}', '2 1/5'], ['B, E', 'B'], ['\\Gamma(m+1)', '(m+1)!']]);
  });

  it('reads a choice letter in \\mathrm and an answer inside a bare group as written without them', () => {
    expectVerdict('equal', [
      ['\\text{(D)}', '\\mathrm{(D)}'],
      ['m \\text{ is even}', '{even $m$}'],
      ['m = 6j + 5', '{m = 6j+5}'],
      ['\\text{no such } m', '{\\text{none}}'],
      ['17', '{{17}}'],
    ]);
    expectVerdict('different', [
      ['\\text{(D)}', '\\mathrm{(A)}'],
      ['m \\text{ is even}', '{odd $m$}'],
      ['m = 6j + 5', '{m = 6j+1}'],
      ['17', '{{18}}'],
    ]);
  });
});

describe('one extraction for runs and for tmas grade', () => {
  it('reads unannounced bare mathematics at run time, and nothing from prose without mathematics', () => {
    expect(extractAnswer('y = -4')).toBe('y = -4');
    expect(extractAnswer('$\\frac{3}{7}$')).toBe('\\frac{3}{7}');
    expect(extractAnswer('We simplify the sum.\n\nThe value is $27$.')).toBe('27');
    expect(extractAnswer('Final Answer: $\\frac{3}{7}$')).toBe('\\frac{3}{7}');
    expect(extractAnswer('I could not finish the count of the cases here.')).toBeNull();
  });

  it('reads an announcement set in bold or in \\text without the brace that closes it', () => {
    const graded = (response: string, gold: string): Verdict => gradeAnswer(extractAnswer(response), gold).verdict;
    expect(graded('Counting the tilings.\n\n\\textbf{Final Answer:} 41', '41')).toBe('equal');
    expect(graded('\\text{Answer: } \\frac{5}{9}', '\\frac59')).toBe('equal');
    expect(graded('\\textbf{Answer:} $(2, 7)$', '(2, 7)')).toBe('equal');
    expect(graded('\\textbf{Final Answer:} 40', '41')).toBe('different');
    expect(graded('\\textbf{Answer:} $(7, 2)$', '(2, 7)')).toBe('different');
  });

  it('grades a saved response through the CLI as a run would, and keeps a bare answer as it is', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tmas-grade-classes-'));
    try {
      const file = path.join(dir, 'rows.jsonl');
      await writeFile(file, [
        JSON.stringify({ gold: '\\frac{3}{7}', pred: 'Counting the paths gives the ratio.\nFinal Answer: $\\frac{6}{14}$' }),
        JSON.stringify({ gold: 'm \\text{ is even}', pred: 'm is even' }),
        JSON.stringify({ gold: '1 \\text{ if } n \\text{ is even, otherwise } 0', pred: '1' }),
      ].join('\n'));
      const lines: string[] = [];
      expect(await runGradeCommand({ jsonl: file }, { stdout: (l) => lines.push(l) })).toBe(0);
      expect(lines.slice(0, 3).map((l) => (JSON.parse(l) as { verdict: string }).verdict)).toEqual(['equal', 'equal', 'unsure']);
      expect(lines[3]).toBe('unsure: 1');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(statedAnswer('The result is $12$.')).toBe('12');
    const out: string[] = [];
    expect(await runGradeCommand({ gold: '1 \\text{ if } n \\text{ is even, otherwise } 0', pred: '1' }, { stdout: (l) => out.push(l) })).toBe(2);
    expect(out[0]).toBe('unsure');
  });
});
