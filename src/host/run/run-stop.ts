/**
 * A run's stop (Ctrl-C, SIGTERM: its AbortSignal) at any moment of its life.
 * Once the run has a store, a stop ends it through the one path that writes
 * results.jsonl and metrics.json as of the completed iterations; before that,
 * during the start-up's slow steps (the endpoints' check, loading a
 * tokenizer), it ends the start at once with nothing written. A signal that was
 * already aborted counts: an abort listener added after the abort never runs,
 * which let a Ctrl-C in the first second go unseen until the 5 s deadline.
 */
import { TmasError } from '../../kernel/errors.ts';

/** Rejects with the abort's reason once `signal` aborts, at once if it already has; never settles without a signal. */
export function whenStopped(signal: AbortSignal | undefined): Promise<never> {
  const stopped = new Promise<never>((_, reject) => {
    if (!signal) return;
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  stopped.catch(() => {});
  return stopped;
}

/**
 * Awaits a step of the start-up made before the run has a store; a stop
 * meanwhile throws TMAS_INTERRUPTED (nothing was written). `abandon` disposes
 * of what the step makes when it finishes after the stop (a simulator it starts).
 */
export async function beforeStore<T>(step: Promise<T>, signal: AbortSignal | undefined, abandon: (value: T) => unknown = () => {}): Promise<T> {
  try {
    return await Promise.race([step, whenStopped(signal)]);
  } catch (error) {
    if (!signal?.aborted) throw error;
    step.then(abandon, () => {});
    throw new TmasError('TMAS_INTERRUPTED', 'Stopped before the run started: nothing was written. Run the same command again to start it.', { cause: error });
  }
}

/** A signal that aborts when either of `signals` does (the run's signal, its drain); undefined without either. */
export function eitherSignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const given = signals.filter((signal) => signal !== undefined);
  return given.length > 1 ? AbortSignal.any(given) : given[0];
}
