import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../src/grader/index.ts';

/** Function answers written for this project that say their constant is arbitrary without "is". */
describe('a constant said to be any real without "is"', () => {
  it('is the constant of the family, as "where c is any real constant" is', () => {
    // The words were read as part of the answer: unsure against the family.
    expect(gradeAnswer('g(t) = kt^2, with k any real constant', 'g(t) = kt^2').verdict).toBe('equal');
    expect(gradeAnswer('g(t) = kt^2, with k being an arbitrary constant', 'g(t) = kt^2').verdict).toBe('equal');
    expect(gradeAnswer('g(t) = kt^2, k an arbitrary real number', 'g(t) = kt^2').verdict).toBe('equal');
    // Near misses: another power, a shift.
    expect(gradeAnswer('g(t) = kt^3, with k any real constant', 'g(t) = kt^2').verdict).toBe('different');
    expect(gradeAnswer('g(t) = kt^2 + 1, with k any real constant', 'g(t) = kt^2').verdict).toBe('different');
  });
});
