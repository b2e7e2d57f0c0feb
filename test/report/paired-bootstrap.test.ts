/** The paired bootstrap interval of a method's difference from TMAS (table1.md, the report), on cases checked by hand. */
import { describe, expect, test } from 'vitest';
import { bootstrapInterval, pairedDifference } from '../../src/report/bootstrap.ts';

const byProblem = (values: number[]) => new Map(values.map((value, i) => [`p${i + 1}`, value]));

describe('paired bootstrap of a difference from a reference, by problem', () => {
  test('identical methods: a difference of 0 and an interval of 0', () => {
    const same = byProblem([0, 0.25, 1, 0.5, 0.75, 1, 0]);
    expect(pairedDifference(same, same, 1)).toEqual({ difference: 0, interval: [0, 0], problems: 7 });
  });

  test('a method better on every problem: an interval that excludes 0', () => {
    const reference = byProblem([0, 0.25, 0.5, 0.5, 0.75, 0.125]);
    const better = byProblem([0.5, 0.375, 0.75, 1, 0.875, 0.25]);
    const paired = pairedDifference(better, reference, 1);
    // Differences 0.5, 0.125, 0.25, 0.5, 0.125, 0.125: a mean of 1.625 / 6.
    expect(paired?.difference).toBeCloseTo(1.625 / 6, 12);
    expect(paired?.interval?.[0]).toBeGreaterThan(0);
    expect(paired?.interval?.[1]).toBeLessThanOrEqual(0.5);
  });

  test('only problems both graded are paired, by id: differences 1, 0, 0 give a mean of 1/3 and bounds that are means of three of them', () => {
    const method = new Map([['p1', 1], ['p2', 0], ['p3', 1], ['p9', 1]]);
    const reference = new Map([['p3', 1], ['p2', 0], ['p1', 0], ['p4', 1]]);
    const paired = pairedDifference(method, reference, 3);
    expect(paired?.problems).toBe(3);
    expect(paired?.difference).toBeCloseTo(1 / 3, 12);
    const [low, high] = paired?.interval ?? [NaN, NaN];
    // A resample of the differences 1, 0, 0 has a mean of 0, 1/3, 2/3 or 1, and is all 0s with chance (2/3)³, over 2.5%.
    expect(low).toBe(0);
    expect([2 / 3, 1].some((bound) => Math.abs(high - bound) < 1e-12)).toBe(true);
    expect(pairedDifference(method, new Map([['p7', 1]]), 3)).toBeNull();
    expect(pairedDifference(new Map([['p1', 1]]), new Map([['p1', 0]]), 3)).toEqual({ difference: 1, interval: null, problems: 1 });
  });

  test('pairing takes out how hard each problem is: 10 points better everywhere is exactly +10, where the two intervals apart overlap', () => {
    const reference = byProblem([0, 0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.6, 0.4, 0.5]);
    const method = new Map([...reference].map(([problem, value]) => [problem, value + 0.1]));
    const paired = pairedDifference(method, reference, 5);
    expect(paired?.difference).toBeCloseTo(0.1, 12);
    expect(paired?.interval?.[0]).toBeCloseTo(0.1, 12);
    expect(paired?.interval?.[1]).toBeCloseTo(0.1, 12);
    const apart = [bootstrapInterval([...method.values()], 5), bootstrapInterval([...reference.values()], 5)];
    expect(apart[0]?.[0]).toBeLessThan(apart[1]?.[1] ?? 0);
    // Seeded: the same seed gives the same interval.
    expect(pairedDifference(method, byProblem([0.3, 0.2, 0, 0.9, 0.1, 0.4, 0.4, 0.6, 0.4, 0.5]), 9)).toEqual(pairedDifference(method, byProblem([0.3, 0.2, 0, 0.9, 0.1, 0.4, 0.4, 0.6, 0.4, 0.5]), 9));
  });
});
