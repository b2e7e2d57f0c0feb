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
  /** What it holds, for a summary over several samples (summarizeLatencies). */
  kept(): KeptLatencies;
}

/**
 * A sample as kept beyond its process (a run's metrics.json sums the processes
 * that ran it): how many latencies it saw, and those it kept, rounded to the
 * millisecond as the summary rounds them (rounding keeps their order, so the
 * quantiles come out the same).
 */
export interface KeptLatencies {
  count: number;
  values: number[];
}

/** Creates an empty sample. */
export function createLatencySample(random = Math.random): LatencySample {
  const kept: number[] = [];
  let count = 0;
  const sample: LatencySample = {
    add(ms) {
      count++;
      if (kept.length < RESERVOIR) kept.push(ms);
      else {
        const slot = Math.floor(random() * count);
        if (slot < RESERVOIR) kept[slot] = ms;
      }
    },
    summary: () => summarizeLatencies([sample.kept()]),
    kept: () => ({ count, values: kept.map((ms) => Math.round(ms)) }),
  };
  return sample;
}

/**
 * The quantiles of the latencies of several samples together. Each sample is
 * uniform over what it saw, so each gives a share of at most RESERVOIR values
 * in proportion to its count: one sample's summary is its own.
 */
export function summarizeLatencies(samples: readonly KeptLatencies[]): LatencySummary {
  const count = samples.reduce((sum, sample) => sum + sample.count, 0);
  const values = samples.flatMap((sample) => (count <= RESERVOIR ? sample.values : sample.values.slice(0, Math.ceil((RESERVOIR * sample.count) / count))));
  const sorted = values.sort((a, b) => a - b);
  const at = (q: number) => (sorted.length === 0 ? null : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0));
  return { count, p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}
