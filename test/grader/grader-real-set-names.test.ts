/**
 * Two sets of reals both written by name and exclusion ("\mathbb{R} \setminus
 * \{1\}"): each is read as the set it names, so another excluded point is
 * another set, not a text the rule cannot judge.
 */
import { describe, expect, it } from 'vitest';
import { verdictOf } from './grader-verdicts.ts';

describe('sets of reals named on both sides', () => {
  it('are different where they exclude other points, equal where the same', () => {
    expect(verdictOf('\\mathbb{R} \\setminus \\{3\\}', '\\mathbb{R} \\setminus \\{-3\\}')).toBe('different');
    expect(verdictOf('\\mathbb{R} \\setminus \\{3\\}', '\\mathbb{R}')).toBe('different');
    expect(verdictOf('[0, 4] \\setminus \\{2\\}', '[0, 4] \\setminus \\{1\\}')).toBe('different');
    expect(verdictOf('\\mathbb{R}\\setminus\\{3\\}', '\\mathbb{R} \\setminus \\{ 3 \\}')).toBe('equal');
  });

  it('keep a "\\pm" inside the excluded set: one set, not two readings', () => {
    expect(verdictOf('\\mathbb{R} \\setminus \\{\\pm 1\\}', '\\mathbb{R} \\setminus \\{-1, 1\\}')).toBe('equal');
    expect(verdictOf('\\mathbb{R} \\setminus \\{\\pm 1\\}', '(-\\infty, -1) \\cup (-1, 1) \\cup (1, \\infty)')).toBe('equal');
    expect(verdictOf('\\mathbb{R} \\setminus \\{\\pm 1\\}', '\\mathbb{R} \\setminus \\{1\\}')).not.toBe('equal');
  });
});
