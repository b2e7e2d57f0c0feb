/**
 * A Chinese closing sentence that denies, bounds or scales the number it ends on states no answer of that number:
 * "所以小明没有5个苹果。", "所以答案不是5。", "所以一共有5万人。" (50000), "所以 x >= 5。". Each was read as 5 and
 * graded equal to a reference 5. Every case was written for this project, each with its near miss that still reads.
 */
import { describe, expect, it } from 'vitest';
import { expectReplies, verdictOfReply as verdictOf } from '../grader-verdicts.ts';

describe('a Chinese closing sentence that denies its number', () => {
  it('gives no answer of that number, in a stated value or after 答案', () => {
    const denied = ['所以小明没有5个苹果。', '所以答案不是5。', '所以答案不会是5。', '因此，结果并非5。', '计算得 n = 4。所以答案不是5。', '所以他们一共没有赚到5美元。'];
    for (const reply of denied) expect(verdictOf(reply, '5'), reply).not.toBe('equal');
    // The English sentence reads its "not" as well.
    expect(verdictOf('So the answer is not 5.', '5')).not.toBe('equal');
  });

  it('still reads the value a clause without a denial states, after a clause with one', () => {
    expectReplies(['这不是难题，所以答案是5。', '小明没有苹果。所以他一共买了5个梨。', '所以未知数的值为5。', '所以无论如何一共有5个。'], { 5: 'equal', 6: 'different' });
  });
});

describe('a Chinese closing sentence whose number the next character scales or bounds', () => {
  it('is no answer of the digits alone', () => {
    const scaled = ['所以一共有5万人。', '所以他们一共赚了5千美元。', '所以n是5的倍数。', '所以一共有5多个。', '所以 x >= 5。', '因此 x != 5。', '所以一共有5分之1。'];
    for (const reply of scaled) expect(verdictOf(reply, '5'), reply).not.toBe('equal');
  });

  it('is no answer of the digits alone after 答案 either', () => {
    // Announced, the sentence was reduced to its number: 5 for 50000, for 25, for "5 or more", graded equal to 5.
    for (const reply of ['答案是5万。', '所以答案是5的平方。', '因此，答案是5以上。', '答案：5的倍数']) expect(verdictOf(reply, '5'), reply).not.toBe('equal');
    expectReplies(['所以答案是5个。', '答案是5。'], { 5: 'equal', 6: 'different' });
  });

  it('still reads a number with its counter or unit', () => {
    expectReplies(['所以一共有5个人。', '所以他们一共赚了5美元。', '所以 x = 5。', '因此，弗兰克一共有**5颗**糖果。', '所以一共有5千克。', '答案是5千米。'], { 5: 'equal', 50000: 'different' });
  });
});
