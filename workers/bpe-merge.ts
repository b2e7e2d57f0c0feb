/**
 * Byte-pair merging of one long piece in O(n log n), near O(n) on the long
 * pieces that occur (a character repeated, a pattern repeated).
 *
 * The merge rule is the one every BPE tokenizer here uses (js-tiktoken's
 * `bytePairMerge`, the Hugging Face library's `BPE.bpe`): join the adjacent
 * pair of lowest rank, the leftmost on a tie, until no pair has a rank. The
 * plain loop that rescans every pair after each join is quadratic: 40,000
 * repeated characters took 18 s, a 10 MB line days.
 *
 * Here the pairs wait in queues, one per rank, and the ranks that have pairs
 * waiting in a small heap; each rank's queue gives its leftmost pair. A join
 * changes only the pairs on either side of it: they are queued anew, and an
 * entry whose rank is no longer its pair's is skipped when it comes up (a
 * pair only ever grows, so an old rank never comes back to it). So pairs
 * come out in exactly the rule's order, and each join queues at most two.
 *
 * A rank's queue is a run of positions in ascending order, read from its
 * head, plus a heap for positions that arrive left of the run's tail. Pairs
 * are first queued left to right, and the joins of one rank go left to right
 * and queue their new pairs in that order, so on a repeated character nearly
 * every entry is an append and every pop a read at the head: sequential
 * memory, where one binary heap of all the pairs took 5 s on ten million
 * characters, most of it in cache misses.
 */

/**
 * A piece cut into its first parts (bytes, or characters), with the rank of
 * joining two adjacent parts. Each part has an id such that parts with the
 * same id are the same text: the rank of a pair is then a function of the
 * two ids, and is asked for once per distinct pair in a while (a repeated
 * character has a handful of distinct pairs among millions).
 */
export interface MergeInput {
  /** The parts' start offsets, ascending, then the piece's length: `count + 1` entries. */
  bounds: Int32Array;
  /** How many first parts. */
  count: number;
  /** The first parts' ids, non-negative; overwritten as parts join. */
  ids: Int32Array;
  /** The rank of the part spanning `[a, b)` joined with the one spanning `[b, c)`, in the piece's units; -1 when they do not join. */
  rank(a: number, b: number, c: number): number;
  /** The id of the part a join of each rank makes, by rank; absent when it is the rank itself (tiktoken: a join's rank is its token's). */
  joinedIds?: Int32Array;
}

/** A growable min-heap of integers. */
class IntHeap {
  items: Int32Array = new Int32Array(16);
  size = 0;

  push(value: number): void {
    if (this.size === this.items.length) this.items = grow(this.items);
    const items = this.items;
    let at = this.size++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if ((items[parent] as number) <= value) break;
      items[at] = items[parent] as number;
      at = parent;
    }
    items[at] = value;
  }

  /** Removes and returns the least value; the heap must not be empty. */
  pop(): number {
    const items = this.items;
    const top = items[0] as number;
    const last = items[--this.size] as number;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && (items[child + 1] as number) < (items[child] as number)) child++;
      if ((items[child] as number) >= last) break;
      items[at] = items[child] as number;
      at = child;
    }
    if (this.size > 0) items[at] = last;
    return top;
  }
}

function grow(items: Int32Array): Int32Array {
  const grown = new Int32Array(items.length * 2);
  grown.set(items);
  return grown;
}

/** The positions of the pairs of one rank: an ascending run read from its head, and a heap for the rest. */
class RankQueue {
  run: Int32Array = new Int32Array(16);
  head = 0;
  tail = 0;
  late = new IntHeap();

  get empty(): boolean {
    return this.head === this.tail && this.late.size === 0;
  }

  push(position: number): void {
    if (this.tail > this.head && position < (this.run[this.tail - 1] as number)) {
      this.late.push(position);
      return;
    }
    if (this.head === this.tail) this.head = this.tail = 0;
    if (this.tail === this.run.length) {
      // Reuse the space already read before growing.
      if (this.head > this.run.length >> 1) {
        this.run.copyWithin(0, this.head, this.tail);
        this.tail -= this.head;
        this.head = 0;
      } else this.run = grow(this.run);
    }
    this.run[this.tail++] = position;
  }

  /** Removes and returns the leftmost position; the queue must not be empty. */
  pop(): number {
    if (this.head === this.tail) return this.late.pop();
    const first = this.run[this.head] as number;
    if (this.late.size > 0 && (this.late.items[0] as number) < first) return this.late.pop();
    this.head++;
    return first;
  }
}

/** The pairs waiting to join: a queue per rank, and the ranks whose queue has entries in a heap, each once. */
class PairQueues {
  private readonly queues = new Map<number, RankQueue>();
  private readonly ranks = new IntHeap();
  // The queue of the rank popped last: joins of one rank come in long runs.
  private current: RankQueue | undefined;
  private currentRank = -1;

  /** The queue of `rank`, made on first use: held by the pair cache, so that a cached pair is queued without a lookup. */
  queueOf(rank: number): RankQueue {
    let queue = this.queues.get(rank);
    if (queue === undefined) this.queues.set(rank, (queue = new RankQueue()));
    return queue;
  }

  push(rank: number, queue: RankQueue, position: number): void {
    if (queue.empty) this.ranks.push(rank);
    queue.push(position);
  }

  get empty(): boolean {
    return this.ranks.size === 0;
  }

  /** The least rank waiting; the queues must not be empty. */
  get rank(): number {
    return this.ranks.items[0] as number;
  }

  /** Removes and returns the leftmost position of the least rank waiting. */
  pop(): number {
    const rank = this.ranks.items[0] as number;
    if (rank !== this.currentRank) {
      this.current = this.queues.get(rank);
      this.currentRank = rank;
    }
    const queue = this.current as RankQueue;
    const position = queue.pop();
    if (queue.empty) this.ranks.pop();
    return position;
  }
}

/** Entries of the cache of pair ranks by ids, at most: direct-mapped, a power of two (fewer for a short piece). */
const PAIR_CACHE_BITS = 12;

/** The ranks of pairs by their two ids, and their queues: a direct-mapped cache in front of `MergeInput.rank`. */
class PairCache {
  private readonly bits: number;
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly ranks: Int32Array;
  private readonly queues: Array<RankQueue | null>;
  /** The slot of the last lookup; `hit` says whether it held the pair. */
  slot = 0;

  constructor(count: number) {
    this.bits = Math.max(1, Math.min(PAIR_CACHE_BITS, 32 - Math.clz32(count)));
    this.left = new Int32Array(1 << this.bits).fill(-1);
    this.right = new Int32Array(1 << this.bits);
    this.ranks = new Int32Array(1 << this.bits);
    this.queues = new Array<RankQueue | null>(1 << this.bits).fill(null);
  }

  /** Looks the pair up; true when its slot holds it (then `rank` and `queue` read it). */
  hit(left: number, right: number): boolean {
    this.slot = Math.imul(Math.imul(left, 0x9e3779b1) ^ right, 0x85ebca6b) >>> (32 - this.bits);
    return this.left[this.slot] === left && this.right[this.slot] === right;
  }

  get rank(): number {
    return this.ranks[this.slot] as number;
  }

  get queue(): RankQueue | null {
    return this.queues[this.slot] ?? null;
  }

  /** Keeps a pair in the slot of the last lookup. */
  set(left: number, right: number, rank: number, queue: RankQueue | null): void {
    this.left[this.slot] = left;
    this.right[this.slot] = right;
    this.ranks[this.slot] = rank;
    this.queues[this.slot] = queue;
  }
}

/**
 * Merges a piece by its ranks; calls `emit(start, end)` for each final part,
 * left to right, when given. Returns how many parts remain.
 */
export function mergeParts(input: MergeInput, emit?: (start: number, end: number) => void): number {
  const { bounds, count, ids, rank } = input;
  const joinedIds = input.joinedIds ?? null;
  // Part i (a first part's index) spans bounds[i] to bounds[next[i]]; prev is -1 at the start, next is count at the end.
  const next = new Int32Array(count);
  const prev = new Int32Array(count);
  // The rank of part i joined with the one after it, or -1 (no pair, or part i was absorbed).
  const pairRank = new Int32Array(count).fill(-1);
  const cache = new PairCache(count);
  const waiting = new PairQueues();
  /** Sets the rank of the pair starting at part i, and queues it. */
  const rerank = (i: number) => {
    const j = next[i] as number;
    if (j === count) {
      pairRank[i] = -1;
      return;
    }
    const left = ids[i] as number;
    const right = ids[j] as number;
    if (!cache.hit(left, right)) {
      const r = rank(bounds[i] as number, bounds[j] as number, bounds[next[j] as number] as number);
      cache.set(left, right, r, r >= 0 ? waiting.queueOf(r) : null);
    }
    const r = cache.rank;
    pairRank[i] = r;
    const queue = cache.queue;
    if (queue !== null) waiting.push(r, queue, i);
  };
  for (let i = 0; i < count; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  for (let i = 0; i < count - 1; i++) rerank(i);

  let parts = count;
  while (!waiting.empty) {
    const r = waiting.rank;
    const i = waiting.pop();
    if (pairRank[i] !== r) continue;
    // Part i absorbs the part after it.
    const j = next[i] as number;
    const after = next[j] as number;
    pairRank[j] = -1;
    next[i] = after;
    if (after < count) prev[after] = i;
    ids[i] = joinedIds === null ? r : (joinedIds[r] as number);
    parts--;
    // The new pairs may rank below r: `waiting` then gives them first.
    rerank(i);
    const before = prev[i] as number;
    if (before >= 0) rerank(before);
  }
  if (emit !== undefined) for (let i = 0; i < count; i = next[i] as number) emit(bounds[i] as number, bounds[next[i] as number] as number);
  return parts;
}
