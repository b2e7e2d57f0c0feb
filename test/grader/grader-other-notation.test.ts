/**
 * Answers a model writes in another notation than the reference, inside a
 * whole reply: rates in other units, angles in radians against bare
 * degrees, a function's parity in words, runs of integers against ranges,
 * congruences joined by "or". Each case is a class the grader was sure and
 * wrong about; where a reader could go either way, `unsure` is asked for.
 * Every case here is written for this project.
 */
import { describe, expect, it } from 'vitest';
import { verdictOf, verdictOfReply } from './grader-verdicts.ts';

describe('a rate written in units of the table', () => {
  it('is converted, so that another rate of the same number is different', () => {
    expect(verdictOfReply('The speed is $\\boxed{5 \\text{ km/h}}$.', '5 \\text{ m/s}')).toBe('different');
    expect(verdictOf('18 \\text{ km/h}', '5 \\text{ m/s}')).toBe('equal');
    expect(verdictOf('88 \\text{ ft/s}', '60 \\text{ mph}')).toBe('equal');
    expect(verdictOf('60 \\text{ miles per hour}', '60 \\text{ mph}')).toBe('equal');
    expect(verdictOf('5', '5 \\text{ m/s}')).toBe('equal');
  });
});

describe('an angle in radians against one in bare degrees', () => {
  it('is unsure inside an expression as it is alone, \\pi being 180', () => {
    expect(verdictOfReply('So the angle is $\\boxed{\\pi - 2\\alpha}$.', '180 - 2\\alpha')).toBe('unsure');
    expect(verdictOf('\\frac{\\pi}{2} + x', '90 + x')).toBe('unsure');
    expect(verdictOf('\\pi - \\alpha', '180 - 2\\alpha')).toBe('different');
  });
});

describe("a function's parity in words", () => {
  it('is the parity a reference "even" or "odd" names', () => {
    expect(verdictOfReply('So $f$ is $\\boxed{\\text{an even function}}$.', '\\text{even}')).toBe('equal');
    expect(verdictOf('\\text{The function is odd}', '\\text{odd}')).toBe('equal');
    expect(verdictOf('\\text{odd function}', '\\text{even}')).toBe('different');
  });
});

describe('a run of integers closed by its last one', () => {
  it('is unsure against the same range on a letter, and compares by its ends against another run', () => {
    expect(verdictOfReply('So $\\boxed{1 \\le n \\le 1235}$.', '1,2,\\ldots, 1235')).toBe('unsure');
    expect(verdictOf('[1, 1235]', '1,2,\\ldots, 1235')).toBe('unsure');
    expect(verdictOf('1 < n \\le 1235', '1,2,\\ldots, 1235')).toBe('different');
    expect(verdictOf('1, 2, \\ldots, 1234', '1,2,\\ldots, 1235')).toBe('different');
    expect(verdictOf('\\{1, 2, \\dots, 1235\\}', '1,2,\\ldots, 1235')).toBe('equal');
  });
});

describe('congruences joined by "or"', () => {
  it('are the union of their classes, whatever follows the modulus', () => {
    expect(verdictOfReply('Hence $\\boxed{n \\equiv 0 \\pmod 2 \\text{ or } n \\equiv 0 \\pmod 3}$.', 'n=2k, n=3k')).toBe('equal');
    expect(verdictOf('n \\equiv 0 \\pmod 2 or n \\equiv 0 \\pmod 5', 'n=2k, n=3k')).toBe('different');
  });
});
