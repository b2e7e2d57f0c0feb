/**
 * When a stream is whole. A server ends a stream with `data: [DONE]` and
 * closes its body, but one that sent its finish reason and its usage has
 * said all a reply holds: a server or proxy that then keeps the connection
 * open without `[DONE]` held each call until `--timeout` (10 calls at
 * `--timeout 20` took 84 s). So a stream is whole at its end, at `[DONE]`,
 * at the first usage that comes with or after its finish reason, or
 * `FINISH_GRACE_MS` after its finish reason when no usage came since: the
 * usage chunk and `[DONE]` follow the finish reason in the same write on
 * the servers we know (vLLM, SGLang, the simulator), so the grace only
 * waits out a proxy's flush. Then the connection is dropped. Text that comes
 * after the finish reason starts the grace again: a server that says "stop"
 * on every chunk is still writing, and cut 2 s after its first chunk, its
 * first words were taken as the whole reply. Reads without text (a proxy's
 * keep-alives) do not.
 */

/** What an event stream's reader (sse.ts) returns when the stream was closed by `data: [DONE]`, rather than by the end of its body. */
export const STREAM_DONE = '[DONE]';

/** How long a stream that sent its finish reason may take to send its usage or end. */
export const FINISH_GRACE_MS = 2_000;

/** How a stream that finished without its usage ends: after `graceMs`, `cut` drops its connection. */
export interface StreamGrace {
  graceMs: number;
  cut: () => void;
}

/** What the reader has seen of the stream so far. */
export interface StreamState {
  /** The chunks said a finish reason tmas knows (finish-reason.ts endsStream). */
  finished: boolean;
  /** A usage came with the finish reason or after it. */
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
  let finishedAt: number | null = null;
  // Whether the reads may still hold something to let go of: a return() then stops the body.
  let open = true;
  try {
    for (;;) {
      const deadline = finishedAt === null || grace === undefined ? null : finishedAt + grace.graceMs;
      const read = await nextRead(iterator, deadline);
      if (read === null) {
        // A read is still pending: the cut makes it fail, which nobody awaits, and ends the reads.
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
      if (finishedAt === null || text) finishedAt = performance.now();
    }
  } finally {
    if (open) await iterator.return?.();
  }
}

/**
 * The next read, or null when `deadline` (a performance.now() time) passes
 * first. Without a deadline, the read itself: no async wrapper, whose
 * promise a read of a token an event would pay for.
 */
function nextRead<T>(iterator: AsyncIterator<T>, deadline: number | null): Promise<IteratorResult<T> | null> {
  const next = iterator.next();
  return deadline === null ? next : raceDeadline(next, deadline);
}

/** `next`, or null when `deadline` passes first. */
async function raceDeadline<T>(next: Promise<IteratorResult<T>>, deadline: number): Promise<IteratorResult<T> | null> {
  let timer: NodeJS.Timeout | undefined;
  const over = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), Math.max(0, deadline - performance.now()));
  });
  try {
    const read = await Promise.race([next, over]);
    if (read === null) next.catch(() => {});
    return read;
  } finally {
    clearTimeout(timer);
  }
}
