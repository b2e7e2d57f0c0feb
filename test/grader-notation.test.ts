/**
 * The grader on spellings that models write and that it once graded wrong
 * and sure of it: each class with the near misses that must stay apart.
 * Every case here is written for this project.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer, normalizeAnswer, type Verdict } from '../src/grader/index.ts';

type Case = [gold: string, pred: string];

function expectVerdict(verdict: Verdict, cases: Case[]): void {
  for (const [gold, pred] of cases) {
    expect(gradeAnswer(pred, gold).verdict, `${pred} against ${gold}`).toBe(verdict);
  }
}

describe('a letter set in \\text is a letter, not a unit', () => {
  it('keeps the imaginary unit of a complex number', () => {
    // "3+4\text{i}" once lost its "i" as a unit and graded equal to 7.
    expectVerdict('equal', [['3+4i', '3+4\\text{i}'], ['3+4i', '3 + 4\\text{ i}'], ['2i', '2\\text{i}']]);
    expectVerdict('different', [['3+4i', '3-4\\text{i}']]);
    expect(gradeAnswer('3+4\\text{i}', '7').equal).toBe(false);
    expect(normalizeAnswer('3+4\\text{i}')).not.toBe('7');
  });

  it('still drops a one-letter unit spelled out in \\text', () => {
    expectVerdict('equal', [['5', '5\\text{ m}'], ['300 \\text{ cm}', '3\\text{ m}']]);
    expectVerdict('different', [['6', '5\\text{ m}']]);
  });
});

describe('a logarithm without a base', () => {
  it('is unsure where the natural and the common logarithm give other verdicts', () => {
    // Read as natural only, "\log 100" was different from 2 and "\ln 2" equal to "\log 2", both sure.
    expectVerdict('unsure', [['2', '\\log 100'], ['\\log 2', '\\ln 2'], ['\\log 2', '0.301']]);
  });

  it('is compared as usual where both readings agree', () => {
    expectVerdict('equal', [['\\log 4', '2\\log 2'], ['\\log_2 3', '\\frac{\\log 3}{\\log 2}'], ['\\log x^2', '2 \\log x']]);
    expectVerdict('different', [['\\log 4', '3\\log 2'], ['3', '\\log 8'], ['\\log 5', '\\log 6']]);
  });
});

describe('degrees inside a trigonometric function', () => {
  it('are converted to radians', () => {
    // "\sin 30^\circ" was read as the sine of 30 radians, -0.988, and called different from 1/2.
    expectVerdict('equal', [['\\frac12', '\\sin 30^\\circ'], ['\\frac12', '\\cos(60^{\\circ})'], ['1', '\\tan 45°'], ['\\frac{3}{4}', '\\sin^2 60^\\circ']]);
    expectVerdict('different', [['\\frac12', '\\sin 60^\\circ'], ['\\frac12', '\\cos 30^\\circ'], ['\\sin 30', '\\sin 30^\\circ']]);
  });

  it('stay a mark read as 1 outside one', () => {
    expectVerdict('equal', [['90 - \\theta', '90^\\circ - \\theta'], ['\\frac{\\pi}{6}', '30^\\circ']]);
  });
});

describe('the real line and its halves by name', () => {
  it('equal the intervals they name', () => {
    // "\mathbb{R}" against "(-\infty, \infty)" was different, and sure of it.
    expectVerdict('equal', [
      ['\\mathbb{R}', '(-\\infty, \\infty)'],
      ['(-\\infty, \\infty)', '\\mathbb{R}'],
      ['(-\\infty, \\infty)', 'x \\in \\mathbb{R}'],
      ['\\text{all real numbers}', '(-\\infty, +\\infty)'],
      ['[0, \\infty)', '\\mathbb{R}_{\\ge 0}'],
      ['(0, \\infty)', '\\mathbb{R}_{>0}'],
      ['(-\\infty, 0)', '\\mathbb{R}_{<0}'],
    ]);
    expectVerdict('different', [
      ['\\mathbb{R}', '(0, \\infty)'],
      ['\\mathbb{R}', '(-\\infty, 0) \\cup (0, \\infty)'],
      ['[0, \\infty)', '\\mathbb{R}_{>0}'],
      ['(-\\infty, 0]', '\\mathbb{R}_{<0}'],
    ]);
  });

  it('leaves a half whose end is a convention to the judge', () => {
    // Whether \mathbb{R}^+ holds 0 is a matter of country.
    expectVerdict('unsure', [['[0, \\infty)', '\\mathbb{R}^+'], ['(0, \\infty)', '\\mathbb{R}_+']]);
  });
});
