import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer } from '../src/grader/index.ts';

/** The verdict a run gives a whole response: its extracted answer, graded with the response as context. */
function verdictOf(response: string, gold: string): string {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response }).verdict;
}

/** Endings written for this project whose second clause hedges, adds a value, or says where the answer is reached. */
describe('a second clause after the answer', () => {
  it('keeps a value it hedges with or adds, and cuts where the value is reached', () => {
    // Cut as an aside, the hedge left 30 alone: equal to a reference 30, sure of it.
    expect(verdictOf('So we obtain $30$; possibly $31$.', '30')).not.toBe('equal');
    expect(verdictOf('So we obtain $30$; possibly $31$.', '31')).not.toBe('equal');
    // Announced, the added value was dropped: equal to a wrong reference 4.
    expect(verdictOf('The answer is $z=4$; moreover $z=6$ is also a solution.', '4')).not.toBe('equal');
    // Read as the last math, the point was the answer: equal to a wrong reference 3.
    expect(verdictOf('The maximum value is $8$ and is attained at $y = 3$.', '8')).toBe('equal');
    expect(verdictOf('The maximum value is $8$ and is attained at $y = 3$.', '3')).toBe('different');
  });
});
