import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer } from '../src/grader/index.ts';

/** The verdict a run gives a whole response: its extracted answer, graded with the response as context. */
function verdictOf(response: string, gold: string): string {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response }).verdict;
}

/** Unannounced endings written for this project: a constant value, then a clause about its letters. */
describe('a clause after a value that states a constant', () => {
  it('is a remark when it is about the letters the value settles', () => {
    // Read as the answer, the clause was graded different from the right value, sure of it.
    expect(verdictOf('Therefore $p+q=20$, where $p=8$ and $q=12$.', '20')).toBe('equal');
    expect(verdictOf('Therefore $p+q=20$, where $p=8$ and $q=12$.', '8')).toBe('different');
    expect(verdictOf('So $t = 9$, with $t > 0$.', '9')).toBe('equal');
    expect(verdictOf('So $t = 9$, with $t > 0$.', '-9')).toBe('different');
    // After an announcement the clause was kept as a qualifier: unsure.
    expect(verdictOf('The final answer is $p+q=20$, where $p=8$ and $q=12$.', '20')).toBe('equal');
    expect(verdictOf('The answer is $r = 4$, where $r$ is the inradius.', '4')).toBe('equal');
    expect(verdictOf('The answer is $r = 4$, where $r$ is the inradius.', '5')).toBe('different');
    // A letter the value leaves free is still ranged by the clause.
    expect(verdictOf('Thus $x = 2k\\pi$, where $k$ is an integer.', '2k\\pi, k \\in \\mathbb{Z}')).toBe('equal');
    // A function's argument is never settled: the clause is a case of it.
    expect(extractAnswer('Hence $g(t) = 0$, where $t < 0$.')).toContain('t < 0');
  });

  it('gives a second coordinate when "with" alone sets another letter', () => {
    // Cut as a remark, the first coordinate alone was graded equal to a wrong reference 5, and (5, 6) different.
    expect(verdictOf('The solution is $u=5$, with $v=6$.', '5')).not.toBe('equal');
    expect(verdictOf('The solution is $u=5$, with $v=6$.', '(5, 6)')).toBe('equal');
    expect(verdictOf('The solution is $u=5$, with $v=6$.', '(5, 7)')).toBe('different');
    // "with" and words before the math is a remark as before.
    expect(verdictOf('Hence $m=5$, with equality when $x=1$.', '5')).toBe('equal');
  });
});
