/**
 * Conditions on an integer letter (integer-sets.ts): "n \ge 2" and "n > 1"
 * hold the same integers. One answer where the question declares n an integer,
 * for a reader to say where only the letter's name suggests one, apart where
 * it declares n real or the integers differ.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../src/grader/index.ts';

/** Each [pred, gold] pair's verdict under `question` (none: graded bare). */
function verdicts(question: string | undefined, pairs: ReadonlyArray<readonly [string, string]>): string[] {
  const context = question === undefined ? undefined : { question };
  return pairs.map(([pred, gold]) => gradeAnswer(pred, gold, undefined, context).verdict);
}

describe('conditions on an integer letter', () => {
  it('are one answer where they hold the same integers of a declared integer', () => {
    const sameIntegers = [['n > 1', 'n \\ge 2'], ['0 < k < 6', '1 \\le k \\le 5'], ['n < 11', 'n \\le 10'], ['a \\ge 4', 'a > 3']] as const;
    expect(verdicts('Find all positive integers $n$, $k$ and $a$ such that …', sameIntegers)).toEqual(['equal', 'equal', 'equal', 'equal']);
  });

  it('stay apart where the integers differ, or where the letter is declared real', () => {
    const otherIntegers = [['n \\ge 1', 'n \\ge 2'], ['n > 2', 'n \\ge 2'], ['0 < k < 7', '1 \\le k \\le 5'], ['n \\ge 2', 'n > 0']] as const;
    expect(verdicts('Find all positive integers $n$ and $k$ such that …', otherIntegers)).toEqual(['different', 'different', 'different', 'different']);
    expect(verdicts('Find all real numbers $n$ such that …', [['n > 1', 'n \\ge 2']])).toEqual(['different']);
    // An undeclared letter that is no conventional integer: two sets of reals.
    expect(verdicts(undefined, [['x > 1', 'x \\ge 2']])).toEqual(['different']);
  });

  it('are for a reader where only the name of the letter says it is an integer', () => {
    expect(verdicts(undefined, [['n > 1', 'n \\ge 2'], ['m < 4', 'm \\le 3']])).toEqual(['unsure', 'unsure']);
  });
});
