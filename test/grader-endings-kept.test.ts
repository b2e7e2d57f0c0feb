/**
 * Right answers that the rules for a response's ending (a value rejected, a
 * generalisation, a solution added, a conclusion after the box, a value
 * excluded, "for $…$" where a value is reached) must keep: whole endings a
 * reasoning model writes, where the words a rule looks for are about the
 * answer, not against it. Each was graded wrong or unsure by those rules
 * while the grader before them had it right; every case was written for this
 * project, beside a near miss.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer } from '../src/grader/index.ts';

/** The verdict a run gives a whole response: its extracted answer, graded with the response as context. */
function verdictOf(response: string, gold: string): string {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response }).verdict;
}

describe('a last sentence that speaks of failing, rejecting or discarding', () => {
  it('is the answer when it states the value it counts or leaves', () => {
    // Cut whole as a rejection, the answer was taken from an earlier sentence: different from the right value.
    const endings: Array<[string, string, string]> = [
      ['Squaring gives $x^2 - 2x - 3 = 0$, so $x = 3$ or $x = -1$. We reject $x = 3$ since it is extraneous, leaving $x = -1$.', '-1', '3'],
      ['There are $20$ values in total. After we discard $3$ duplicates, $17$ remain.', '17', '20'],
      ['There are $120$ arrangements and $84$ satisfy the condition. The number of arrangements that violate it is $36$.', '36', '84'],
      ['We test $n = 1, 2, 3, 4$ and they all work. The first $n$ for which the inequality fails is $n = 5$.', '5', '4'],
      ['Of the $2^{10} = 1024$ strings, $144$ are valid. The number of invalid strings is $1024 - 144 = 880$.', '880', '144'],
    ];
    for (const [response, right, wrong] of endings) {
      expect(verdictOf(response, right), response).toBe('equal');
      expect(verdictOf(response, wrong), response).toBe('different');
    }
  });
});
