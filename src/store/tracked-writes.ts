/**
 * The store's writes as its run sees them: each goes through the one queue
 * (write-queue.ts) and is tracked until it settles, so that closing the store
 * waits for every write made (an interrupted run loses no journaled call), and
 * the first that fails (a full disk, a lost mount) is kept and rejects
 * `failed`, so the runtime stops the run cleanly instead of going on without a
 * journal.
 */
import type { AbstractLevel } from 'abstract-level';
import { WriteQueue, type Put } from './write-queue.ts';

export class TrackedWrites {
  /** Writes not yet settled. */
  private readonly pending = new Set<Promise<unknown>>();
  private readonly queue: WriteQueue;
  private rejectFailed: (error: unknown) => void = () => {};

  /** The first write error, if any write failed. */
  error: unknown = null;

  /** Rejects with the first write that failed. */
  readonly failed: Promise<never> = new Promise<never>((_, reject) => {
    this.rejectFailed = reject;
  });

  constructor(db: AbstractLevel<any, string, any>) {
    this.failed.catch(() => {});
    this.queue = new WriteQueue(db);
  }

  /** Queues `puts` as one write, in order after those made before; resolves once it is on disk. */
  write(puts: Put[]): Promise<void> {
    const write = this.queue.write(puts);
    this.pending.add(write);
    const forget = () => this.pending.delete(write);
    write.then(forget, (error: unknown) => {
      forget();
      this.error ??= error;
      this.rejectFailed(error);
    });
    return write;
  }

  /** Serialises large values with `encode` (a pool thread) rather than on the main thread. */
  set encoder(encode: (value: unknown) => Promise<Uint8Array>) {
    this.queue.encoder = encode;
  }

  /** Resolves once every write made so far is on disk; rejects with the first write error. */
  async flushed(): Promise<void> {
    await this.queue.flushed();
    if (this.error !== null) throw this.error;
  }

  /** Resolves once every write made so far has settled, written or failed. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }
}
