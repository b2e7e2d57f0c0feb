import { describe, expect, it } from 'vitest';
import { cpuTimed } from '../cpu-timed.ts';
import { gradeAnswer, statedAnswer } from '../../../src/grader/index.ts';

/** A run's grade of a whole response: its extracted answer, read with the question and the response. */
function gradeOf(response: string, gold: string): string {
  return gradeAnswer(statedAnswer(response), gold, undefined, { response, question: 'Find the value of $x$.' }).verdict;
}

/** `unit` repeated to about `length` characters. */
function looped(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length));
}

/**
 * Responses a model writes when it loops until its window is full: one sentence of hundreds of thousands of
 * characters, no full stop. Each took seconds to grade before (a step quadratic in the length of the last sentence,
 * of its math or of its boxes and announcements), where a run grades tens of thousands of responses.
 */
const RUNAWAYS: Array<[string, string]> = [
  ['one clause looped, with math', 'We consider the case where $x = 3$ and then we also have that the value is $5$ and '],
  ['math segments and nothing else', '$x$ '],
  ['a list that never ends', '$1, '],
  ['cases that never end', 'if $n$ is even then the count is $0$, and for $n = 3$ or $n = 4$ it is $1$ '],
  ['an announcement looped', 'Final answer: $5$; '],
  ['boxes in a row', '\\boxed{1} '],
  ['display math in a row', '$$x = 1$$ '],
  ['a count and its list looped', 'there are $3$ such $n$: $1$, $2$, '],
  ['an exclusion looped', '$k = 1$, excluding $k = 2$, '],
  ['one line of digits', '1234567890'],
  ['nested braces', '{{{{{}}}}}'],
  ['a box that never closes its braces', '\\boxed{{{{{'],
  ['LaTeX without a space', '\\frac{\\sqrt{a}}{b^{2}}\\cdot'],
  // A run of spaces: the heading of an announcement and the split of a sentence at its cases tried every run from
  // each of its starts (a second for 20,000 spaces, minutes for 1 MB).
  ['spaces that never end', '    '],
  ['struck values in a row', '$\\cancel{12}$ '],
];

describe('the grade of a response that loops until its window is full', () => {
  // CPU time, not the clock (cpu-timed.ts). A grade of a linear pass grows with the text about as the text does; a
  // quadratic one grows with its square: eight times the text took sixty times as long. The bound on growth sits
  // far from either, and the absolute bound far above a linear pass (tens of milliseconds) and below the seconds the
  // quadratic steps took.
  it('takes time linear in the response, whatever it holds', () => {
    for (const [name, unit] of RUNAWAYS) {
      const small = looped(unit, 70_000);
      gradeOf(`${small} `, '5');
      const { ms: smallMs } = cpuTimed(() => gradeOf(small, '5'));
      // process.cpuUsage counts every thread of the process (the collector's, a pool's left by an earlier file of
      // this fork), so one trial may carry CPU that is not the grade's: the best of up to three is taken. A grade
      // quadratic in the length (64 times the small one's) fails all three; a clean pass costs one. Each trial's text
      // differs by a trailing space, as the warm-up's does, so that none is a grade read back from the one before.
      const bound = Math.max(1000, 25 * smallMs);
      const big = looped(unit, 566_000);
      let bigMs = Infinity;
      for (let trial = 0; trial < 3 && bigMs >= bound; trial++) bigMs = Math.min(bigMs, cpuTimed(() => gradeOf(`${big}${' '.repeat(trial)}`, '5')).ms);
      expect(bigMs, `${name}: ${bigMs.toFixed(0)} ms against ${smallMs.toFixed(0)} ms at an eighth of the length`).toBeLessThan(bound);
      expect(bigMs, name).toBeLessThan(3000);
    }
  });
});

describe('the end of a long paragraph is still read', () => {
  it('takes the answer a runaway paragraph closes on, and its cases', () => {
    const reasoning = looped('we keep trying values of $x$ and the next one is $x + 1$ and ', 40_000);
    expect(gradeOf(`${reasoning}so we get $42$`, '42')).toBe('equal');
    expect(gradeOf(`${reasoning}so we get $42$`, '41')).toBe('different');
    expect(gradeOf(`${reasoning}. Hence the value is $12$ (or possibly $13$).`, '12')).toBe('unsure');
    const cases = `${reasoning}. If $n$ is even, the answer is $0$. If $n$ is odd, the answer is $1$.`;
    expect(gradeOf(cases, '0')).toBe('unsure');
  });

  it('reads the last sentence of many in a long paragraph as before', () => {
    const sentences = looped('We check $x = 2$ and it fails. ', 30_000);
    expect(gradeOf(`${sentences}The minimum value is $1$, attained at $x = 0$.`, '1')).toBe('equal');
    expect(gradeOf(`${sentences}The minimum value is $1$, attained at $x = 0$.`, '0')).toBe('different');
  });

  it('reads the answer before a loop of prose that holds no math', () => {
    // Cut at the window, the loop after the answer was all that was read: the right 12 graded unsure.
    const loops = [' Let me double-check the reasoning once more.', ' I am confident in this.'];
    for (const loop of loops) {
      const response = `So there are $12$ ways.${looped(loop, 8_000)}`;
      expect(gradeOf(response, '12'), loop).toBe('equal');
      expect(gradeOf(response, '13'), loop).toBe('different');
      const { ms } = cpuTimed(() => gradeOf(`So there are $12$ ways.${looped(loop, 1_000_000)}`, '12'));
      expect(ms, loop).toBeLessThan(3000);
    }
    expect(gradeOf(`So there are $12$ ways, and${looped(' we are done and', 8_000)} that is all.`, '12')).toBe('equal');
  });
});
