/**
 * The last few values of a measurement, and their quantiles: what the
 * gateway's estimates read from (times to first token, paces, characters per
 * token), so that one odd value moves none of them.
 */

/** A bounded window of the most recent values. */
export interface RecentValues {
  add(value: number): void;
  readonly size: number;
  /** The value at quantile `q` (0 to 1) of those kept, the lower one between two; null when none. */
  quantile(q: number): number | null;
}

/** Keeps the last `capacity` values added. */
export function createRecentValues(capacity: number): RecentValues {
  if (!Number.isInteger(capacity) || capacity < 1) throw new TypeError(`capacity must be a positive integer, got ${capacity}`);
  const values: number[] = [];
  let next = 0;
  // The values in order, kept until the next add: a pace is read at every routing decision, and a value is added once per call.
  let sorted: number[] | null = null;
  return {
    add(value) {
      if (values.length < capacity) values.push(value);
      else values[next++ % capacity] = value;
      sorted = null;
    },
    get size() {
      return values.length;
    },
    quantile(q) {
      if (values.length === 0) return null;
      sorted ??= [...values].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? null;
    },
  };
}
