/**
 * A value stated in prose after an escaped dollar, the currency sign of LaTeX ("So the total cost is \$18.90."), as
 * models write amounts of money outside math. Cases written for this project.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer } from '../../../src/grader/index.ts';
import { expectReplies } from '../grader-verdicts.ts';

describe('an amount after an escaped dollar in prose', () => {
  it('is the value the sentence states', () => {
    expect(extractAnswer('Adding the tax, the total cost is \\$18.90.')).toBe('18.90');
    expectReplies(['Adding the tax, the total cost is \\$18.90.', 'Since each ticket costs \\$2.10, the total is \\$18.90.'], { '\\$18.90': 'equal', '18.9': 'equal', '18.91': 'different' });
    expectReplies(['<think>\nIt is \\$36.\n</think>\n\nAfter checking every purchase, the amount left is \\$36.'], { 36: 'equal', 37: 'different' });
    expectReplies(['After the interest, the balance is \\$32,\\!348.'], { '\\$32,\\!348': 'equal', 32348: 'equal', 32349: 'different' });
  });

  it('keeps the minus sign written before the dollar', () => {
    // "-\$5" is minus five dollars: blanked to "-  5", the sign was parted from the number and 5 read, equal to a
    // reference 5 the reply denies. Case written for the review of this rule.
    expect(extractAnswer('Over the month the change in the balance is -\\$5.')).toBe('-5');
    expectReplies(['Over the month the change in the balance is -\\$5.', 'So the net result is \\$-5.'], { '-5': 'equal', 5: 'different' });
  });

  it('gives no value where the sentence does not end on it', () => {
    expect(extractAnswer('The total is \\$36, not \\$37, by the receipt')).not.toBe('37');
  });
});
