import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../src/grader/index.ts';

/** Sets of reals written for this project as one bound and the points it leaves out, after commas. */
describe('an inequality listed with the points it excludes', () => {
  it('is the set of reals where all of them hold', () => {
    // Read as a list of two answers, the right set was graded different, sure of it.
    expect(gradeAnswer('y > -\\frac52, y \\ne 1', '(-\\frac52, 1) \\cup (1, \\infty)').verdict).toBe('equal');
    expect(gradeAnswer('t \\le 7, t \\neq 0', '(-\\infty, 0) \\cup (0, 7]').verdict).toBe('equal');
    expect(gradeAnswer('t \\le 7, t \\neq 0, t \\ne -2', '(-\\infty,-2)\\cup(-2, 0) \\cup (0, 7]').verdict).toBe('equal');
    // Near misses: another excluded point, an open bound for a closed one, the point not excluded.
    expect(gradeAnswer('y > -\\frac52, y \\ne 2', '(-\\frac52, 1) \\cup (1, \\infty)').verdict).toBe('different');
    expect(gradeAnswer('t < 7, t \\neq 0', '(-\\infty, 0) \\cup (0, 7]').verdict).toBe('different');
    expect(gradeAnswer('y > -\\frac52, y \\ne 1', '(-\\frac52, \\infty)').verdict).toBe('different');
    // Points alone, or two bounds, are read as before.
    expect(gradeAnswer('y \\ne 1, y \\ne 2', 'y \\ne 1').verdict).toBe('different');
  });
});
