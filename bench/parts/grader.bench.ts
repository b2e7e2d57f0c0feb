/**
 * Benchmark: the rule-based grader at the scale of a run's candidates. About
 * 6,000 (prediction, reference) pairs, every prediction a distinct string (so
 * the grader's caches do not hide the parsing), over reference shapes written
 * for this project: numbers, radicals, big powers, tuples, sets, intervals,
 * functions, floors and answers in words. Target: a few seconds in all.
 */
import { gradeAnswer } from '../../src/grader/index.ts';
import { createRandom } from './random-text.ts';
import type { Benchmark } from '../harness/types.ts';

/** Reference answers of the shapes olympiad benchmarks use (written for tmas). */
const REFERENCES = [
  '17', '2024', '\\frac{7}{12}', '3\\sqrt{5}', '2^{40}-1', '\\binom{30}{15}', '(3, 5, 8)', '\\{2, 7, 11\\}',
  '[-\\frac{3}{4}, \\infty)', '(-\\infty, 1) \\cup (2, 5]', 'f(x) = 3x - 2', 'P(x) = x^2 + c', '\\lfloor \\frac{n}{4} \\rfloor',
  'n \\text{ is even}', '\\frac{\\pi}{6}', '1 - \\frac{1}{e}', '0.625', '12\\%', 'x \\ge 2', '\\frac{n(n+1)(2n+1)}{6}',
];

/** A candidate answer for `reference`: right in another notation, or wrong by a small change. */
function variant(reference: string, k: number, random: () => number): string {
  const shift = 1 + Math.floor(random() * 9);
  switch (k % 6) {
    case 0:
      return `\\boxed{${reference}}`.replace('\\frac', '\\dfrac');
    case 1:
      return reference.replace(/\d+/, (d) => String(Number(d) + shift));
    case 2:
      return `${reference} + ${shift}`;
    case 3:
      return reference.replace(/,\s*/g, ' , ');
    case 4:
      return `-(${reference})`;
    default:
      return `${reference} \\cdot ${shift}`;
  }
}

/** The pairs, distinct predictions; `count` in all. */
export function graderBenchPairs(count: number): Array<{ pred: string; gold: string }> {
  const random = createRandom(17);
  const pairs: Array<{ pred: string; gold: string }> = [];
  for (let k = 0; pairs.length < count; k += 1) {
    const gold = REFERENCES[k % REFERENCES.length] ?? '0';
    // A trailing space and a varying spacing keep every prediction a new string.
    pairs.push({ pred: `${variant(gold, Math.floor(k / REFERENCES.length), random)}${' '.repeat(k % 7)}\\,${'\\ '.repeat(Math.floor(k / 140))}`, gold });
  }
  return pairs;
}

/** The grader benchmark: milliseconds to grade 6,000 distinct pairs. */
export const graderBenchmark: Benchmark = {
  name: 'grader',
  async run(context) {
    const count = context.quick ? 1_000 : 6_000;
    const pairs = graderBenchPairs(count);
    const started = performance.now();
    let equal = 0;
    for (const { pred, gold } of pairs) if (gradeAnswer(pred, gold).equal) equal += 1;
    const ms = performance.now() - started;
    context.log(`grader: ${count} pairs, ${equal} equal, ${ms.toFixed(0)} ms`);
    return [{ figure: `grader: ${count} distinct pairs`, target: '≤ 5 s', measured: `${(ms / 1000).toFixed(2)} s`, pass: ms <= 5_000, note: `${equal} graded equal` }];
  },
};
