/**
 * A reference of one value against several values a reply names: "The minimum is $3$ and the maximum is $8$." to a
 * question asking both, or "… are 12 and 13, respectively.". Which of them the reference is only a reader can tell;
 * graded as the list, a reference that is one of them was different, sure of it. Cases written for this project.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer, type Verdict } from '../../../src/grader/index.ts';

/** The verdict a run gives a reply, with or without its question. */
function verdictFor(response: string, gold: string, question?: string): Verdict {
  return gradeAnswer(extractAnswer(response), gold, undefined, question === undefined ? { response } : { response, question }).verdict;
}

describe('a reference that is one of several values a reply names', () => {
  const bothAsked = 'Find the least and the greatest possible value of $k$.';
  const reply = 'The least is $4$ and the greatest is $11$.';

  it('is unsure where the question asks for them together', () => {
    expect(verdictFor(reply, '11', bothAsked)).toBe('unsure');
    expect(verdictFor(reply, '4', bothAsked)).toBe('unsure');
  });

  it('is still different where the reference is none of them, and the pair graded in its order', () => {
    expect(verdictFor(reply, '7', bothAsked)).toBe('different');
    expect(verdictFor(reply, '(4, 11)', bothAsked)).toBe('equal');
    expect(verdictFor(reply, '(11, 4)', bothAsked)).toBe('different');
  });

  it('is unsure against values given "respectively", with a question for one of them or none', () => {
    const respective = 'So the least and greatest values are 4 and 11, respectively.';
    expect(verdictFor(respective, '11', 'Find the greatest possible value of $k$.')).toBe('unsure');
    expect(verdictFor(respective, '4')).toBe('unsure');
    expect(verdictFor(respective, '6')).toBe('different');
    expect(verdictFor(respective, '(4, 11)')).toBe('equal');
  });
});
