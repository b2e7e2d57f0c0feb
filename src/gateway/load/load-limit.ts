/**
 * The in-flight limit of one server, kept near what the server runs plus a
 * small margin, so that calls wait in the gateway (where they are ordered by
 * rank) rather than in the server's first-come queue, while the server never
 * runs dry. Fed by readings of the server's load: its own `/metrics`
 * (server-load.ts) or, without them, what the gateway infers from its streams
 * (first-token.ts).
 *
 * On each reading: when more calls wait in the server's queue than the
 * margin, our limit drops by the excess; when (nearly) none wait and our
 * calls fill the limit, it grows by an eighth, so a server that frees room
 * (sequences finish, KV cache frees) is filled again within a few readings.
 * Requests waiting beyond all of our calls are another client's: against
 * those the limit grows as if none waited (see onReading).
 */
import type { ServerLoad } from './server-load.ts';

/** A server's load, read or inferred. */
export type LoadReading = Pick<ServerLoad, 'running' | 'waiting'>;

/** The load-driven limit of one server. */
export interface LoadLimit {
  readonly limit: number;
  /** The last reading, for progress and metrics; null before the first. */
  readonly last: LoadReading | null;
  /**
   * A reading taken while `inFlight` of our calls were on the server (and at
   * most `oursAtMost` while it answered; by default `inFlight`).
   */
  onReading(reading: LoadReading, inFlight: number, oursAtMost?: number): void;
}

/**
 * Calls allowed to wait in a server's own queue: enough that the room freed
 * between two readings is filled at once. On a server whose KV cache is the
 * limit, one long sequence's end frees room for several short ones: with an
 * eighth of the running sequences waiting, tmas kept level with a client that
 * queues everything there, where a twentieth left it behind; on a
 * decode-bound server the knee's cap binds first and it changes nothing (the
 * figures: bench/results.json, capacity-ablations, "a server whose KV cache
 * is the limit").
 */
export function marginOf(running: number): number {
  return Math.max(2, Math.ceil(running / 8));
}

/** Creates a limit that moves in [1, max] and starts at max (the first calls of a run are all alike). */
export function createLoadLimit(max: number): LoadLimit {
  if (!Number.isInteger(max) || max < 1) throw new TypeError(`max must be a positive integer, got ${max}`);
  let limit = max;
  let last: LoadReading | null = null;
  return {
    get limit() {
      return limit;
    },
    get last() {
      return last;
    },
    onReading(reading, inFlight, oursAtMost = inFlight) {
      last = reading;
      const margin = marginOf(reading.running);
      const grow = () => {
        if (inFlight >= limit - margin) limit = Math.min(max, limit + Math.max(margin, Math.ceil(limit / 8)));
      };
      // More waiting than all our calls: other clients share the server. Its queue is first come
      // first served, so holding ours back would only hand them our places, down to a call or two
      // in flight; ours compete for it instead, as under --server-queue server. (Ours already
      // streaming can be waiting again: a server short of KV cache preempts running sequences
      // back into its queue, so only the whole of ours bounds what is ours there.)
      if (reading.waiting - oursAtMost > margin) grow();
      else if (reading.waiting > margin) limit = Math.max(1, Math.min(limit, inFlight - (reading.waiting - margin)));
      else if (reading.waiting * 2 <= margin) grow();
    },
  };
}
