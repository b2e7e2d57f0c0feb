/**
 * A closing sentence set in bold whole, its full stop inside the bold: "**The answer is $x = 1$, $y = 2$.**".
 * Cases written for this project.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer } from '../../../src/grader/index.ts';
import { expectReplies } from '../grader-verdicts.ts';

describe('a bold sentence that states the answer', () => {
  it('is read to its full stop, inside the bold', () => {
    expect(extractAnswer('Solving the system:\n\n**The answer is $x = 1$, $y = 2$.**')).toBe('x = 1, y = 2');
    expectReplies(['<think>\nTry $x = 2$: no.\n</think>\n\n**The answer is $x = 1$, $y = 2$.**', '__The answer is $x = 1$, $y = 2$.__'], {
      'x = 1, y = 2': 'equal',
      'x = 1, y = 3': 'not equal',
      'x = 1': 'not equal',
    });
  });

  it('still ends at a full stop before other words', () => {
    expect(extractAnswer('**The answer is $(1, 2)$.** The check for $(2, 1)$ fails.')).toBe('(1, 2)');
  });
});
