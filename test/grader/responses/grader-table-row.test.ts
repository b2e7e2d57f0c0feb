/**
 * A reply that sums its work up in a Markdown table whose row labelled "Answer" holds the answer. Cases written for
 * this project.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer } from '../../../src/grader/index.ts';
import { expectReplies } from '../grader-verdicts.ts';

const table = (value: string): string => `Summary:\n\n| Step | Value |\n|---|---|\n| Lower bound | $12$ (not attained) |\n| **Answer** | ${value} |`;

describe('the answer row of a table', () => {
  it('is the answer, up to the bar that closes its cell', () => {
    expect(extractAnswer(table('$36$'))).toBe('36');
    expectReplies([table('$36$'), table('36'), 'Results:\n\n| Quantity | Value |\n|---|---|\n| Final answer | $36$ |\n'], { 36: 'equal', 12: 'different', 37: 'different' });
    expectReplies([table('odd $n$')], { 'odd $n$': 'equal', 'even $n$': 'different' });
    expectReplies([table('$f(x) = 2x$ for all real $x$')], { 'f(x) = 2x': 'equal', 'f(x) = 3x': 'different' });
  });

  it('keeps the bars of an absolute value', () => {
    expectReplies(['Therefore the answer is |x - 1|.'], { '|x - 1|': 'equal' });
  });
});
