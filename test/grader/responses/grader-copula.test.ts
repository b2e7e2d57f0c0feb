/**
 * Replies that close in Japanese or Korean: the copula after the value ("です", "입니다") and the Korean announcement
 * ("답은", "정답:"). Cases written for this project.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer } from '../../../src/grader/index.ts';
import { expectReplies } from '../grader-verdicts.ts';
import { cpuTimed } from '../cpu-timed.ts';

describe('a reply that closes in Japanese or Korean', () => {
  it('leaves the copula out of a value stated in words', () => {
    expect(extractAnswer('すべての場合を調べた結果、答えは odd $n$ です。')).toBe('odd $n$');
    expectReplies(['すべての場合を調べた結果、答えは odd $n$ です。', '따라서 답은 odd $n$입니다.'], { 'odd $n$': 'equal', 'even $n$': 'different' });
    expectReplies(['答えは $f(x) = 2x$ for all real $x$ である。'], { 'f(x) = 2x': 'equal', 'f(x) = 3x': 'different' });
  });

  it('reads the Korean announcement of an answer, glued copula and all', () => {
    expect(extractAnswer('따라서 답은 36입니다.')).toBe('36');
    expectReplies(['따라서 답은 36입니다.', '모든 경우를 확인했습니다.\n\n정답: $36$', '그러므로 정답은 $36$이다.'], { 36: 'equal', 37: 'different' });
    expectReplies(['따라서 답은 $a = s+t$, $b = 2^{st}$입니다.'], { '$a=s+t$, $b = 2^{st}$': 'equal', '$a=s+t$, $b = 3^{st}$': 'not equal' });
  });

  it('reads no announcement in a Korean sentence that gives no value', () => {
    // "The answer is as follows." and "The answer to this problem is very simple.": read as the announcement, their
    // words were graded unsure against the value the reply gives after them. Cases written for the review of this rule.
    expectReplies(['따라서 답은 다음과 같습니다.\n\n$$5$$', '이 문제의 답은 매우 간단하다. 계산하면 $5$이다.'], { 5: 'equal', 6: 'different' });
    const long = '답은 '.repeat(200_000);
    // CPU, not the clock (cpu-timed.ts): a linear pass takes a fraction of this bound, a quadratic one hours.
    const { ms } = cpuTimed(() => expectReplies([long], { 5: 'not equal' }));
    expect(ms).toBeLessThan(2000);
  });

  it('keeps a word that only ends in the syllable of an answer', () => {
    // "대답은" is "the reply is": no announcement, the value of the last sentence stays the answer.
    expectReplies(['그의 대답은 7이었다. 하지만 올바른 값은 $9$.'], { 9: 'equal' });
  });
});
