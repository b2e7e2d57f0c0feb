/**
 * A winner named in a sentence is the winner named (winner.ts): "Alice wins",
 * "Bob has a winning strategy" against "Alice", "Bob" were a reader's call,
 * and "the first player" against "first player" too.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../src/grader/index.ts';

/** Each [pred, gold] pair's verdict, graded bare. */
function verdicts(pairs: ReadonlyArray<readonly [string, string]>): string[] {
  return pairs.map(([pred, gold]) => gradeAnswer(pred, gold).verdict);
}

describe('an answer that names a winner', () => {
  it('is the name, whatever sentence says it wins and with or without "the"', () => {
    const names = ['Alice', 'Bob', 'the first player', 'The first player', 'player B', 'Alice is the winner'];
    const sentences = ['Alice wins', 'Bob has a winning strategy', '\\text{The first player can always win.}', 'first player', 'Player B will win the game', 'Alice'];
    const restated = sentences.map((sentence, k) => [sentence, names[k] ?? ''] as const);
    expect(verdicts(restated)).toEqual(['equal', 'equal', 'equal', 'equal', 'equal', 'equal']);
  });

  it('is never another player, nor a sentence that denies the win', () => {
    expect(verdicts([['Bob wins', 'Alice'], ['the second player wins', 'the first player'], ['Alice has a winning strategy', 'Bob']])).toEqual(['different', 'different', 'different']);
    // Words that deny or change the claim stay for a reader at most.
    const denied = verdicts([['Alice cannot win', 'Alice'], ['No one wins', 'Alice'], ['Neither player has a winning strategy', 'Alice'], ['Alice loses', 'Alice']]);
    expect(denied.every((v) => v !== 'equal')).toBe(true);
  });
});
