/**
 * An answer restated in other units ("7 hours, i.e., 420 minutes"): equal to either quantity where the two are the same
 * quantity, different from any other value, and unsure where the restatement does not agree. Every case was written
 * for this project.
 */
import { describe, it } from 'vitest';
import { expectReplies } from '../grader-verdicts.ts';

describe('an answer restated in other units', () => {
  it('is equal to either quantity, in words or in mathematics', () => {
    // Graded as text, or as the first number, the right 420 was unsure or different.
    expectReplies(
      [
        'Working it out. The answer is 7 hours, i.e., 420 minutes.',
        'Working it out. So the trip takes $7$ hours, i.e., $420$ minutes.',
        'Working it out. The answer is 7 hours (420 minutes).',
        'Working it out. The answer is 7 hours, that is, 420 minutes.',
      ],
      { 420: 'equal', 7: 'equal', 8: 'different', 421: 'different' },
    );
    expectReplies(['Working it out. The answer is 2 meters, or 200 cm.'], { 200: 'equal', 2: 'equal', 20: 'different' });
  });

  it('is never equal where the restatement is another quantity, or no unit is restated', () => {
    expectReplies(['Working it out. The answer is 7 hours, i.e., 400 minutes.'], { 400: 'not equal', 7: 'not equal' });
    expectReplies(['Working it out. So she has $5$ apples, i.e., $3$ oranges.'], { 3: 'not equal', 5: 'not equal' });
    expectReplies(['Working it out. The answer is 3 hours, or 2 km.'], { 2: 'not equal' });
  });
});

describe('an answer in words restated as a decimal that rounds it', () => {
  it('is the answer, and an approximation that rounds nothing is no restatement', () => {
    // Read as a second value, a right 12 of "12, or approximately 12.0" was graded different, sure of it.
    expectReplies(['We check. The answer is 12, or approximately 12.0.', 'We check. The answer is 12 (about 12.0).'], { 12: 'equal', 13: 'different' });
    expectReplies(['We check. The answer is 14/3 (about 4.67).', 'We check. The answer is 14/3, or roughly 4.67.'], { '\\frac{14}{3}': 'equal', '\\frac{13}{3}': 'different', 4.67: 'not equal' });
    expectReplies(['We check. The answer is 12, or about 13.'], { 12: 'not equal', 13: 'not equal' });
  });
});

describe('a box restated in other units after it', () => {
  it('is equal to either quantity, and unsure where the restatement disagrees', () => {
    // Read as the box alone, the right 180 or 420 was graded different, sure of it.
    expectReplies(['We work.\n\nThe answer is $\\boxed{3}$ hours, which is $180$ minutes.'], { 180: 'equal', 3: 'equal', 181: 'different' });
    expectReplies(['We work.\n\nSo the trip takes $\\boxed{7 \\text{ hours}}$, i.e., 420 minutes.'], { 420: 'equal', 7: 'equal', 8: 'different' });
    expectReplies(['We work.\n\nSo the trip takes $\\boxed{7 \\text{ hours}}$, i.e., 400 minutes.'], { 400: 'not equal', 7: 'not equal' });
    expectReplies(['We work.\n\nSo the answer is $\\boxed{7}$, which is prime.', 'We work.\n\nSo the answer is $\\boxed{7}$ (since $3 + 4 = 7$).'], { 7: 'equal', 4: 'different' });
  });
});

describe('a box restated in another notation after it', () => {
  it('is the box, not a hedge between two values', () => {
    // Read as an alternative offered after the box, the right 1/2 of "$\boxed{\frac{1}{2}}$, or $50\%$" was unsure.
    expectReplies(['We work through it.\n\nSo the answer is $\\boxed{\\frac{1}{2}}$, or $50\\%$.'], { '\\frac{1}{2}': 'equal', '\\frac{1}{3}': 'different' });
    expectReplies(['We work through it.\n\nSo the answer is $\\boxed{\\frac{1}{2}}$, or perhaps $\\frac{1}{3}$.'], { '\\frac{1}{2}': 'not equal', '\\frac{1}{3}': 'not equal' });
  });
});

describe('an answer restated as another value right after it', () => {
  it('is unsure: the reply contradicts itself', () => {
    // Read past, "$\frac{1}{4}$, which is $20\%$" was graded equal to a reference 1/4, sure of it.
    expectReplies(['We work.\n\nThe answer is $\\frac{1}{4}$, which is $20\\%$.'], { '\\frac{1}{4}': 'not equal', '\\frac{1}{5}': 'not equal' });
    expectReplies(['We work.\n\nThus $\\boxed{12}$ (i.e., $13$).'], { 12: 'not equal', 13: 'not equal' });
  });

  it('stays equal where the restatement is the same value, or no value', () => {
    expectReplies(['We work.\n\nThe answer is $\\frac{1}{4}$, which is $25\\%$.'], { '\\frac{1}{4}': 'equal', '\\frac{1}{5}': 'different' });
    expectReplies(
      ['We work.\n\nThus $\\boxed{12}$ (i.e., $2^2 \\cdot 3$).', 'We work.\n\nThe answer is $12$, which is prime.', 'We work.\n\nThe answer is $12$, which is $3$ more than before.', 'We work.\n\nThus $\\boxed{12}$, that is, $n$.'],
      { 12: 'equal', 13: 'different' },
    );
  });
});

describe('an answer restated as a decimal that rounds it', () => {
  it('stays equal: the decimal is the answer rounded at its last digit, not a second value', () => {
    // Each was unsure against the right 4/9: the rounded decimal was read as a hedge or a contradicting restatement.
    expectReplies(
      [
        'We work.\n\nThe answer is $\\boxed{\\frac{4}{9}}$ — or $0.444444$ as a decimal.',
        'We work.\n\nThe answer is $\\boxed{\\frac{4}{9}}$, or $0.4444$.',
        'We work.\n\nThe answer is $\\frac{4}{9}$, which is $0.4444$.',
        'We work.\n\nSo the probability is $\\boxed{\\frac{4}{9}}$, i.e., $0.444$.',
        'We work.\n\nThe answer is $\\frac{4}{9}$ — or $0.4444$ as a decimal.',
        'We work.\n\nThe answer is $\\frac{4}{9}$, or $0.4444$ as a decimal.',
        'We work.\n\nThe answer is $\\frac{4}{9}$, or $0.444$ in decimal form.',
      ],
      { '\\frac{4}{9}': 'equal', '\\frac{5}{9}': 'different' },
    );
  });

  it('is unsure where the decimal rounds another value', () => {
    expectReplies(['We work.\n\nThe answer is $\\frac{4}{9}$, or $0.45$ as a decimal.', 'We work.\n\nThe answer is $\\boxed{\\frac{4}{9}}$, which is $0.45$.', 'We work.\n\nThe answer is $\\boxed{\\frac{4}{9}}$, or perhaps $0.45$.'], { '\\frac{4}{9}': 'not equal' });
  });
});
