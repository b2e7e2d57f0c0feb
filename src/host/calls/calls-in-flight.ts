/**
 * A run's calls in flight: sent to the gateway and not yet journaled or
 * given up. The first Ctrl-C lets them finish (run-drain.ts): a hosted API
 * bills the tokens of a call aborted midway, and the resume would pay for it
 * again; this count is what the stop waits on and what it tells the user.
 */

/** The count, and who is told when a call leaves it. */
export interface CallsInFlight {
  readonly count: number;
  /** A call goes to the gateway. */
  enter(): void;
  /** The call is journaled, failed, or was not sent after all (the gateway drains). */
  leave(): void;
  /** Calls `listener` after each call that leaves; returns what stops it. */
  onLeave(listener: () => void): () => void;
}

/** Creates an empty count. */
export function createCallsInFlight(): CallsInFlight {
  let count = 0;
  const listeners = new Set<() => void>();
  return {
    get count() {
      return count;
    },
    enter() {
      count++;
    },
    leave() {
      count--;
      for (const listener of listeners) listener();
    },
    onLeave(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
