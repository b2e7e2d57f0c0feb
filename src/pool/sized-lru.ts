/** A value held, its size, and whether it was read since it was set or last spared. */
interface Entry<V> {
  value: V;
  size: number;
  read: boolean;
}

/**
 * A cache bounded by the total size of its values (and, optionally, by their
 * number) that lets the least recently used go first, by the clock rule: an
 * entry read since it was set (or last spared) is spared once when its turn
 * to go comes, and moves behind the others. Used for what recurs while it is
 * hot and is too big to keep for long: prompt digests, fitted prompts,
 * encoded request bodies.
 *
 * Why not an exact LRU: moving an entry on every read costs two more lookups
 * of its key, and the keys are whole prompts (the digest cache alone took 3.5%
 * of the main thread that way); here a read is one lookup.
 *
 * @example
 * ```ts
 * const digests = new SizedLru<string, string>(16 * 2 ** 20);
 * digests.set(text, digest, text.length);
 * digests.get(text); // the digest, now spared once from going
 * ```
 */
export class SizedLru<K, V> {
  // A Map iterates in insertion order, so its first key is the next to go (or to be spared).
  private readonly entries = new Map<K, Entry<V>>();
  private size = 0;
  /**
   * The clock's hand: one iterator kept across sets, since a fresh one starts
   * over the holes every deletion leaves at the front (a run of spared entries
   * cost its length squared). It visits entries added behind it, spared ones
   * included, and everything before it is gone.
   */
  private hand: Iterator<[K, Entry<V>]> | null = null;

  constructor(
    private readonly maxSize: number,
    private readonly maxEntries = Number.POSITIVE_INFINITY,
  ) {}

  /** The value under `key`, now marked as read; undefined when absent. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.read = true;
    return entry.value;
  }

  /** Whether `key` is held, without marking it as read. */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Keeps `value` (of `size`) under `key`, then lets entries go, oldest first and sparing the read ones once, until within bounds. */
  set(key: K, value: V, size: number): void {
    this.delete(key);
    this.entries.set(key, { value, size, read: false });
    this.size += size;
    // Each entry is spared at most once (its mark is cleared), so the loop ends.
    while (this.size > this.maxSize || this.entries.size > this.maxEntries) {
      const oldest = this.nextInTurn();
      if (oldest === undefined) break;
      const [key, entry] = oldest;
      this.entries.delete(key);
      if (entry.read) {
        entry.read = false;
        this.entries.set(key, entry);
      } else {
        this.size -= entry.size;
      }
    }
  }

  /** The entry under the hand, which then moves on; a hand that reached the end starts again at the front. */
  private nextInTurn(): [K, Entry<V>] | undefined {
    for (let fresh = 0; fresh < 2; fresh++) {
      this.hand ??= this.entries.entries();
      const step = this.hand.next();
      if (!step.done) return step.value;
      this.hand = null;
    }
    return undefined;
  }

  /** Forgets `key`; with `only`, only while it still holds that value (a failed promise, say). */
  delete(key: K, only?: V): void {
    const entry = this.entries.get(key);
    if (entry === undefined || (only !== undefined && entry.value !== only)) return;
    this.entries.delete(key);
    this.size -= entry.size;
  }
}
