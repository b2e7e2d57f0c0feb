/**
 * The calls the gateway holds back, ordered by rank: a binary heap, so that
 * thousands of held calls cost O(log n) each to add and to take. Calls of
 * equal rank leave in the order they came (the sequence number breaks ties),
 * which keeps the M verifications of one candidate, sent together, together
 * on the server, where they share a cached prefix.
 */
import type { CallRank } from '../reply/completion.ts';
import { IndexedHeap } from './indexed-heap.ts';

/** One held call. */
export interface Held {
  readonly rank: CallRank;
  /** Arrival order; a retried call keeps its first one. */
  readonly sequence: number;
}

/**
 * Stages of rank a call gives up for each stage of slack it has (CallRank
 * slack): enough that a call whose iteration waits on another branch goes
 * after the calls of a problem one or two stages behind it whose iteration
 * waits on them. Replayed (30 × 3 × 8 × 8 on four replicas, 12 draws): 1.156x
 * the bound with none, 1.140x at 1 and at 3 alike.
 */
export const SLACK_WEIGHT = 3;

/** What a held call is sent by: the chain left of its problem, less what its slack lets it wait. */
function urgencyOf(rank: CallRank): number {
  return rank.remaining - SLACK_WEIGHT * (rank.slack ?? 0);
}

/**
 * The rank a call waits by on a pool whose replicas are not all as fast: its
 * chain alone. There a call held back by its slack is the one a slower
 * replica takes (the call ranked last: dispatcher.ts slowerReplicaPick), and
 * it decodes at the slower pace long after its slack is gone (replayed, two
 * of four replicas at half speed, 24 draws: 1.411x the bound without slack,
 * 1.439x with it).
 */
export function withoutSlack(rank: CallRank): CallRank {
  // A copy even at a slack of 0: the run's own rank may be given a slack later (a call of its iteration ranked after
  // it at an earlier stage, then ended), and a ticket waiting by it would then move by it.
  return rank.slack === undefined ? rank : { ...rank, slack: 0 };
}

/** Negative when `a` goes before `b`. */
export function compareHeld(a: Held, b: Held): number {
  return (
    Number(a.rank.grading) - Number(b.rank.grading) ||
    urgencyOf(b.rank) - urgencyOf(a.rank) ||
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

/**
 * A priority queue of held calls, kept in both orders: the next call, the
 * first k down the line and the one ranked last each cost O(log n) a call
 * (O(k log k) for k), and a call taken from anywhere leaves at once. The
 * call ranked last was found by a scan of the whole heap, and calls taken
 * from inside it stayed until they surfaced: on a pool with slower replicas,
 * which take the calls ranked last, the heap grew with every one of them and
 * each pick scanned it all (200 problems x 4 iterations on four replicas, two
 * at half speed: the forecast took 15 s of CPU against 4 s with equal ones).
 */
export class HeldCalls<T extends Held> {
  private readonly inOrder = new IndexedHeap<T>(compareHeld);
  private readonly reversed = new IndexedHeap<T>((a, b) => compareHeld(b, a));

  get size(): number {
    return this.inOrder.size;
  }

  /** The call that goes next, without taking it. */
  peek(): T | undefined {
    return this.inOrder.peek();
  }

  push(call: T): void {
    this.inOrder.push(call);
    this.reversed.push(call);
  }

  /** The first `limit` calls in the order they would leave, without taking them, one at a time so that a search stops where it finds. */
  *leading(limit: number): Generator<T> {
    let found = 0;
    for (const call of this.inOrder.ordered()) {
      if (found++ >= limit) return;
      yield call;
    }
  }

  /** Of the calls `accept` takes, the one that would leave last (a slow replica's pick: dispatcher.ts). */
  last(accept: (call: T) => boolean): T | undefined {
    for (const call of this.reversed.ordered()) if (accept(call)) return call;
    return undefined;
  }

  /** Takes the call that goes next. */
  pop(): T | undefined {
    const top = this.inOrder.pop();
    if (top !== undefined) this.reversed.remove(top);
    return top;
  }

  /** Takes `call` out wherever it stands (one sent from inside the line). */
  remove(call: T): void {
    this.inOrder.remove(call);
    this.reversed.remove(call);
  }

  /** Gives held `call` its new slack, and its place in the line by it (a rank changed in place would break the heaps' order). */
  reslack(call: T, slack: number): void {
    if (!this.inOrder.remove(call)) {
      call.rank.slack = slack;
      return;
    }
    this.reversed.remove(call);
    call.rank.slack = slack;
    this.push(call);
  }
}
