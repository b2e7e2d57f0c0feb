/**
 * The rules the schedule benchmark (schedule.bench.ts) compares: how held
 * calls are ordered (tmas's rank, ranks by iterations only, first come first
 * served, or the clairvoyant bar), whether each phase waits for the whole
 * previous one, and how many calls the server gets.
 */
import { createCallRanks, type CallRanks } from '../../src/host/calls/call-ranks.ts';
import { tmasStrategy } from '../../machines/strategies/tmas/index.ts';
import type { Knowing } from './partial-knowledge.ts';

/** How held calls are ordered and how many go to the server. */
export interface Rule {
  label: string;
  /**
   * A fresh ranking per draw, null for first come first served, 'clairvoyant': each call ranked by the true
   * length of the longest chain from it to its problem's end (what no client can know: the bar for the others),
   * or `{ knows }`: that chain with only part of it true (partial-knowledge.ts).
   */
  ranks: ((iterations: number) => CallRanks) | 'clairvoyant' | { knows: Knowing } | null;
  /** Each phase of a problem waits for the whole previous phase (the asyncio-like client), instead of each call for its own inputs. */
  barrier: boolean;
  /**
   * How many calls the server gets: up to the true knee's cap (`knee`); while
   * its own queue is under the load limit's margin (`margin`: what tmas does
   * where no knee is found, a server whose KV cache binds first); or the
   * whole concurrency, the server queueing the rest (`none`).
   */
  limit: 'knee' | 'margin' | 'none';
  /** On a pool with slower replicas, a slow one takes the next held call rather than the one ranked last (scheduled-server.ts `slowTakesNext`). */
  slowTakesNext?: boolean;
}

/** The rules compared on the default server. */
export const RULES: Rule[] = [
  { label: 'tmas (rank by stages left, capped at the knee)', ranks: (iterations) => createCallRanks(iterations, tmasStrategy.stages), barrier: false, limit: 'knee' },
  { label: 'rank by iterations left (before stages), capped', ranks: (iterations) => createCallRanks(iterations), barrier: false, limit: 'knee' },
  { label: 'first come first served, capped', ranks: null, barrier: false, limit: 'knee' },
  { label: 'clairvoyant (true longest chain left first), capped', ranks: 'clairvoyant', barrier: false, limit: 'knee' },
];
/**
 * Where calls go on a pool with slower replicas, beside the order: as tmas
 * routed before, a slow replica with a free slot takes the next held call,
 * not the one ranked last (src/gateway/dispatch/routing.ts). Under the
 * clairvoyant ranking the call ranked last is the one with the most slack.
 */
export const SLOW_TAKES_NEXT: Rule[] = [
  { label: 'tmas, a slow replica taking the next call (before)', ranks: (iterations) => createCallRanks(iterations, tmasStrategy.stages), barrier: false, limit: 'knee', slowTakesNext: true },
  { label: 'clairvoyant, a slow replica taking the next call', ranks: 'clairvoyant', barrier: false, limit: 'knee', slowTakesNext: true },
];
/** The baseline every rule is compared with, on every shape. */
export const ASYNCIO: Rule = { label: 'asyncio-like (barrier per phase, server queue)', ranks: null, barrier: true, limit: 'none' };
/** tmas where the KV cache binds before decode: no knee is found (throughput-knee.ts sets such windows aside), the load limit keeps the server's queue short. */
export const TMAS_MEMORY_BOUND: Rule = { label: 'tmas (rank by stages left, server queue at its margin: no knee)', ranks: (iterations) => createCallRanks(iterations, tmasStrategy.stages), barrier: false, limit: 'margin' };
/**
 * Between tmas's rank and the bar: a ranking that knows the true lengths of
 * the problem's later iterations but not of the calls of the iteration under
 * way, and one that knows those but not the later ones (each unknown part as
 * the draw's mean). Where lengths do not depend on the problem, no client can
 * know either part before its calls are answered.
 */
export const PARTLY_CLAIRVOYANT: Rule[] = [
  { label: 'clairvoyant of the later iterations only', ranks: { knows: 'later' }, barrier: false, limit: 'knee' },
  { label: 'clairvoyant of the iteration under way only', ranks: { knows: 'current' }, barrier: false, limit: 'knee' },
];
