/**
 * Adaptive concurrency for one endpoint (AIMD, as TCP congestion control):
 * the in-flight limit starts at the global `--concurrency`, is halved when the
 * endpoint keeps saying it is overloaded (429 or 503 several times in a row,
 * with no success between) and grows by one per "window" of successes (a
 * window is as many successes as the current limit).
 *
 * "In a row" because an isolated 429 among successes is noise (a per-key rate
 * limit, a restart): halving on each would starve a healthy endpoint. At most
 * one halving per window: the calls already in flight when the overload began
 * were sent under the old limit, and their 429s say nothing new.
 */

/** Overload answers in a row that halve the limit. */
export const OVERLOADS_IN_A_ROW = 3;

/** The in-flight gate of one endpoint, with its current limit. */
export interface AimdGate {
  /** Waits for a free slot under the current limit. Rejects with the signal's reason if it aborts first. */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Frees a slot taken by `acquire`. */
  release(): void;
  /** A call succeeded: additive increase. */
  onSuccess(): void;
  /** The endpoint answered 429 or 503; several in a row halve the limit (multiplicative decrease). */
  onOverload(): void;
  readonly limit: number;
  readonly inFlight: number;
  readonly waiting: number;
  /** How many times the limit was halved. */
  readonly decreases: number;
}

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** Creates a gate whose limit moves in [1, max]. */
export function createAimdGate(max: number): AimdGate {
  if (!Number.isInteger(max) || max < 1) throw new TypeError(`max must be a positive integer, got ${max}`);
  let limit = max;
  let inFlight = 0;
  let credit = 0;
  let decreases = 0;
  let overloadsInARow = 0;
  // Completions since the last halving; the first overload always counts.
  let sinceDecrease = Number.POSITIVE_INFINITY;
  const waiters: Waiter[] = [];

  function pump(): void {
    while (inFlight < limit && waiters.length > 0) {
      const waiter = waiters.shift();
      if (!waiter) break;
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      inFlight++;
      waiter.resolve();
    }
  }

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (inFlight < limit && waiters.length === 0) {
        inFlight++;
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject, ...(signal ? { signal } : {}) };
        if (signal) {
          waiter.onAbort = () => {
            const at = waiters.indexOf(waiter);
            if (at >= 0) waiters.splice(at, 1);
            reject(signal.reason);
          };
          signal.addEventListener('abort', waiter.onAbort, { once: true });
        }
        waiters.push(waiter);
      });
    },
    release() {
      inFlight--;
      sinceDecrease++;
      pump();
    },
    onSuccess() {
      overloadsInARow = 0;
      credit += 1 / limit;
      if (credit >= 1 && limit < max) {
        limit++;
        credit = 0;
        pump();
      }
    },
    onOverload() {
      overloadsInARow++;
      if (overloadsInARow < OVERLOADS_IN_A_ROW || sinceDecrease < limit || limit === 1) return;
      overloadsInARow = 0;
      limit = Math.max(1, Math.floor(limit / 2));
      credit = 0;
      sinceDecrease = 0;
      decreases++;
    },
    get limit() {
      return limit;
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiters.length;
    },
    get decreases() {
      return decreases;
    },
  };
}
