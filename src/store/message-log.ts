/**
 * The message log: a bus subscriber that writes every envelope to the store's
 * `messages` sublevel, keyed by sequence number, its long strings by digest
 * (texts.ts: a solution carried by M verification requests is stored once).
 * The store's write queue puts them on disk in order, a batch per event-loop
 * turn (see write-queue.ts).
 */
import type { Observable, Subscription } from 'rxjs';
import type { Envelope } from '../kernel/protocol.ts';
import type { Store } from './store.ts';

/** A running log writer. */
export interface MessageLog {
  /** Resolves once every envelope seen so far is on disk; rejects with the first write error. */
  flush(): Promise<void>;
  unsubscribe(): void;
}

/** Subscribes a log writer to the bus. */
export function writeMessageLog(envelopes$: Observable<Envelope>, store: Store): MessageLog {
  const subscription: Subscription = envelopes$.subscribe((envelope) => store.logMessage(envelope));
  return {
    flush: () => store.flushed(),
    unsubscribe: () => subscription.unsubscribe(),
  };
}
