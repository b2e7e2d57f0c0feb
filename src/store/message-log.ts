/**
 * The message log: a bus subscriber that writes every envelope to the store.
 * It is the single writer of the `messages` sublevel, so batches land in
 * sequence order; envelopes are grouped into batches (of at most BATCH_SIZE
 * envelopes and BATCH_CHARS characters) to keep the event loop free at
 * thousands of messages per second and with 130,000-token messages.
 */
import type { Observable, Subscription } from 'rxjs';
import type { Envelope } from '../protocol.ts';
import { BATCH_CHARS, type Store } from './store.ts';

/** A running log writer. */
export interface MessageLog {
  /** Resolves once every envelope seen so far is on disk; rejects with the first write error. */
  flush(): Promise<void>;
  unsubscribe(): void;
}

const BATCH_SIZE = 512;

/** Subscribes a log writer to the bus. */
export function writeMessageLog(envelopes$: Observable<Envelope>, store: Store): MessageLog {
  let buffer: Array<{ seq: number; json: string }> = [];
  let bufferChars = 0;
  let writing: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  let scheduled = false;

  function drain(): void {
    scheduled = false;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    bufferChars = 0;
    writing = writing.then(() => store.appendMessages(batch)).catch((error: unknown) => {
      failure ??= error;
    });
  }

  const subscription: Subscription = envelopes$.subscribe((envelope) => {
    // Serialised as it arrives, so a batch of large messages is not encoded all at once.
    const json = JSON.stringify(envelope);
    buffer.push({ seq: envelope.seq, json });
    bufferChars += json.length;
    if (buffer.length >= BATCH_SIZE || bufferChars >= BATCH_CHARS) drain();
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
