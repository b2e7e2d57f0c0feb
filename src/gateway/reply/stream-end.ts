/**
 * When a stream is whole. A server ends a stream with `data: [DONE]` and
 * closes its body, but one that sent its finish reason and its usage has
 * said all a reply holds: a server or proxy that then keeps the connection
 * open without `[DONE]` held each call until `--timeout` (10 calls at
 * `--timeout 20` took 84 s). So a stream is whole at its end, at `[DONE]`,
 * at the first usage that comes with or after its finish reason in a chunk
 * without text, past the reply's text or holding no choice of it (one with
 * text, or a role's chunk before any, may be a chunk of a server that says
 * "stop" and its usage so far on every chunk: its first words, or none, were
 * taken whole), or
 * `FINISH_GRACE_MS` after its finish reason when no usage came since: the
 * usage chunk and `[DONE]` follow the finish reason in the same write on
 * the servers we know (vLLM, SGLang, the simulator), so the grace only
 * waits out a proxy's flush. Then the connection is dropped. Text that comes
 * after the finish reason starts the grace again: a server that says "stop"
 * on every chunk is still writing, and cut 2 s after its first chunk, its
 * first words were taken as the whole reply. Reads without text (a proxy's
 * keep-alives) do not. A connection that breaks once the finish reason came
 * (a proxy that drops a stream as it ends, a server restarted) ends a whole
 * stream too, as the grace would have: the reply was failed and sent again,
 * its tokens decoded and paid for twice.
 */

/** What an event stream's reader (sse.ts) returns when the stream was closed by `data: [DONE]`, rather than by the end of its body. */
export const STREAM_DONE = '[DONE]';

/** How long a stream that sent its finish reason may take to send its usage or end. */
export const FINISH_GRACE_MS = 2_000;

/** How a stream that finished without its usage ends: after `graceMs`, `cut` drops its connection. */
export interface StreamGrace {
  graceMs: number;
  cut: () => void;
  /** Whether a read's failure is the connection breaking of itself (no bound of the call's cut it): after the finish reason, the stream is whole. */
  broke?: (error: unknown) => boolean;
}

/** What the reader has seen of the stream so far. */
export interface StreamState {
  /** The chunks said a finish reason tmas knows (finish-reason.ts endsStream). */
  finished: boolean;
  /** A usage came with the finish reason or after it, in a chunk without text, past the reply's text or holding no choice of it. */
  usageSinceFinish: boolean;
}

/**
 * Reads `reads` into `take` (which says whether a read brought text) until the stream is whole: its end, or, once
 * `state` shows a finish reason, its usage (the rest is not read: the
 * transport keeps the connection when the rest comes at once), or the grace
 * (then `grace.cut` drops the connection). Without `grace` a finished stream
 * without usage is read to its end. Returns what the reads returned at their
 * end (STREAM_DONE when `[DONE]` closed them), or undefined when the stream
 * was whole before it.
 */
export async function readUntilWhole<T>(reads: AsyncIterable<T>, state: StreamState, grace: StreamGrace | undefined, take: (read: T) => boolean): Promise<unknown> {
  const iterator = reads[Symbol.asyncIterator]();
  const clock = grace === undefined ? null : new GraceClock(grace.graceMs);
  // Whether the reads may still hold something to let go of: a return() then stops the body.
  let open = true;
  try {
    for (;;) {
      const next = iterator.next();
      const read = await (clock === null || clock.finishedAt === null ? next : clock.race(next)).catch((error: unknown) => {
        if (!state.finished || grace?.broke?.(error) !== true) throw error;
        open = false;
        return null;
      });
      if (read === null) {
        // A read is still pending (or the connection broke): the cut makes it fail, which nobody awaits, and ends the reads.
        next.catch(() => {});
        open = false;
        grace?.cut();
        return undefined;
      }
      if (read.done === true) {
        open = false;
        return read.value;
      }
      const text = take(read.value);
      if (!state.finished) continue;
      if (state.usageSinceFinish) return undefined;
      if (clock !== null && (clock.finishedAt === null || text)) clock.finishedAt = performance.now();
    }
  } finally {
    clock?.stop();
    if (open) await iterator.return?.();
  }
}

/**
 * The grace of a finished stream: one timer for the whole stream, not one a
 * read (a server that says `stop` on every chunk sends its finish reason a
 * token an event). Text that comes moves `finishedAt` on; the timer, when it
 * fires early, is set again for what is left, as the watchdog's idle timer is.
 */
class GraceClock {
  /** When the stream last finished (its finish reason, or text after it); null before. */
  finishedAt: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private passed = false;
  /** Ends the read now waiting with null, once the grace passed. A promise per read, none kept: a lasting one would hold a reaction of every read raced against it. */
  private endWait: ((value: null) => void) | null = null;

  constructor(private readonly graceMs: number) {}

  /** The read, or null once the grace from `finishedAt` passed first. */
  race<R>(next: Promise<R>): Promise<R | null> {
    if (this.passed) return Promise.resolve(null);
    if (this.timer === undefined) this.arm();
    return new Promise<R | null>((resolve, reject) => {
      this.endWait = resolve;
      next.then(resolve, reject);
    });
  }

  stop(): void {
    clearTimeout(this.timer);
    this.endWait = null;
  }

  private arm(): void {
    const left = (this.finishedAt ?? performance.now()) + this.graceMs - performance.now();
    this.timer = setTimeout(() => {
      if ((this.finishedAt ?? 0) + this.graceMs > performance.now()) return this.arm();
      this.passed = true;
      this.endWait?.(null);
      this.endWait = null;
    }, Math.max(0, left));
  }
}
