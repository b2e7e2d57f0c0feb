import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../src/grader/index.ts';

/** Families written for this project with "for" and a bound on their parameter. */
describe('a bare "for" that bounds the parameter of a family', () => {
  it('ranges the parameter as a comma does', () => {
    // Read as a domain and dropped, the family was 3^j alone: different from "all powers of 3", sure of it.
    expect(gradeAnswer('m = 3^j \\text{ for } j \\geq 0', 'all powers of 3').verdict).toBe('equal');
    expect(gradeAnswer('m = 3^j for j \\ge 1', '3^j, j \\ge 1').verdict).toBe('equal');
    expect(gradeAnswer('3^t \\text{ for } t \\ge 0', 'all powers of 3').verdict).toBe('equal');
    // Near misses: another start, another base.
    expect(gradeAnswer('m = 3^j \\text{ for } j \\geq 1', 'all powers of 3').verdict).toBe('different');
    expect(gradeAnswer('m = 5^j \\text{ for } j \\geq 0', 'all powers of 3').verdict).toBe('different');
    // The argument of a function bounded is its domain, as before.
    expect(gradeAnswer('g(n) = 2n \\text{ for } n \\ge 1', 'g(n) = 2n').verdict).toBe('equal');
  });
});
