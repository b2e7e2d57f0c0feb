/**
 * The windows in which a server's sequences shared its throughput, kept at
 * the largest batches seen: their median is the server's saturated
 * throughput (throughput-knee.ts). Not their highest: windows are noisy (a
 * counter summed from our streams more so), and the highest of many lies well
 * above the truth. Not those at small batches: on a server without a sharp
 * knee, windows at small batches share too, and give less.
 */

/** Saturated windows at the largest batches whose median is the saturated throughput. */
const SATURATED_KEPT = 15;
/** A saturated window counts at a batch of at least this fraction of the largest seen. */
const LARGE_BATCH = 0.5;

/** The median as the knee reads it: the upper of the two middle values; 0 when there are none. */
export function medianOf(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

/** The value four fifths of the way up (the second highest of five): what all but the lowest fifth reach; 0 when there are none. */
export function upperOf(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.8) - 1] ?? 0;
}

/** The recent saturated windows at the largest batches: their sequences running and throughput (tokens/ms). */
export class SaturatedWindows {
  private kept: Array<{ running: number; throughput: number }> = [];
  private largestBatch = 0;

  /** Windows kept. */
  get size(): number {
    return this.kept.length;
  }

  /** Keeps a saturated window among those at the largest batches. */
  keep(running: number, throughput: number): void {
    if (running < LARGE_BATCH * this.largestBatch) return;
    this.largestBatch = Math.max(this.largestBatch, running);
    this.kept = this.kept.filter((kept) => kept.running >= LARGE_BATCH * this.largestBatch).slice(-(SATURATED_KEPT - 1));
    this.kept.push({ running, throughput });
  }

  /** The window that ends the slow start is kept whatever its batch: the largest seen may have been a swing. */
  lowerLargestTo(running: number): void {
    this.largestBatch = Math.min(this.largestBatch, running);
  }

  /** The server's saturated throughput: the median of the windows kept. */
  peak(): number {
    return medianOf(this.kept.map((kept) => kept.throughput));
  }

  /** Forgets every window: the knee is measured afresh. */
  clear(): void {
    this.kept = [];
    this.largestBatch = 0;
  }
}
