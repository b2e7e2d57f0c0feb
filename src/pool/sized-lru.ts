/**
 * A least-recently-used cache bounded by the total size of its values (and,
 * optionally, by their number). Used for what recurs while it is hot and is
 * too big to keep for long: prompt digests, fitted prompts, encoded request
 * bodies.
 *
 * @example
 * ```ts
 * const digests = new SizedLru<string, string>(16 * 2 ** 20);
 * digests.set(text, digest, text.length);
 * digests.get(text); // the digest, now the most recently used
 * ```
 */
export class SizedLru<K, V> {
  // A Map iterates in insertion order, so its first key is the least recently used.
  private readonly entries = new Map<K, { value: V; size: number }>();
  private size = 0;

  constructor(
    private readonly maxSize: number,
    private readonly maxEntries = Number.POSITIVE_INFINITY,
  ) {}

  /** The value under `key`, which becomes the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` (of `size`) under `key`, then lets the least recently used go until within bounds. */
  set(key: K, value: V, size: number): void {
    this.delete(key);
    this.entries.set(key, { value, size });
    this.size += size;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= this.maxSize && this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
      this.size -= entry.size;
    }
  }

  /** Forgets `key`; with `only`, only while it still holds that value (a failed promise, say). */
  delete(key: K, only?: V): void {
    const entry = this.entries.get(key);
    if (entry === undefined || (only !== undefined && entry.value !== only)) return;
    this.entries.delete(key);
    this.size -= entry.size;
  }
}
