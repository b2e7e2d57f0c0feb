/**
 * The store's one writer. Every write of a run (journaled calls, the message
 * log, iteration marks) joins one first-in-first-out queue, and the queue
 * writes one LevelDB batch at a time, at most one per event-loop turn, of at
 * most BATCH_CHARS characters (or one write, when that is larger).
 *
 * Why one batch per turn: putting a value into a batch converts it to UTF-8
 * and copies it on the main thread, and serialising it is as dear. With
 * 130,000-token outputs, the writes that became due in one turn held the event
 * loop for tens of milliseconds; spread over turns, each costs a few.
 *
 * Why one queue: writes land in the order they were made, so a crash leaves a
 * prefix of them. A call is journaled before any message it caused, the
 * message log has no holes, and an iteration mark lands after its messages.
 *
 * Values are serialised by the writer, not when queued: a value must not be
 * changed after it is queued (messages and call records never are). Large
 * values are serialised and encoded on the encoder's thread when one is set.
 */
import type { AbstractLevel } from 'abstract-level';
import { approximateChars, OFF_THREAD_JSON_CHARS } from '../pool/approximate-chars.ts';

/** Any LevelDB database or sublevel with string keys; its other type parameters do not matter to a put. */
type Db = AbstractLevel<any, string, any>;

/**
 * The most characters of serialised values in one batch. Encoding a batch
 * holds the event loop for as long as it takes, several times longer when the
 * text holds any character beyond Latin-1 (V8 then stores it two bytes per
 * character) and again while the pool and the model server share the cores;
 * in the event-loop benchmark, halving the batch from 512 kB lowered the p99
 * delay.
 */
const BATCH_CHARS = 2 ** 18;

/** The most writes in one batch, so that many small ones also leave the loop free. */
const BATCH_WRITES = 512;

/** One put: `value` is written as JSON into `sublevel` under `key`. */
export interface Put {
  sublevel: Db;
  key: string;
  value: unknown;
}

/** A put as LevelDB's batch takes it: the value serialised here, or bytes from the encoder once it has encoded `source`. */
interface Operation {
  type: 'put';
  sublevel: Db;
  key: string;
  value: string | Uint8Array;
  valueEncoding: 'utf8' | 'view';
  source?: unknown;
}

/** Puts that land together (one atomic batch at most), and who waits for them. */
interface Write {
  puts: Put[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A FIFO writer over one LevelDB database. */
export class WriteQueue {
  private queue: Write[] = [];
  private head = 0;
  private busy = false;
  private failure: unknown = null;

  constructor(private readonly db: Db) {}

  /** Serialises and encodes large values to UTF-8 off the main thread, when set (see `Store.encodeWith`). */
  encoder: ((value: unknown) => Promise<Uint8Array>) | null = null;

  /** Queues puts that land in one batch; resolves once they are on disk. */
  write(puts: Put[]): Promise<void> {
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ puts, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once every write queued so far is on disk. */
  flushed(): Promise<void> {
    return this.write([]);
  }

  private schedule(): void {
    if (this.busy) return;
    this.busy = true;
    setImmediate(() => this.writeNext());
  }

  private writeNext(): void {
    const writes: Write[] = [];
    const operations: Operation[] = [];
    let chars = 0;
    // A value that cannot be serialised (a BigInt, a cycle) fails its write and
    // every later one; the writes before it still land, so the store holds a prefix.
    let unwritable: { write: Write; error: unknown } | null = null;
    while (this.head < this.queue.length && chars < BATCH_CHARS && operations.length < BATCH_WRITES) {
      const write = this.queue[this.head++] as Write;
      const before = operations.length;
      try {
        for (const { sublevel, key, value } of write.puts) {
          const size = this.encoder === null ? 0 : approximateChars(value);
          if (size >= OFF_THREAD_JSON_CHARS) {
            chars += size;
            operations.push({ type: 'put', sublevel, key, value: '', valueEncoding: 'view', source: value });
          } else {
            const json = JSON.stringify(value);
            chars += json.length;
            operations.push({ type: 'put', sublevel, key, value: json, valueEncoding: 'utf8' });
          }
        }
      } catch (error) {
        operations.length = before;
        unwritable = { write, error };
        break;
      }
      writes.push(write);
    }
    // Compact the array now and then rather than shifting it per write.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    const settle = (error: unknown) => {
      for (const write of writes) (error === null ? write.resolve() : write.reject(error));
      if (error === null && unwritable !== null) {
        unwritable.write.reject(unwritable.error);
        error = unwritable.error;
      }
      if (error !== null) this.fail(error);
      else if (this.head < this.queue.length) setImmediate(() => this.writeNext());
      else this.busy = false;
    };
    if (operations.length === 0) settle(null);
    else this.encodeLarge(operations).then(() => this.db.batch(operations as never)).then(() => settle(null), settle);
  }

  /** Has the encoder serialise and encode the large values of a batch. */
  private async encodeLarge(operations: Operation[]): Promise<void> {
    const encoder = this.encoder;
    if (encoder === null) return;
    await Promise.all(
      operations.map(async (operation) => {
        if (operation.source === undefined) return;
        operation.value = await encoder(operation.source);
        delete operation.source;
      }),
    );
  }

  /** After a failed write nothing more is written: what is queued is rejected, so the run stops on a prefix. */
  private fail(error: unknown): void {
    this.failure = error;
    for (const write of this.queue.slice(this.head)) write.reject(error);
    this.queue = [];
    this.head = 0;
  }
}
