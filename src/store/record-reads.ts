/**
 * Reading records many at a time. Each LevelDB read is a native call that
 * takes a snapshot under the database's lock and a trip through libuv's
 * threads, and a record with texts costs two more (its text lists, then its
 * chunks: text-store.ts). Read one by one, a replay of 332,202 messages spent
 * most of its main thread in them, waiting on that lock while the log was
 * written. Here a stream takes RECORD_BATCH records per call and a point read
 * joins the others asked in the same event-loop turn; each lot's texts are
 * read together.
 */
import { batchedRange, type RecordRange } from './records.ts';
import type { Put } from './write-queue.ts';
import { restoreFrom, type TextStore } from './text-store.ts';

/** Records a streamed read takes from LevelDB at once: FIRST_BATCH, then twice as many each time up to RECORD_BATCH. */
const FIRST_BATCH = 16;
const RECORD_BATCH = 256;

/** Keys in one point read. */
const GET_BATCH = 512;

/** What a read makes of an error restoring the record under `key` (a missing text is damage, named by its record). */
export type OnRestoreError = (error: unknown, key: string) => unknown;

/**
 * A sublevel's records in key order, as stored with their texts put back. Streams, in batches
 * that grow from FIRST_BATCH to RECORD_BATCH (a reader that wants a page reads little more).
 * `pick` cuts each stored record down to what the reader needs before its texts are read.
 */
export async function* streamRecords(
  sublevel: Put['sublevel'],
  texts: TextStore,
  options: { range: RecordRange; onError: OnRestoreError; pick?: (stored: unknown) => unknown },
): AsyncGenerator<[string, unknown]> {
  const pick = options.pick ?? ((stored: unknown) => stored);
  const iterator = sublevel.iterator(batchedRange(options.range));
  try {
    for (let size = FIRST_BATCH; ; size = Math.min(RECORD_BATCH, size * 2)) {
      const entries = (await iterator.nextv(size)).map(([key, stored]) => [key as string, pick(stored)] as const);
      if (entries.length === 0) return;
      const found = await texts.textsOf(entries.map(([, stored]) => stored));
      for (const [key, stored] of entries) yield [key, restoreOrThrow(stored, found, key, options.onError)];
    }
  } finally {
    await iterator.close();
  }
}

function restoreOrThrow(stored: unknown, found: Map<string, string>, key: string, onError: OnRestoreError): unknown {
  try {
    return restoreFrom(stored, found);
  } catch (error) {
    throw onError(error, key);
  }
}

/** A point read waiting for its turn's lot. */
interface Waiting {
  key: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Point reads of one sublevel, gathered per event-loop turn: the calls a
 * problem starts together (its N candidates, their N × M verifications) are
 * looked up in the journal with one read. `pick` cuts a stored record down to
 * what the reader needs before its texts are read.
 */
export class BatchedGets {
  private waiting: Waiting[] = [];

  constructor(
    private readonly sublevel: Put['sublevel'],
    private readonly texts: TextStore,
    private readonly onError: OnRestoreError,
    private readonly pick: (stored: unknown) => unknown = (stored) => stored,
  ) {}

  /** The record under `key` with its texts put back, or undefined. */
  get(key: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => void this.flush());
      this.waiting.push({ key, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const lot = this.waiting;
    this.waiting = [];
    for (let from = 0; from < lot.length; from += GET_BATCH) await this.read(lot.slice(from, from + GET_BATCH));
  }

  private async read(lot: Waiting[]): Promise<void> {
    try {
      const stored = (await this.sublevel.getMany(lot.map((each) => each.key))).map((value) => (value === undefined ? undefined : this.pick(value)));
      const found = await this.texts.textsOf(stored.filter((value) => value !== undefined));
      lot.forEach((each, i) => {
        const value = stored[i];
        if (value === undefined) each.resolve(undefined);
        else {
          try {
            each.resolve(restoreOrThrow(value, found, each.key, this.onError));
          } catch (error) {
            each.reject(error);
          }
        }
      });
    } catch (error) {
      for (const each of lot) each.reject(error);
    }
  }
}
