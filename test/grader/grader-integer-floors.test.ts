/**
 * A floor or a ceiling of an integer letter: two formulas that agree at
 * every integer are one answer, though real points between integers part
 * them; a real letter keeps them apart.
 */
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/grader/index.ts';
import { verdictOf } from './grader-verdicts.ts';

/** Grades each [pred, gold] pair, expecting `equal`, or anything but `equal`. */
function expectEach(pairs: ReadonlyArray<readonly [string, string]>, equal: boolean): void {
  for (const [pred, gold] of pairs) {
    const verdict: Verdict = verdictOf(pred, gold);
    if (equal) expect(verdict, `${pred} against ${gold}`).toBe('equal');
    else expect(verdict, `${pred} against ${gold}`).not.toBe('equal');
  }
}

describe('floors and ceilings of an integer letter', () => {
  it('are equal where they agree at every integer', () => {
    expectEach([
      ['\\lceil \\frac{k}{2} \\rceil', '\\left\\lfloor \\frac{k+1}{2} \\right\\rfloor'],
      ['\\lfloor (m-1)/3 \\rfloor + 1', '\\lceil m/3 \\rceil'],
      ['\\lfloor \\frac{n}{2} \\rfloor \\lceil \\frac{n}{2} \\rceil', '\\lfloor \\frac{n^2}{4} \\rfloor'],
      ['\\lfloor \\frac{N+2}{2} \\rfloor', '\\lfloor \\frac{N}{2} \\rfloor + 1'],
    ], true);
  });

  it('stay apart where an integer parts them, or where the letter may be real', () => {
    expectEach([
      ['\\lceil \\frac{k}{2} \\rceil', '\\lfloor \\frac{k}{2} \\rfloor'],
      ['\\lfloor \\frac{3m}{2} \\rfloor', '\\lfloor \\frac{3m+1}{2} \\rfloor'],
      ['\\frac{n^2}{4}', '\\lfloor \\frac{n^2}{4} \\rfloor'],
      ['\\lceil \\frac{n}{2} \\rceil', '\\lfloor \\frac{n}{2} \\rfloor + 1'],
      ['\\lfloor \\sqrt{n} \\rfloor', '\\lfloor \\sqrt{n-1} \\rfloor'],
      ['\\lfloor \\sqrt{m} \\rfloor + \\lfloor \\sqrt{k} \\rfloor', '\\lfloor \\sqrt{m} \\rfloor + \\lfloor \\sqrt{k+1} \\rfloor'],
      ['y', '\\lfloor y \\rfloor'],
      ['\\lceil \\frac{t}{2} \\rceil', '\\lfloor \\frac{t+1}{2} \\rfloor'],
    ], false);
  });

  it('stay apart where a floor rounds nothing at an integer: its letter is meant real', () => {
    expectEach([
      ['\\lfloor k \\rfloor', 'k'],
      ['\\lceil n \\rceil + 1', 'n + 1'],
      ['\\lfloor m \\rfloor^2', 'm^2'],
      ['\\lfloor k \\rfloor', '\\lceil k \\rceil'],
      ['\\lfloor 2N \\rfloor - N', '\\lceil N \\rceil'],
    ], false);
  });

  it('stay apart where they part only at an integer that random points miss', () => {
    expectEach([
      ['\\lceil \\frac{n}{100} \\rceil', '\\lfloor \\frac{n}{100} \\rfloor + 1'],
      ['\\lfloor \\frac{n^3}{1000} \\rfloor', '\\lfloor \\frac{n^3+1}{1000} \\rfloor'],
      ['\\lceil \\frac{x}{100} \\rceil', '\\lfloor \\frac{x}{100} \\rfloor + 1'],
    ], false);
  });
});
