/** The bounded window of recent values the gateway's estimates read from (src/gateway/load/recent-values.ts). */
import { describe, expect, test } from 'vitest';
import { createRecentValues } from '../../../src/gateway/load/recent-values.ts';

describe('recent values', () => {
  test('keeps only the last values added, and reads quantiles from them', () => {
    const recent = createRecentValues(4);
    expect(recent.quantile(0.5)).toBeNull();
    for (const value of [100, 200, 1, 2, 3, 4]) recent.add(value);
    expect(recent.size).toBe(4);
    // 100 and 200 are gone: 1, 2, 3, 4 remain.
    expect(recent.quantile(0)).toBe(1);
    expect(recent.quantile(0.5)).toBe(3);
    expect(recent.quantile(1)).toBe(4);
  });

  test('a value added after a reading moves the next reading', () => {
    const recent = createRecentValues(3);
    for (const value of [5, 6, 7]) recent.add(value);
    expect(recent.quantile(0.5)).toBe(6);
    recent.add(1);
    recent.add(2);
    // 5 and 6 are gone: 7, 1, 2 remain.
    expect(recent.quantile(0.5)).toBe(2);
    expect(recent.quantile(1)).toBe(7);
  });
});
