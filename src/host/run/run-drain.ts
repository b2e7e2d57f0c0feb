/**
 * A run's drain: the first Ctrl-C. A hosted API bills the tokens a call
 * generated before it was aborted, and the resume sends that call again: in
 * one trial the server answered 24 requests against 2 journaled. So the
 * first Ctrl-C sends no new call (the gateway drains: gateway.ts), lets the
 * calls in flight finish and be journaled, then stops the run the way its
 * signal does (outputs written as of the completed iterations). Each call in
 * flight is bounded by the gateway's idle limit (--timeout) and total limit,
 * and is not retried during the drain: a server that hangs holds the stop no
 * longer than that. The second Ctrl-C (the run's signal) aborts them.
 */
import { TmasError, type UserError } from '../../kernel/errors.ts';
import type { Gateway } from '../../gateway/gateway.ts';
import type { CallsInFlight } from '../calls/calls-in-flight.ts';
import type { SharedStop } from './shared-stop.ts';

/** A run as its drain's owner (the CLI's Ctrl-C) sees it. */
export interface DrainingRun {
  /** The run's calls in flight now: sent, not yet journaled. */
  inFlight(): number;
  /** How long a call in flight may go without a byte before the gateway gives it up (--timeout). */
  idleLimitMs: number;
}

/** The drain a run is given: aborted by the first Ctrl-C. */
export interface RunDrain {
  readonly signal: AbortSignal;
  /** Each run tells, as it starts, how to count its calls in flight (for what the Ctrl-C tells the user). */
  watch(run: DrainingRun): void;
}

/** How often a drain looks whether text still streams in: a call that streams is not stuck. */
const STREAM_POLL_MS = 1_000;

/** What a run's drain watches. */
export interface DrainParts {
  gateway: Gateway;
  calls: CallsInFlight;
  idleLimitMs: number;
  /** Told of each call that leaves the drain and of text streamed meanwhile: the stop's deadline counts from the last. */
  progressed?: (() => void) | undefined;
}

/**
 * Once `drain` aborts: drains the gateway and rejects with TMAS_INTERRUPTED
 * when none of the run's calls is left in flight; never settles without a
 * drain. `dispose` takes its listener off the drain (the run is over).
 */
export function whenDrained(drain: RunDrain | undefined, parts: DrainParts): { drained: Promise<never>; dispose: () => void } {
  let dispose = () => {};
  const drained = new Promise<never>((_, reject) => {
    if (drain === undefined) return;
    const { gateway, calls, progressed } = parts;
    drain.watch({ inFlight: () => calls.count, idleLimitMs: parts.idleLimitMs });
    const start = () => {
      gateway.drain();
      let streamed = gateway.stats.streamedChars;
      const poll = setInterval(() => {
        if (gateway.stats.streamedChars === streamed) return;
        streamed = gateway.stats.streamedChars;
        progressed?.();
      }, STREAM_POLL_MS).unref();
      const check = () => {
        if (calls.count > 0) return;
        clearInterval(poll);
        off();
        reject(new TmasError('TMAS_INTERRUPTED', 'stopped once its calls in flight were journaled'));
      };
      const off = calls.onLeave(() => {
        progressed?.();
        check();
      });
      dispose = () => {
        clearInterval(poll);
        off();
      };
      // The calls the gateway held leave as its refusal reaches them: counted once they did.
      setImmediate(check);
    };
    if (drain.signal.aborted) start();
    else {
      drain.signal.addEventListener('abort', start, { once: true });
      dispose = () => drain.signal.removeEventListener('abort', start);
    }
  });
  drained.catch(() => {});
  return { drained, dispose: () => dispose() };
}

/**
 * The stop a call's failure asks for when every other call would fail alike
 * (a refused key, a spent quota, a refused field: run-stopping.ts). Before,
 * it stopped the run's actor at once, aborting the calls in flight: a hosted
 * API had answered (and billed) them, and the resume sent them again (a
 * spent quota after 3 answers: 3 paid, 2 journaled). The run now stops as
 * the first Ctrl-C does: no new call is sent, the calls in flight finish and
 * are journaled, then `stopped` rejects with the first such error. Runs that
 * share a gateway (a table's methods) share the stop too (shared-stop.ts):
 * one run's failure stops them all that way. `dispose` takes the run off it.
 */
export function stopOnceJournaled(parts: { gateway: Gateway; calls: CallsInFlight; shared?: SharedStop | undefined; waiting: (error: UserError, inFlight: number) => void }): { stopRun: (error: UserError) => void; stopped: Promise<never>; dispose: () => void } {
  let stopOwn: (error: UserError) => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    let asked = false;
    stopOwn = (error) => {
      if (asked) return;
      asked = true;
      parts.gateway.drain();
      const check = () => {
        if (parts.calls.count > 0) return;
        off();
        reject(error);
      };
      // At once when nothing is in flight: the run's actor may end (its problems stopped) before a later turn.
      if (parts.calls.count === 0) return reject(error);
      parts.waiting(error, parts.calls.count);
      const off = parts.calls.onLeave(check);
    };
  });
  stopped.catch(() => {});
  const { shared } = parts;
  const dispose = shared === undefined ? () => {} : shared.onStop((error) => stopOwn(error));
  return { stopRun: (error) => (shared === undefined ? stopOwn(error) : shared.stop(error)), stopped, dispose };
}
