/**
 * Bounded summaries of a long simulated run: a timeline of time-averaged
 * values in at most `maxPoints` buckets (two neighbours merge and the bucket
 * width doubles when it would grow past that), and weighted quantiles over
 * binned values. Memory stays flat however long the run.
 */

/** One timeline bucket: its start and the time-averaged values over it (simulated seconds). */
export interface TimelinePoint {
  t: number;
  busy: number;
  waiting: number;
}

/** A bounded timeline of busy fraction and waiting requests. */
export interface Timeline {
  /** Records `busy` and `waiting` as constant over [from, from + duration). */
  add(from: number, duration: number, busy: number, waiting: number): void;
  points(): TimelinePoint[];
}

interface Bucket {
  covered: number;
  busy: number;
  waiting: number;
}

/** A timeline of at most `maxPoints` buckets, starting `width` simulated seconds wide. */
export function createTimeline(maxPoints = 2000, width = 1): Timeline {
  let buckets: Bucket[] = [];
  const compact = (): void => {
    const merged: Bucket[] = [];
    for (let i = 0; i < buckets.length; i += 2) {
      const [left, right] = [buckets[i], buckets[i + 1]];
      if (left === undefined) break;
      merged.push(right === undefined ? left : { covered: left.covered + right.covered, busy: left.busy + right.busy, waiting: left.waiting + right.waiting });
    }
    buckets = merged;
    width *= 2;
  };
  return {
    add(from, duration, busy, waiting) {
      let at = from;
      const end = from + duration;
      while (at < end) {
        const index = Math.floor(at / width);
        if (index >= maxPoints) {
          compact();
          continue;
        }
        while (buckets.length <= index) buckets.push({ covered: 0, busy: 0, waiting: 0 });
        const span = Math.min(end, (index + 1) * width) - at;
        const bucket = buckets[index] as Bucket;
        bucket.covered += span;
        bucket.busy += busy * span;
        bucket.waiting += waiting * span;
        at += span;
      }
    },
    points() {
      return buckets.map((bucket, index) => ({
        t: index * width,
        busy: bucket.covered > 0 ? bucket.busy / bucket.covered : 0,
        waiting: bucket.covered > 0 ? bucket.waiting / bucket.covered : 0,
      }));
    },
  };
}

/** Weighted quantiles over binned values. */
export interface Quantiles {
  add(value: number, weight?: number): void;
  /** The value below which a fraction `q` of the weight lies (the bin's representative value); 0 when empty. */
  quantile(q: number): number;
}

/** Exact quantiles of whole numbers (e.g. a queue length weighted by time). */
export function createCountQuantiles(): Quantiles {
  return createBinnedQuantiles((value) => Math.round(value), (bin) => bin);
}

/** Quantiles of non-negative durations in bins 1% wide (relative), from 1 ms up. */
export function createDurationQuantiles(): Quantiles {
  const floor = 1e-3;
  const step = Math.log(1.01);
  return createBinnedQuantiles(
    (value) => (value < floor ? 0 : Math.floor(Math.log(value / floor) / step) + 1),
    (bin) => (bin === 0 ? 0 : floor * Math.exp((bin - 0.5) * step)),
  );
}

function createBinnedQuantiles(binOf: (value: number) => number, valueOf: (bin: number) => number): Quantiles {
  const weights = new Map<number, number>();
  let total = 0;
  return {
    add(value, weight = 1) {
      if (!(weight > 0)) return;
      const bin = binOf(value);
      weights.set(bin, (weights.get(bin) ?? 0) + weight);
      total += weight;
    },
    quantile(q) {
      if (total === 0) return 0;
      const bins = [...weights.keys()].sort((x, y) => x - y);
      let seen = 0;
      for (const bin of bins) {
        seen += weights.get(bin) ?? 0;
        if (seen >= q * total) return valueOf(bin);
      }
      return valueOf(bins[bins.length - 1] ?? 0);
    },
  };
}
