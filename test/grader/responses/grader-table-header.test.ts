/**
 * A Markdown table whose header row opens on "Answer": the column heading, not an answer row. Read as the row that
 * announces its answer, the header's next cell ("Explanation") was graded against the reference. Cases written for
 * this review.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer } from '../../../src/grader/index.ts';
import { expectReplies } from '../grader-verdicts.ts';

describe('the header row of a table', () => {
  it('announces no answer, however its column is named', () => {
    const header = '| Answer | Explanation |\n|---|---|\n| 5 | counted directly |';
    expect(extractAnswer(header)).not.toBe('Explanation');
    expectReplies([header, '| **Final answer** | Part |\n| :---: | --- |\n| 3 | (a) |\n| 4 | (b) |'], { 5: 'not equal', '3, 4': 'not equal' });
    expectReplies([`We count directly: $\\boxed{5}$.\n\n${header}`], { 5: 'equal', 6: 'different' });
  });

  it('leaves an answer row below another header read', () => {
    expectReplies(['| Step | Value |\n| --- | --- |\n| Answer | $36$ |'], { 36: 'equal', 12: 'different' });
  });
});
