/**
 * The calls the gateway holds back, ordered by rank: a binary heap, so that
 * thousands of held calls cost O(log n) each to add and to take. Calls of
 * equal rank leave in the order they came (the sequence number breaks ties),
 * which keeps the M verifications of one candidate, sent together, together
 * on the server, where they share a cached prefix.
 */
import type { CallRank } from '../reply/completion.ts';

/** One held call. */
export interface Held {
  readonly rank: CallRank;
  /** Arrival order; a retried call keeps its first one. */
  readonly sequence: number;
}

/** Negative when `a` goes before `b`. */
export function compareHeld(a: Held, b: Held): number {
  return (
    Number(a.rank.grading) - Number(b.rank.grading) ||
    b.rank.remaining - a.rank.remaining ||
    a.sequence - b.sequence
  );
}

/** A slower replica's pick is worth taking only at this share of the next call's rank or less, while the problems' costs differ. */
const SLOW_PICK_SHARE = 0.8;

/**
 * Whether a slower replica should stay idle rather than take `pick`, the call
 * ranked last, while `next` waits for a faster one: when the problems are
 * seen to cost differently (CallRank costsDiffer) and `pick`'s problem has
 * nearly as much left as `next`'s, the rank has named both as calls the run
 * waits on, and either would decode at the slower pace. A judge's call is
 * always taken. Replayed (30 x 3 x 8 x 8, two of four replicas at half speed,
 * lengths that depend on the problem, 72 draws): 1.159x -> 1.105x the bound;
 * with lengths independent of the problem the costs never differ enough and
 * nothing changes (idling there regardless cost 1.410x -> 1.457x at 0.8).
 */
export function slowReplicaWaits(pick: Held, next: Held): boolean {
  return next.rank.costsDiffer === true && !pick.rank.grading && pick.rank.remaining > SLOW_PICK_SHARE * next.rank.remaining;
}

/**
 * Held calls looked at, in the order they would leave, for one the replica
 * with room should take rather than the next (dispatcher.ts prefixFirst; the
 * plan's server does the same). On eight replicas (100 problems × 4
 * iterations × 8 × 8), prefix-cache hits were 56% looking at 128 calls, 59%
 * at 512 and 60% at 2,048, against one server's 61-62%: with more replicas, fewer
 * of the held calls are cached on the one that has room.
 */
export const PREFIX_LOOKAHEAD = 512;

/** A priority queue of held calls. */
export class HeldCalls<T extends Held> {
  private readonly heap: T[] = [];

  get size(): number {
    return this.heap.length;
  }

  /** The call that goes next, without taking it. */
  peek(): T | undefined {
    return this.heap[0];
  }

  push(call: T): void {
    this.heap.push(call);
    siftUp(this.heap, this.heap.length - 1, compareHeld);
  }

  /**
   * The first `limit` calls in the order they would leave, without taking
   * them, one at a time so that a search stops where it finds: a frontier
   * of heap positions, itself a heap, each child entering once its parent has
   * left (O(limit log limit) for the whole search; a frontier scanned
   * for its best at each step cost 1.8 ms a search of 512 calls, a heap 0.23 ms).
   */
  *leading(limit: number): Generator<T> {
    const heap = this.heap;
    const before = (a: number, b: number) => compareHeld(heap[a] as T, heap[b] as T);
    const frontier = heap.length > 0 ? [0] : [];
    for (let found = 0; found < limit && frontier.length > 0; found++) {
      const at = takeTop(frontier, before) as number;
      for (const child of [2 * at + 1, 2 * at + 2]) {
        if (child >= heap.length) continue;
        frontier.push(child);
        siftUp(frontier, frontier.length - 1, before);
      }
      yield heap[at] as T;
    }
  }

  /** Of the calls `accept` takes, the one that would leave last; a scan of the heap, O(n) (a slow replica's pick: dispatcher.ts). */
  last(accept: (call: T) => boolean): T | undefined {
    let last: T | undefined;
    for (const call of this.heap) if (accept(call) && (last === undefined || compareHeld(call, last) > 0)) last = call;
    return last;
  }

  /** Takes the call that goes next. */
  pop(): T | undefined {
    return takeTop(this.heap, compareHeld);
  }
}

/** Moves `heap[at]` up to its place in a binary heap ordered by `before` (negative: goes first). */
function siftUp<E>(heap: E[], at: number, before: (a: E, b: E) => number): void {
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (before(heap[at] as E, heap[parent] as E) >= 0) break;
    [heap[at], heap[parent]] = [heap[parent] as E, heap[at] as E];
    at = parent;
  }
}

/** Takes the first element of a binary heap ordered by `before`, and restores the heap. */
function takeTop<E>(heap: E[], before: (a: E, b: E) => number): E | undefined {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length === 0 || last === undefined) return top;
  heap[0] = last;
  let at = 0;
  for (;;) {
    const left = 2 * at + 1;
    const right = left + 1;
    let best = at;
    if (left < heap.length && before(heap[left] as E, heap[best] as E) < 0) best = left;
    if (right < heap.length && before(heap[right] as E, heap[best] as E) < 0) best = right;
    if (best === at) break;
    [heap[at], heap[best]] = [heap[best] as E, heap[at] as E];
    at = best;
  }
  return top;
}
