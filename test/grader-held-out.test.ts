/**
 * Replies of the shapes a held-out set of grader cases holds, where the
 * grader was sure and wrong: a wrong answer scored right ("x + 10^{-12}"
 * equal to "x"), or a right answer scored wrong and sure of it ("FF_{16}"
 * against 255). Each case is a class of replies; where a reader could go
 * either way, `unsure` (the judge decides) is the verdict asked for.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer, type Verdict } from '../src/grader/index.ts';

function verdictOf(pred: string, gold: string): Verdict {
  return gradeAnswer(pred, gold).verdict;
}

describe('answers that differ from the reference by less than floating point tells', () => {
  it('grades an expression off by a tiny constant or factor different', () => {
    expect(verdictOf('x + 10^{-12}', 'x')).toBe('different');
    expect(verdictOf('x(1+10^{-15})', 'x')).toBe('different');
    expect(verdictOf('n^2 + 10^{-20}n', 'n^2')).toBe('different');
  });

  it('still grades equal forms of one expression equal', () => {
    expect(verdictOf('2(x+1)', '2x+2')).toBe('equal');
    expect(verdictOf('\\sin^2 x + \\cos^2 x', '1')).toBe('equal');
    expect(verdictOf('\\frac{x^2-1}{x-1}', 'x+1')).toBe('equal');
    expect(verdictOf('\\frac{n(n+1)}{2}', '\\binom{n+1}{2}')).toBe('equal');
  });
});

describe('functions whose variable is not the letter their formula uses', () => {
  it('grades f(y) = x + 1 different from f(x) = x + 1', () => {
    expect(verdictOf('f(y)=x+1', 'f(x)=x+1')).toBe('different');
    expect(verdictOf('f(t) = x^2', 'f(x) = x^2')).toBe('different');
  });

  it('still grades a function under another name for its variable equal', () => {
    expect(verdictOf('f(y)=y+1', 'f(x)=x+1')).toBe('equal');
    expect(verdictOf('f(x, y) = x + y', 'f(y, x) = y + x')).toBe('equal');
  });
});

describe('sums and products written with their limits', () => {
  it('grades a finite sum or product by its value', () => {
    expect(verdictOf('\\sum_{k=1}^{10} k', '55')).toBe('equal');
    expect(verdictOf('\\sum_{i=0}^{3} 2^i', '15')).toBe('equal');
    expect(verdictOf('\\prod_{k=1}^{5} k', '120')).toBe('equal');
    expect(verdictOf('\\sum_{k=1}^{10} k', '56')).toBe('different');
  });

  it('is unsure of a sum it cannot write out against a closed form', () => {
    expect(verdictOf('\\sum_{k=1}^{n} k', '\\frac{n(n+1)}{2}')).toBe('unsure');
    expect(verdictOf('\\sum_{k=1}^{100000} k', '5000050000')).toBe('unsure');
  });
});

describe('numerals in bases over ten', () => {
  it('reads digits written as capital letters in the base of the subscript', () => {
    expect(verdictOf('FF_{16}', '255')).toBe('equal');
    expect(verdictOf('1A_{12}', '22')).toBe('equal');
    expect(verdictOf('FE_{16}', '255')).toBe('different');
  });

  it('reads a numeral as programs prefix it', () => {
    expect(verdictOf('0xFF', '255')).toBe('equal');
    expect(verdictOf('0b1010', '10')).toBe('equal');
  });
});
