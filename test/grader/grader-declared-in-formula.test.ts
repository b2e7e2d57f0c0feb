/**
 * A letter inside a formula the question says is an integer ("$2x$ is an
 * integer", "$x + y \in \mathbb{Z}$", "an integer $x^2 + y$") is not declared
 * an integer itself (declared-letters.ts): read so, "x > 1" against "x \ge 2"
 * was equal for a real x, a wrong answer in the table.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../src/grader/index.ts';
import { declaredLetters } from '../../src/grader/math/declared-letters.ts';

const FORMULA_QUESTIONS = [
  'Find all $x$ such that $2x$ is an integer and $x^2 < 10$.',
  'Determine all $x$ for which $3x$ is an odd integer.',
  'Find all $x$ such that $n+x$ is an integer for every integer $n$.',
  'Find all $y$ and $x$ with $y + x \\in \\mathbb{Z}$.',
  'Find all $x$ such that $2x \\in \\mathbb{Z}$.',
  'An integer $x^2 + y$ is given. Find the set of $x$.',
];

describe('a letter inside a formula said to be an integer', () => {
  it('is not declared an integer, and its conditions stay sets of reals', () => {
    for (const question of FORMULA_QUESTIONS) {
      expect(declaredLetters(question).integer.has('x'), question).toBe(false);
      expect(gradeAnswer('x > 1', 'x \\ge 2', undefined, { question }).verdict, question).toBe('different');
    }
  });

  it('still is where it starts its own formula or stands in prose', () => {
    for (const question of ['Let $x, y \\in \\mathbb{Z}$. Find all $x$.', 'Suppose $x$ is an integer.', 'Let x be an integer.', 'For an integer $x \\ge 1$, find all $x$.']) {
      expect(declaredLetters(question).integer.has('x'), question).toBe(true);
    }
  });
});
