/**
 * A call answered in a smaller window than the run's. A call is keyed by the
 * window its prompt was fitted into (the journal key hashes the inputs of the
 * fit): one the server refused as too long, or one fitted at once into a
 * window a server stated to an earlier call, is journaled under the key of
 * the smaller window. A resume, a replay or a fork asks first under the run's
 * window; it would miss that record, and a replay, which sends nothing and so
 * never meets the refusal, could not find it at all (a run with any
 * context-length error replayed as diverging). So the key the call was asked
 * under is kept beside the record, naming the key and window it was answered
 * in: looked up there, the call is answered as it was.
 */

/** Where the call asked under a key (at the run's window) was answered. */
export interface Refit {
  /** The journal key of the record that answered it. */
  key: string;
  /** The window its prompt was fitted into. */
  window: number;
  /** The context-length errors it met on the way (0 when fitted at once into a window a server stated). */
  contextErrors: number;
}

/** Whether a stored value is a Refit (a store written by hand or damaged is read as holding none). */
export function isRefit(value: unknown): value is Refit {
  const refit = value as Partial<Refit> | null;
  return typeof refit?.key === 'string' && Number.isSafeInteger(refit.window) && Number.isSafeInteger(refit.contextErrors);
}
