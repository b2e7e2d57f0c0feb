/**
 * A reply's body (a Node stream) as an async iterator that costs one promise
 * a read.
 *
 * Node's own iterator (`readable.iterator()`) is an async generator that
 * waits on a fresh promise for each `readable` event and yields each chunk,
 * and the transport wrapped it in a generator of its own: about thirty
 * promises a read. A server that streams one token an event (vLLM's and
 * SGLang's default) makes a read of each token, so that was most of what
 * tmas spent on a token. Here the stream flows: a chunk goes straight to the
 * read waiting for it, or is queued and the stream paused while chunks wait,
 * so that a reader slower than the server holds at most the stream's buffer
 * and the chunks already queued.
 *
 * What the reader relies on is kept: the end of the stream ends the reads;
 * an error, or the stream closed before its end (a connection reset), fails
 * the next read with the error `finished` reports (as Node's iterator, the
 * chunks still queued are dropped then); past `limit` bytes the reads end,
 * the last chunk cut there; a reader that stops early leaves the stream as
 * it is (not destroyed), its listeners removed, for `onStop` to drain or drop.
 */
import { finished, type Readable } from 'node:stream';

/** What the reads tell their owner, and how they fail. */
export interface ChunkReadsOptions {
  /** Bytes read at most: the chunk that passes them is cut there, and the reads end. */
  limit: number;
  /** The stream ended: every byte was read. */
  onEnd: () => void;
  /** The reads stopped before the stream's end: they failed, passed `limit`, or the reader returned. */
  onStop: () => void;
  /** The error a read fails with, from the stream's. */
  failure: (error: unknown) => Error;
}

/** The read waiting for the next chunk. */
interface Waiting {
  resolve: (result: IteratorResult<Buffer, void>) => void;
  reject: (error: unknown) => void;
}

/** Reads `stream` a chunk at a time. */
export function streamChunks(stream: Readable, options: ChunkReadsOptions): AsyncIterableIterator<Buffer, void> {
  return new StreamChunks(stream, options);
}

class StreamChunks implements AsyncIterableIterator<Buffer, void> {
  private readonly queue: Buffer[] = [];
  private waiting: Waiting | null = null;
  /** Undefined while the reads go on; null once they ended; the error once they failed. */
  private outcome: Error | null | undefined = undefined;
  private kept = 0;
  private stopWatching: (() => void) | null = null;
  private readonly onData = (chunk: Buffer) => this.take(chunk);

  constructor(
    private readonly stream: Readable,
    private readonly options: ChunkReadsOptions,
  ) {
    // A stream already closed is reported by `finished` too (an error unless it had ended).
    this.stopWatching = finished(stream, { writable: false }, (error) => this.settle(error ?? null));
    stream.on('data', this.onData);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Buffer, void>> {
    const chunk = this.queue.shift();
    if (chunk !== undefined) {
      if (this.queue.length === 0 && this.outcome === undefined) this.stream.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.outcome === null) return Promise.resolve({ done: true, value: undefined });
    if (this.outcome !== undefined) return Promise.reject(this.outcome);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** Stops reading: the stream is left to `onStop`. */
  return(): Promise<IteratorResult<Buffer, void>> {
    this.queue.length = 0;
    this.stop(null);
    return Promise.resolve({ done: true, value: undefined });
  }

  private take(chunk: Buffer): void {
    const room = this.options.limit - this.kept;
    this.kept += chunk.byteLength;
    const value = chunk.byteLength < room ? chunk : chunk.subarray(0, room);
    const waiting = this.waiting;
    if (waiting !== null) {
      this.waiting = null;
      waiting.resolve({ done: false, value });
    } else {
      this.queue.push(value);
      this.stream.pause();
    }
    if (value !== chunk) this.stop(null);
  }

  /** The stream ended (null) or failed. */
  private settle(error: unknown): void {
    if (this.outcome !== undefined) return;
    if (error === null) {
      this.outcome = null;
      this.detach();
      this.options.onEnd();
      this.waiting?.resolve({ done: true, value: undefined });
      this.waiting = null;
      return;
    }
    this.queue.length = 0;
    this.stop(this.options.failure(error));
  }

  /** The reads end before the stream's: `failure`, or null for an end by the limit or the reader. */
  private stop(failure: Error | null): void {
    if (this.outcome !== undefined) return;
    this.outcome = failure;
    this.detach();
    this.options.onStop();
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting === null) return;
    if (failure === null) waiting.resolve({ done: true, value: undefined });
    else waiting.reject(failure);
  }

  private detach(): void {
    this.stream.off('data', this.onData);
    this.stopWatching?.();
  }
}
