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
    const heap = this.heap;
    heap.push(call);
    let at = heap.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (compareHeld(heap[at] as T, heap[parent] as T) >= 0) break;
      [heap[at], heap[parent]] = [heap[parent] as T, heap[at] as T];
      at = parent;
    }
  }

  /**
   * The first `limit` calls in the order they would leave, without taking
   * them, one at a time so that a search stops where it finds: a frontier
   * of heap positions, each child entering once its parent has left (at most
   * `limit` + 1 of them, scanned for the best).
   */
  *leading(limit: number): Generator<T> {
    const heap = this.heap;
    const frontier = heap.length > 0 ? [0] : [];
    for (let found = 0; found < limit && frontier.length > 0; found++) {
      let best = 0;
      for (let i = 1; i < frontier.length; i++) if (compareHeld(heap[frontier[i] as number] as T, heap[frontier[best] as number] as T) < 0) best = i;
      const at = frontier[best] as number;
      frontier[best] = frontier[frontier.length - 1] as number;
      frontier.pop();
      for (const child of [2 * at + 1, 2 * at + 2]) if (child < heap.length) frontier.push(child);
      yield heap[at] as T;
    }
  }

  /** Takes the call that goes next. */
  pop(): T | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length === 0 || last === undefined) return top;
    heap[0] = last;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let best = at;
      if (left < heap.length && compareHeld(heap[left] as T, heap[best] as T) < 0) best = left;
      if (right < heap.length && compareHeld(heap[right] as T, heap[best] as T) < 0) best = right;
      if (best === at) break;
      [heap[at], heap[best]] = [heap[best] as T, heap[at] as T];
      at = best;
    }
    return top;
  }
}
