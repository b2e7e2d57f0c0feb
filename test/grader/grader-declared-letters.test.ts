/**
 * What the question declares its letters to be decides whether a formula with
 * a floor is swept over the integers (declared-letters.ts, expr-equal.ts):
 * n, m, k, j, i and N are integers by convention, not where the question
 * declares them real, rational or complex; any letter it declares an integer is.
 */
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../src/grader/index.ts';
import { cpuTimed } from './cpu-timed.ts';
import { declaredLetters } from '../../src/grader/math/declared-letters.ts';

/** The verdict of `pred` against `gold` asked by `question`. */
function verdictIn(question: string, pred: string, gold: string): string {
  return gradeAnswer(pred, gold, undefined, { question }).verdict;
}

const CEIL_HALF = (v: string): string => `\\lceil \\frac{${v}}{2} \\rceil`;
/** Each [question, letter] pair's verdict of a ceiling of half the letter against its floor of half of one more. */
function halvesIn(cases: ReadonlyArray<readonly [string, string]>): string[] {
  return cases.map(([question, v]) => verdictIn(question, CEIL_HALF(v), FLOOR_HALF_UP(v)));
}
const FLOOR_HALF_UP = (v: string): string => `\\left\\lfloor \\frac{${v}+1}{2} \\right\\rfloor`;

describe('letters the question declares', () => {
  it('are read from the forms a question declares them in', () => {
    const read = (q: string): string => {
      const d = declaredLetters(q);
      return `${[...d.integer].sort().join('')}|${[...d.real].sort().join('')}`;
    };
    expect(read('For real $k$, let $g(k)$ be the least integer.')).toBe('|k');
    expect(read('Suppose $k$ is a real number and $n$ a positive integer.')).toBe('|k');
    expect(read('Let $n$ be a positive integer and $x, y$ be real numbers.')).toBe('n|xy');
    expect(read('For all $x, y \\in \\mathbb{R}$ and $t \\in \\mathbb{Z}$.')).toBe('t|xy');
    expect(read('Given positive integers $a$, $b$ and $c$, and rational $q$.')).toBe('abc|q');
    expect(read('Let $z$ be any complex number.')).toBe('|z');
    // A letter declared both ways is real: never swept over the integers alone.
    expect(read('Let $n$ be an integer. For real $n$ …')).toBe('|n');
    // A function, a word and a polynomial's coefficients declare no letter.
    expect(read('Find all real-valued functions $f(x)$ with integer coefficients.')).toBe('|');
  });

  it('a letter declared real, rational or complex is not swept over the integers', () => {
    const declaredReal = [
      ['For real $n$, find the value $g(n)$.', 'n'],
      ['Suppose $k$ is a real number. Find $g(k)$.', 'k'],
      ['For all $m \\in \\mathbb{R}$, find $g(m)$.', 'm'],
      ['Let $N$ be a positive rational number. Find $g(N)$.', 'N'],
    ] as const;
    expect(halvesIn(declaredReal)).toEqual(['different', 'different', 'different', 'different']);
    const products = declaredReal.map(([question, v]) => verdictIn(question, `\\lfloor \\frac{${v}^2}{4} \\rfloor`, `\\lfloor \\frac{${v}}{2} \\rfloor \\lceil \\frac{${v}}{2} \\rceil`));
    expect(products).toEqual(['different', 'different', 'different', 'different']);
  });

  it('a letter declared an integer, or an integer by convention, is', () => {
    const integers = halvesIn([
      ['Let $n$ be a positive integer. Find $g(n)$.', 'n'],
      ['For real $x$ and a positive integer $k$, find $g(k)$.', 'k'],
      ['Given a positive integer $a$, find $g(a)$.', 'a'],
      ['For all $t \\in \\mathbb{Z}$, find $g(t)$.', 't'],
      ['Find $g(m)$.', 'm'],
    ]);
    expect(integers).toEqual(['equal', 'equal', 'equal', 'equal', 'equal']);
    // Another letter, undeclared, stays a real.
    expect(verdictIn('Find $g(a)$.', CEIL_HALF('a'), FLOOR_HALF_UP('a'))).toBe('different');
    // Declared an integer, a floor that still parts at an integer stays apart.
    expect(verdictIn('Given a positive integer $a$, find $g(a)$.', CEIL_HALF('a'), '\\lfloor \\frac{a}{2} \\rfloor')).toBe('different');
  });

  it('reads a long question in bounded time: only its start, where declarations are', () => {
    // Lists of lone letters at every position once cost a third of a second on 21,000 characters.
    for (const question of ['a, '.repeat(100_000), '$x$ and '.repeat(40_000), `${'positive '.repeat(30_000)}integer $n$`]) {
      const { ms } = cpuTimed(() => declaredLetters(question));
      expect(ms, question.slice(0, 20)).toBeLessThan(150);
    }
  });
});
