/**
 * The records deduplication has kept so far (jaccard.worker.ts), as an
 * inverted index, shingle id → kept records that hold it: only records
 * sharing a shingle with a new one get an intersection count, and a record is
 * not even counted when its size, or the shingles left to scan, make
 * |A∩B| ≥ θ/(1+θ)·(|A|+|B|) impossible.
 */
import { similarity } from './shingles.ts';

/**
 * Pruning tests must never reject a pair that the exact formula would accept,
 * whatever the rounding: they reject only pairs below the threshold by this
 * relative margin, and the final decision uses `similarity` itself.
 */
const PRUNE_SLACK = 1 - 1e-9;

/** The kept records, each a size and its postings. */
export class KeptRecords {
  private readonly postings: number[][];
  private readonly sizes: number[] = [];
  private emptyKept = 0;
  /** Intersection counts, which live across queries; only the entries a query touched are reset. */
  private readonly shared: Int32Array;
  private readonly touched: number[] = [];
  private readonly ratio: number;
  private readonly threshold: number;

  /** An index of `shingles` shingle ids for at most `records` records, deduplicated at similarity `threshold`. */
  constructor({ shingles, records, threshold }: { shingles: number; records: number; threshold: number }) {
    this.postings = Array.from({ length: shingles }, () => []);
    this.shared = new Int32Array(records);
    this.ratio = (threshold / (1 + threshold)) * PRUNE_SLACK;
    this.threshold = threshold;
  }

  /** The index the next record added gets. */
  get size(): number {
    return this.sizes.length;
  }

  /** Adds a record of `size` distinct shingles (posted with `post`); returns its index. */
  add(size: number): number {
    if (size === 0) this.emptyKept += 1;
    return this.sizes.push(size) - 1;
  }

  /** Records that `record` holds shingle `id`. */
  post(id: number, record: number): void {
    this.postings[id]?.push(record);
  }

  /** Keeps a record whose shingles are `query` (ids, each once). */
  keep(query: readonly number[]): void {
    const record = this.add(query.length);
    for (const id of query) this.post(id, record);
  }

  /** Whether a record whose shingles are `query` is at least `threshold` similar to a kept one. */
  isDuplicate(query: readonly number[]): boolean {
    const { postings, sizes, shared, touched, threshold } = this;
    const size = query.length;
    // Records sharing no shingle have similarity 0 (or 1 between two empty texts).
    if (sizes.length > 0 && threshold <= 0) return true;
    if (size === 0) return this.emptyKept > 0 && similarity(0, 0, 0) >= threshold;
    if (threshold > 1) return false;

    // Rare shingles first: the long posting lists then come when few shingles are
    // left to scan, where the "cannot reach θ any more" test rejects most records.
    const order = query.slice().sort((a, b) => (postings[a]?.length ?? 0) - (postings[b]?.length ?? 0));
    const minSize = threshold * size * PRUNE_SLACK;
    const maxSize = size / (threshold * PRUNE_SLACK);
    for (let position = 0; position < order.length; position++) {
      const left = size - position;
      for (const record of postings[order[position] ?? 0] ?? []) {
        const count = shared[record] ?? 0;
        if (count === 0) {
          const other = sizes[record] ?? 0;
          if (other < minSize || other > maxSize || left < this.ratio * (size + other)) continue;
          touched.push(record);
        }
        shared[record] = count + 1;
      }
    }
    let duplicate = false;
    for (const record of touched) {
      if (!duplicate && similarity(size, sizes[record] ?? 0, shared[record] ?? 0) >= threshold) duplicate = true;
      shared[record] = 0;
    }
    touched.length = 0;
    return duplicate;
  }
}
