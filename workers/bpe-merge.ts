/**
 * Byte-pair merging of one long piece in O(n log n), near O(n) on the long
 * pieces that occur (a character repeated, a pattern repeated).
 *
 * The merge rule is the one every BPE tokenizer here uses (js-tiktoken's
 * `bytePairMerge`, the Hugging Face library's `BPE.bpe`): join the adjacent
 * pair of lowest rank, the leftmost on a tie, until no pair has a rank. The
 * plain loop that rescans every pair after each join is quadratic: tens of
 * thousands of repeated characters took seconds, and a 10 MB line would take
 * days.
 *
 * Here the pairs wait in queues, one per rank, and the ranks that have pairs
 * waiting in a small heap; each rank's queue gives its leftmost pair. A join
 * changes only the pairs on either side of it: they are queued anew, and an
 * entry whose rank is no longer its pair's is skipped when it comes up (a
 * pair only ever grows, so an old rank never comes back to it). So pairs
 * come out in exactly the rule's order, and each join queues at most two
 * (fewer: a pair whose right part is about to join at the rank being merged
 * is queued when that join re-ranks it, see `rerank`).
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
  /** The parts' start offsets, ascending, then the piece's length: `count + 1` entries; null when part i starts at i (bytes). */
  bounds: Int32Array | null;
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

/** Entries of a queue's first chunk; each later chunk holds twice the one before, up to CHUNK_MAX. */
const CHUNK_MIN = 16;
const CHUNK_MAX = 2 ** 16;

/**
 * The positions of the pairs of one rank: an ascending run read from its
 * head, and a heap for the rest. The run is a list of chunks, so that it
 * grows without a copy: a run of millions (a repeated character's first
 * rank) grown by doubling one array copied as much again, a large share of
 * a long piece's time.
 */
class RankQueue {
  private chunks: Int32Array[] = [];
  /** The chunk read from (chunks[first]), and where in it. */
  private headChunk: Int32Array = new Int32Array(CHUNK_MIN);
  private first = 0;
  private head = 0;
  /** The chunk written into (the last), and where next. */
  private tailChunk: Int32Array = this.headChunk;
  private tail = 0;
  /** The last position written into the run. */
  private last = -1;
  /** Positions in the run. */
  private size = 0;
  late = new IntHeap();

  constructor() {
    this.chunks.push(this.headChunk);
  }

  get empty(): boolean {
    return this.size === 0 && this.late.size === 0;
  }

  push(position: number): void {
    if (this.size > 0 && position < this.last) {
      this.late.push(position);
      return;
    }
    if (this.size === 0) {
      // Read to its end: start over in the last chunk, the ones before it are done with.
      if (this.first > 0) this.chunks = [this.tailChunk];
      this.headChunk = this.tailChunk;
      this.first = this.head = this.tail = 0;
    }
    if (this.tail === this.tailChunk.length) {
      this.tailChunk = new Int32Array(Math.min(CHUNK_MAX, this.tailChunk.length * 2));
      this.chunks.push(this.tailChunk);
      this.tail = 0;
    }
    this.tailChunk[this.tail++] = position;
    this.last = position;
    this.size++;
  }

  /** Removes and returns the leftmost position; the queue must not be empty. */
  pop(): number {
    if (this.size === 0) return this.late.pop();
    if (this.head === this.headChunk.length) {
      // A chunk read to its end is dropped: what a piece of millions has read is not held.
      this.chunks[this.first++] = EMPTY;
      this.headChunk = this.chunks[this.first] as Int32Array;
      this.head = 0;
    }
    const first = this.headChunk[this.head] as number;
    if (this.late.size > 0 && (this.late.items[0] as number) < first) return this.late.pop();
    this.head++;
    this.size--;
    return first;
  }
}

const EMPTY = new Int32Array(0);

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
 *
 * The parts form a linked list over the first parts' indices, held as gaps
 * (part i's next is i + 1 + gapNext[i], its previous i - 1 - gapPrev[i]) and
 * pair ranks held plus one, so that the arrays start as allocated, all zero:
 * filling them first would add a pass over every part to a long piece's time.
 */
export function mergeParts(input: MergeInput, emit?: (start: number, end: number) => void): number {
  const { bounds, count, ids, rank } = input;
  /** Where part i starts in the piece. */
  const at = (part: number): number => (bounds === null ? part : (bounds[part] as number));
  const joinedIds = input.joinedIds ?? null;
  const gapNext = new Int32Array(count);
  const gapPrev = new Int32Array(count);
  const nextOf = (i: number): number => i + 1 + (gapNext[i] as number);
  // The rank of part i joined with the one after it, plus one; 0: no pair, or part i was absorbed.
  const rankPlus = new Int32Array(count);
  const cache = new PairCache(count);
  const waiting = new PairQueues();
  /**
   * Sets the rank of the pair starting at part i, and queues it, unless the
   * part after it is to join its own right neighbour at `current`, the rank
   * being merged, below the pair's: that join comes first (its pair is queued
   * at the least rank, left of any other there), and re-ranks this pair then.
   * Half the pairs a repeated character queues were such, each dropped later.
   */
  const rerank = (i: number, current: number) => {
    const j = nextOf(i);
    if (j === count) {
      rankPlus[i] = 0;
      return;
    }
    const left = ids[i] as number;
    const right = ids[j] as number;
    if (!cache.hit(left, right)) {
      const r = rank(at(i), at(j), at(nextOf(j)));
      cache.set(left, right, r, r >= 0 ? waiting.queueOf(r) : null);
    }
    const r = cache.rank;
    rankPlus[i] = r + 1;
    const queue = cache.queue;
    if (queue !== null && !(r > current && rankPlus[j] === current + 1)) waiting.push(r, queue, i);
  };
  // No rank is being merged yet: every pair is queued.
  for (let i = 0; i < count - 1; i++) rerank(i, -2);

  let parts = count;
  while (!waiting.empty) {
    const r = waiting.rank;
    const i = waiting.pop();
    if (rankPlus[i] !== r + 1) continue;
    // Part i absorbs the part after it.
    const j = nextOf(i);
    const after = nextOf(j);
    rankPlus[j] = 0;
    gapNext[i] = after - i - 1;
    if (after < count) gapPrev[after] = after - i - 1;
    ids[i] = joinedIds === null ? r : (joinedIds[r] as number);
    parts--;
    // The new pairs may rank below r: `waiting` then gives them first. Pair i first: the pair before it looks at its rank.
    rerank(i, r);
    const before = i - 1 - (gapPrev[i] as number);
    if (before >= 0) rerank(before, r);
  }
  if (emit !== undefined) for (let i = 0; i < count; i = nextOf(i)) emit(at(i), at(nextOf(i)));
  return parts;
}
