/**
 * A residue class written as a formula whose parameter ranges over every
 * integer: "\{2k : k \in \mathbb{Z}\}", "3k+1, k \in \mathbb{Z}". The range
 * makes the formula the class; over the naturals, or bare, it is not.
 */
import { describe, expect, it } from 'vitest';
import { verdictOf } from './grader-verdicts.ts';

describe('a formula ranged over every integer is its residue class', () => {
  it('equals the class in words or as a congruence', () => {
    expect(verdictOf('\\{2m : m \\in \\mathbb{Z}\\}', '\\text{all even integers}')).toBe('equal');
    expect(verdictOf('\\left\\{5t+2 \\mid t \\in \\mathbb{Z}\\right\\}', 'n \\equiv 2 \\pmod{5}')).toBe('equal');
    expect(verdictOf('4j-1, j \\in \\mathbb{Z}', 'n \\equiv 3 \\pmod 4')).toBe('equal');
    expect(verdictOf('\\{2l+1 : l \\in \\mathbb{Z}\\}', 'odd')).toBe('equal');
  });

  it('reads the range after "for", "for some" or "for all" too', () => {
    expect(verdictOf('6t+5 \\text{ for some } t \\in \\mathbb{Z}', 'n \\equiv 5 \\pmod 6')).toBe('equal');
    expect(verdictOf('2j \\text{ for } j \\in \\mathbb{Z}', '\\text{all even integers}')).toBe('equal');
    expect(verdictOf('2j \\text{ for all } j \\in \\mathbb{Z}', '\\text{even}')).toBe('equal');
    expect(verdictOf('6t+1 \\text{ for some } t \\in \\mathbb{Z}', 'n \\equiv 5 \\pmod 6')).toBe('different');
    expect(verdictOf('2j \\text{ for } j \\in \\mathbb{N}', '\\text{all even integers}')).not.toBe('equal');
  });

  it('is another class where the residue or the modulus differs, and no class over the naturals', () => {
    expect(verdictOf('\\{5t+3 \\mid t \\in \\mathbb{Z}\\}', 'n \\equiv 2 \\pmod{5}')).toBe('different');
    expect(verdictOf('\\{2m : m \\in \\mathbb{Z}\\}', '\\text{all odd integers}')).toBe('different');
    expect(verdictOf('\\{4m : m \\in \\mathbb{Z}\\}', '\\text{all even integers}')).toBe('different');
    expect(verdictOf('5t+2, t \\in \\mathbb{N}', 'n \\equiv 2 \\pmod{5}')).not.toBe('equal');
    expect(verdictOf('2m', '\\text{all even integers}')).not.toBe('equal');
  });
});
