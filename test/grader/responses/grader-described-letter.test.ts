/**
 * A bare answer whose one word says what its letter is ("odd $n$", "prime
 * $p$") is that word and the letter: the letter alone answers nothing, and
 * "odd $n$" graded against itself came out different.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer, statedAnswer } from '../../../src/grader/index.ts';

describe('a bare answer that describes its letter', () => {
  it('keeps the word that says what the letter is', () => {
    const replies = ['odd $n$', 'even $m$.', 'prime $p$', 'Therefore, $x = 7$.', 'So $n$'];
    // A word that only leads into the mathematics ("Therefore,", "So") is still left off.
    expect(replies.map(extractAnswer)).toEqual(['odd $n$', 'even $m$.', 'prime $p$', 'x = 7', 'n']);
  });

  it('grades as the class it names, as a run reads a reply', () => {
    const question = 'Find all positive integers $n$ such that $2^n + 1$ is divisible by $3$.';
    const grade = (reply: string, gold: string): string => gradeAnswer(statedAnswer(reply), gold, undefined, { question, response: reply }).verdict;
    const pairs = [['odd $n$', 'odd $n$'], ['odd $n$', 'all odd $n$'], ['odd $n$', 'n \\equiv 1 \\pmod 2'], ['even $n$', 'odd $n$'], ['odd $n$', 'even $n$']] as const;
    expect(pairs.map(([reply, gold]) => grade(reply, gold))).toEqual(['equal', 'equal', 'equal', 'different', 'different']);
  });
});
