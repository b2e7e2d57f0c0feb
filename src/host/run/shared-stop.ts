/**
 * The stop that runs started together take as one (tmas table1's methods).
 *
 * A run-stopping failure (a refused key, a spent quota, a model no longer
 * served: run-stopping.ts) is a fact about the endpoint, which every run
 * started together calls through one gateway. Before, the method that met
 * it stopped at once, aborting its calls in flight, and each other method
 * did the same when its own next call met it: calls the API had answered,
 * and billed, were never journaled, and the resume paid them again. Now the
 * first such failure stops them all as the first Ctrl-C does: the shared
 * gateway sends no new call, and each run stops with that error once its
 * own calls in flight are journaled.
 */
import type { UserError } from '../../kernel/errors.ts';

/** One stop for the runs that share a gateway. */
export interface SharedStop {
  /** Stops every run with `error` (the first one given; later ones are dropped). */
  stop(error: UserError): void;
  /** Calls `listener` with the stop's error, at once if already stopped; returns what takes it off. */
  onStop(listener: (error: UserError) => void): () => void;
}

export function createSharedStop(): SharedStop {
  let stoppedWith: UserError | null = null;
  const listeners = new Set<(error: UserError) => void>();
  return {
    stop(error) {
      if (stoppedWith !== null) return;
      stoppedWith = error;
      for (const listener of [...listeners]) listener(error);
    },
    onStop(listener) {
      if (stoppedWith !== null) {
        listener(stoppedWith);
        return () => {};
      }
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
