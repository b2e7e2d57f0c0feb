/**
 * Endings and answers the grader misread, each with its near misses: the same trigger words in innocent uses, and a
 * wrong value in the same words, which must keep their verdicts. Every case was written for this project.
 */
import { describe, expect, it } from 'vitest';
import { extractAnswer, gradeAnswer, type Verdict } from '../src/grader/index.ts';
import { verdictOfReply } from './grader-verdicts.ts';

/** The verdict a run gives a reply to `question`. */
function verdictAsked(response: string, gold: string, question: string): Verdict {
  return gradeAnswer(extractAnswer(response), gold, undefined, { response, question }).verdict;
}

describe('an integer parameter the reply names its own way', () => {
  const cosine = 'Find all real $x$ such that $\\cos x = 1$.';

  it('is the same family where the question names neither letter', () => {
    // Compared letter for letter, "2n\pi" was a value other than "2k\pi": a right answer graded different, sure of it.
    expect(verdictAsked('Therefore $x = 2n\\pi$.', 'x = 2k\\pi', cosine)).toBe('equal');
    expect(verdictAsked('So the solutions are $2m\\pi$.', '2k\\pi', cosine)).toBe('equal');
    expect(verdictAsked('Hence $x = \\frac{\\pi}{4} + n\\pi$.', '\\frac{\\pi}{4} + k\\pi', 'Solve $\\tan x = 1$ over the reals.')).toBe('equal');
    expect(verdictAsked('So $n \\equiv 1$, that is $3j + 1$.', '3k+1', 'Which residues occur?')).toBe('equal');
  });

  it('is another value where the question names the letter, and without a question nobody can say', () => {
    expect(verdictAsked('Therefore $x = 2n\\pi$.', 'x = 2k\\pi', 'For a positive integer $n$, find all $x$ with $\\cos(x/n) = 1$.')).toBe('different');
    expect(verdictAsked('Therefore $x = 2n\\pi$.', 'x = 2k\\pi', 'Let $k$ be a positive integer. Find all $x$ with $\\cos x = 1$.')).toBe('different');
    expect(verdictAsked('Thus the sum is $n^2$.', 'k^2', 'Let $k$ be a positive integer. Find the sum of the first $k$ odd numbers.')).toBe('different');
    expect(verdictOfReply('Therefore $x = 2n\\pi$.', 'x = 2k\\pi')).toBe('unsure');
  });

  it('renames no wrong family into a right one, nor a lone letter', () => {
    expect(verdictAsked('Therefore $x = n\\pi$.', 'x = 2k\\pi', cosine)).toBe('different');
    expect(verdictAsked('Therefore $x = 2n\\pi + 1$.', 'x = 2k\\pi', cosine)).toBe('different');
    expect(verdictAsked('Hence $x = \\frac{\\pi}{4} + m\\pi$.', '\\frac{\\pi}{4} + 2k\\pi', 'Solve $\\tan x = 1$.')).toBe('different');
    expect(verdictAsked('So the answer is $n$.', 'k', 'Find the value.')).not.toBe('equal');
    // Letters that are no integer parameters stay variables: "2x + y" is not "2x + z".
    expect(verdictAsked('So $2t\\pi$.', '2s\\pi', cosine)).not.toBe('equal');
  });
});
