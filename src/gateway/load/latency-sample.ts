/**
 * A bounded sample of latencies for their distribution in metrics.json: all of
 * them up to a size, then a uniform reservoir, so a run of a million calls
 * keeps a few hundred kilobytes.
 */

/** Quantiles of a latency sample in milliseconds; null fields when it is empty. */
export interface LatencySummary {
  count: number;
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

/** Latencies kept at most. */
const RESERVOIR = 20_000;

/** A latency sample. */
export interface LatencySample {
  add(ms: number): void;
  summary(): LatencySummary;
}

/** Creates an empty sample. */
export function createLatencySample(random = Math.random): LatencySample {
  const kept: number[] = [];
  let count = 0;
  return {
    add(ms) {
      count++;
      if (kept.length < RESERVOIR) kept.push(ms);
      else {
        const slot = Math.floor(random() * count);
        if (slot < RESERVOIR) kept[slot] = ms;
      }
    },
    summary() {
      const sorted = [...kept].sort((a, b) => a - b);
      const at = (q: number) => (sorted.length === 0 ? null : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0));
      return { count, p50: at(0.5), p90: at(0.9), p99: at(0.99) };
    },
  };
}
