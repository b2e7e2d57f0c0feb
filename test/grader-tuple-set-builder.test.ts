import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../src/grader/index.ts';

/** Sets of pairs written for this project by a condition on their letters. */
describe('a set of tuples by a condition on their letters', () => {
  it('is the condition, compared as a relation', () => {
    // Its ":" was read as a ratio and the set as one tuple: the condition was graded different, sure of it.
    expect(gradeAnswer('pq \\ge e^2', '\\{(p,q) : pq \\ge e^2\\}').verdict).toBe('equal');
    expect(gradeAnswer('u < 2v', '\\{(u, v) \\mid u < 2v\\}').verdict).toBe('equal');
    // Near misses: strict for non-strict, another bound, another expression.
    expect(gradeAnswer('pq > e^2', '\\{(p,q) : pq \\ge e^2\\}').verdict).toBe('different');
    expect(gradeAnswer('pq \\ge e^3', '\\{(p,q) : pq \\ge e^2\\}').verdict).toBe('different');
    expect(gradeAnswer('p + q \\ge e^2', '\\{(p,q) : pq \\ge e^2\\}').verdict).toBe('different');
    // A set of listed pairs is read as before.
    expect(gradeAnswer('(1, 2), (3, 4)', '\\{(1,2), (3,4)\\}').verdict).toBe('equal');
  });
});

describe('a set of tuples whose letters are out of alphabetical order', () => {
  it('is not read as the bare relation, whose coordinates are in that order', () => {
    expect(gradeAnswer('u < 2v', '\\{(v, u) \\mid u < 2v\\}').verdict).not.toBe('equal');
  });
});
