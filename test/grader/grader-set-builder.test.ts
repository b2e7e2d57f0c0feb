/**
 * A set written by a formula and a condition: "\{E : k \in \mathbb{Z}\}" and
 * "\{E \mid k \in \mathbb{Z}\}". The colon is the builder's bar, not a ratio,
 * and the formula before the bar is the answer, not a name to drop.
 */
import { describe, expect, it } from 'vitest';
import { verdictOf } from './grader-verdicts.ts';

describe('a set-builder', () => {
  it('reads its colon as its bar', () => {
    expect(verdictOf('\\{t^3 : t \\in \\mathbb{Z}\\}', '\\{t^3 \\mid t \\in \\mathbb{Z}\\}')).toBe('equal');
    expect(verdictOf('\\left\\{(b, 2b) : b \\in \\mathbb{R}\\right\\}', '\\{(b, 2b) \\mid b \\in \\mathbb{R}\\}')).toBe('equal');
  });

  it('keeps the formula before its bar: another formula is no longer the same set', () => {
    expect(verdictOf('\\{(j, j+2) \\mid j \\in \\mathbb{Z}\\}', '\\{(j, j) \\mid j \\in \\mathbb{Z}\\}')).not.toBe('equal');
    expect(verdictOf('\\{(j, 3j) : j \\in \\mathbb{N}\\}', '\\{(j, 2j) \\mid j \\in \\mathbb{N}\\}')).not.toBe('equal');
    expect(verdictOf('(m, m+1) \\mid m \\in \\mathbb{Z}', '(m, m) \\mid m \\in \\mathbb{Z}')).not.toBe('equal');
    expect(verdictOf('\\{t^2 \\mid t \\in \\mathbb{Z}\\}', '\\{t^3 : t \\in \\mathbb{Z}\\}')).not.toBe('equal');
  });

  it('whose formula is only the letter it ranges is the set it ranges over', () => {
    expect(verdictOf('\\{k \\mid k \\in \\mathbb{Z}\\}', '\\mathbb{Z}')).toBe('equal');
    expect(verdictOf('\\{k : k \\in \\mathbb{Z}\\}', '\\mathbb{Z}')).toBe('equal');
    expect(verdictOf('\\{x \\mid x \\in \\mathbb{R}\\}', '\\mathbb{R}')).toBe('equal');
    expect(verdictOf('\\{k \\mid k \\in \\mathbb{Z}\\}', '\\mathbb{N}')).not.toBe('equal');
  });

  it('whose formula is only the letter its equation names is that value', () => {
    expect(verdictOf('\\{x \\mid x = 2\\}', '\\{x \\mid x = 3\\}')).toBe('different');
    expect(verdictOf('\\{x : x = 2\\}', '\\{x : x = 3\\}')).toBe('different');
    expect(verdictOf('\\{x : x = 2\\}', '\\{x \\mid x = 2\\}')).toBe('equal');
  });
});
