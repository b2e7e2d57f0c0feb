/**
 * The message bus: one RxJS Subject of envelopes that every message between
 * actors passes through. Delivery to actors, the message log, the progress
 * display and the metrics are all subscribers; none is a special case.
 */
import type { Observable } from 'rxjs';
// Subject alone, by the path rxjs exports it at (its package's "./internal/*"): the package's entry loads all of
// rxjs, 235 CommonJS modules and 0.17 CPU-s in every tmas process, for this one class (0.03 CPU-s by this path).
// It is the very module the entry re-exports, so a plugin's `import { Subject } from 'rxjs'` gets the same class.
import { Subject } from 'rxjs/internal/Subject';
import type { Envelope, Message } from './protocol.ts';
import { routeOf } from './routes.ts';

/** The bus as the runtime sees it. */
export interface Bus {
  /** Stamps a message with its sequence number, time and route, and delivers it to every subscriber. */
  publish(message: Message): Envelope;
  /** The stream of envelopes, in sequence order. */
  readonly envelopes$: Observable<Envelope>;
  /** Ends the stream: subscribers complete (the log writer flushes). */
  complete(): void;
}

/**
 * Creates a bus. `firstSeq` continues the sequence of an earlier log on resume.
 *
 * Delivery is synchronous and in order: a message published while another is
 * being delivered is queued and delivered after it, so every subscriber sees
 * the same order and `seq` is that order.
 */
export function createBus(options: { firstSeq?: number; now?: () => number } = {}): Bus {
  const subject = new Subject<Envelope>();
  const now = options.now ?? Date.now;
  let seq = options.firstSeq ?? 0;
  const queue: Envelope[] = [];
  let delivering = false;

  return {
    publish(message) {
      const envelope: Envelope = { seq: seq++, at: now(), ...routeOf(message), message };
      queue.push(envelope);
      if (!delivering) {
        delivering = true;
        try {
          for (let next = queue.shift(); next; next = queue.shift()) subject.next(next);
        } finally {
          delivering = false;
        }
      }
      return envelope;
    },
    envelopes$: subject.asObservable(),
    complete: () => subject.complete(),
  };
}
