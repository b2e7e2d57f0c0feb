import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer } from '../src/grader/index.ts';

/** The verdict a run gives a whole response: its extracted answer, graded with the response as context. */
function verdictOf(response: string, gold: string): string {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response }).verdict;
}

/** Responses written for this project that add a second answer with words rather than a comma or "and". */
describe('an answer that "as well as", "and also" or "together with" extends', () => {
  it('keeps the value it adds, announced or not', () => {
    // Read as the first value alone: a wrong reference 4 or 6 was graded equal, sure of it.
    expect(verdictOf('The answer is $y=4$, as well as $y=9$.', '4')).not.toBe('equal');
    expect(verdictOf('The answer is $y=4$, as well as $y=9$.', '4, 9')).toBe('equal');
    expect(verdictOf('**Final answer:** $t = 6$, and also $t = -1$.', '6')).not.toBe('equal');
    expect(verdictOf('**Final answer:** $t = 6$, and also $t = -1$.', '-1, 6')).toBe('equal');
    expect(verdictOf('The roots are $z = 0$ together with $z = 8$.', '0')).not.toBe('equal');
    expect(verdictOf('The roots are $z = 0$ together with $z = 8$.', '0, 8')).toBe('equal');
    expect(verdictOf('The answer is $z = 0$, together with $z = 8$.', '0, 8')).toBe('equal');
    expect(verdictOf('So the solutions are $m = 2$, along with $m = 11$.', '11')).not.toBe('equal');
    // A reason after the answer still ends it.
    expect(verdictOf('The answer is $y=4$, as we showed above with $y=9$ excluded.', '4')).toBe('equal');
  });
});
