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

/** The overload-driven in-flight limit of one endpoint. */
export interface AimdLimit {
  /** A call succeeded: additive increase. */
  onSuccess(): void;
  /** The endpoint answered 429 or 503; several in a row halve the limit (multiplicative decrease). */
  onOverload(): void;
  /** A call that had a slot under this limit finished, whatever its outcome: it counts towards the window. */
  onDone(): void;
  readonly limit: number;
  /** How many times the limit was halved. */
  readonly decreases: number;
}

/** Creates a limit that moves in [1, max]. The dispatcher (dispatcher.ts) holds the calls waiting under it. */
export function createAimdLimit(max: number): AimdLimit {
  if (!Number.isInteger(max) || max < 1) throw new TypeError(`max must be a positive integer, got ${max}`);
  let limit = max;
  let credit = 0;
  let decreases = 0;
  let overloadsInARow = 0;
  // Completions since the last halving; the first overload always counts.
  let sinceDecrease = Number.POSITIVE_INFINITY;

  return {
    onDone() {
      sinceDecrease++;
    },
    onSuccess() {
      overloadsInARow = 0;
      credit += 1 / limit;
      if (credit >= 1 && limit < max) {
        limit++;
        credit = 0;
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
    get decreases() {
      return decreases;
    },
  };
}
