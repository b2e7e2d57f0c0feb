/**
 * The message log: a bus subscriber that writes every envelope to the store.
 * It is the single writer of the `messages` sublevel, so batches land in
 * sequence order; envelopes are grouped into batches to keep the event loop
 * free at thousands of messages per second.
 */
import type { Observable, Subscription } from 'rxjs';
import type { Envelope } from '../protocol.ts';
import type { Store } from './store.ts';

/** A running log writer. */
export interface MessageLog {
  /** Resolves once every envelope seen so far is on disk; rejects with the first write error. */
  flush(): Promise<void>;
  unsubscribe(): void;
}

const BATCH_SIZE = 512;

/** Subscribes a log writer to the bus. */
export function writeMessageLog(envelopes$: Observable<Envelope>, store: Store): MessageLog {
  let buffer: Envelope[] = [];
  let writing: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  let scheduled = false;

  function drain(): void {
    scheduled = false;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    writing = writing.then(() => store.appendMessages(batch)).catch((error: unknown) => {
      failure ??= error;
    });
  }

  const subscription: Subscription = envelopes$.subscribe((envelope) => {
    buffer.push(envelope);
    if (buffer.length >= BATCH_SIZE) drain();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(drain);
    }
  });

  return {
    async flush() {
      drain();
      await writing;
      if (failure) throw failure;
    },
    unsubscribe: () => subscription.unsubscribe(),
  };
}
