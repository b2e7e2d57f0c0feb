/**
 * A cumulative Prometheus histogram with fixed upper bounds, as vLLM exports
 * its latency histograms (`_bucket{le}`, `_sum`, `_count`).
 */

/** vLLM's bounds for `vllm:time_to_first_token_seconds`. */
export const TTFT_BOUNDS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560];
/** vLLM's bounds for `vllm:e2e_request_latency_seconds`. */
export const E2E_BOUNDS = [0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680];

/** Observations counted into fixed buckets. */
export interface Histogram {
  readonly bounds: readonly number[];
  /** Observations at or below each bound (not yet cumulative). */
  readonly counts: number[];
  sum: number;
  count: number;
}

/** An empty histogram over `bounds` (ascending). */
export function createHistogram(bounds: readonly number[]): Histogram {
  return { bounds, counts: bounds.map(() => 0), sum: 0, count: 0 };
}

/** Counts one observation. */
export function observe(histogram: Histogram, value: number): void {
  const index = histogram.bounds.findIndex((bound) => value <= bound);
  if (index >= 0) histogram.counts[index] = (histogram.counts[index] ?? 0) + 1;
  histogram.sum += value;
  histogram.count++;
}
