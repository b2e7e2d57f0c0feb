/**
 * Bounds on a reply, whatever the server does once it has answered: an idle
 * limit (no byte for that long aborts the attempt, from the request until the
 * last byte of the body, streamed or not), an optional total limit, and a cap
 * on the bytes a reply may have. Without them a body that trickles a byte
 * every few seconds, or an event stream that never ends, holds a call forever,
 * and a huge body is buffered whole.
 */

/** Why a reply was given up: `timeout` (idle or total limit), `malformed` (over the size cap, or an incomplete stream) or `unfinished` (the server said it ended the generation before it was done: finish-reason.ts). */
export type ReplyFault = 'timeout' | 'malformed' | 'unfinished' | 'other-model';

/** A reply that broke one of its bounds or its format; retried like a timeout or an unparseable body. */
export class ReplyError extends Error {
  constructor(
    readonly fault: ReplyFault,
    message: string,
  ) {
    super(message);
    this.name = 'ReplyError';
  }
}

/** Bytes a reply may have beyond what its completion limit explains (headers of the JSON, usage, an error body). */
const BASE_REPLY_BYTES = 1 << 20;
/** Bytes per completion token a whole JSON reply may take: a token is a few characters, escaped at worst six times. */
const JSON_BYTES_PER_TOKEN = 64;
/** Bytes per completion token an event stream may take: vLLM sends one ~250-byte chunk per token, usage may ride along. */
const STREAM_BYTES_PER_TOKEN = 1024;

/**
 * Bytes one log-probability entry of a token may take, as vLLM, SGLang and
 * OpenAI write one (`{"token": " alt", "logprob": -1.23, "bytes": [32, 97,
 * 108, 116]}`, about 70 bytes for a token of a few characters): room for
 * tokens three times as long.
 */
const LOGPROB_ENTRY_BYTES = 256;

/**
 * The log-probability entries each token of a reply carries, by what the
 * request asked (`--extra-body`): none without `logprobs`, else the token's
 * own and `top_logprobs` alternatives (a number for `logprobs`, as the
 * completions API and some servers take it, counts the alternatives). A reply
 * of top-20 log-probabilities takes about 1.6 KB a token: within the
 * stream's 1 KiB a token, a reply that used its whole limit was cut as
 * oversized and retried until it failed.
 */
export function logprobEntries(extraBody: Record<string, unknown> | undefined): number {
  const asked = extraBody?.['logprobs'];
  const count = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0);
  if (typeof asked === 'number') return asked > 0 ? 1 + count(asked) : 0;
  return asked === true ? 1 + count(extraBody?.['top_logprobs']) : 0;
}

/** The most bytes a reply to a request with this completion limit may have, each token with `logprobs` entries (logprobEntries). */
export function replyByteCap(maxTokens: number, stream: boolean, logprobs = 0): number {
  return BASE_REPLY_BYTES + maxTokens * ((stream ? STREAM_BYTES_PER_TOKEN : JSON_BYTES_PER_TOKEN) + logprobs * LOGPROB_ENTRY_BYTES);
}

/** The longest delay a Node timer takes (2^31 - 1 ms, 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The abort signal of one attempt, aborted when the caller aborts or a time limit passes. */
export interface Watchdog {
  /** Pass to fetch: aborting it drops the connection. */
  readonly controller: AbortController;
  /** Call on every byte received: restarts the idle limit. */
  touch(): void;
  /** Whether the reply is read as an event stream from now on: then bytes that bring no event (keep-alives) keep it alive for `keepAliveMs` at most. */
  readingEvents(on: boolean): void;
  /** Call when the reply brought something (text, reasoning, a count of tokens): restarts the keep-alive limit. */
  heard(): void;
  /** Call when the reply's first text came: starts an idle limit held until then (`idleFromText`). */
  textStarted(): void;
  /** The bound that aborted the attempt, as a ReplyError; null while none did. */
  readonly failure: ReplyError | null;
  /** Aborts the attempt for a broken bound. */
  fail(error: ReplyError): void;
  /** Stops the timers. */
  dispose(): void;
}

/** What bounds one attempt in time: see startWatchdog. */
export interface WatchdogLimits {
  idleMs: number;
  total: { ms: number; label: string } | null;
  /** How long an event stream may send keep-alives alone (bytes that bring no text nor count of tokens): `--keepalive-timeout`; none when absent. */
  keepAliveMs?: number;
  signal?: AbortSignal | undefined;
  idleFromText?: boolean;
}

/**
 * Starts the limits of one attempt. One timer serves the idle limit and the
 * keep-alive limit: it is rearmed only when it fires early, so a chunk costs
 * a clock read, not a timer; at thousands of chunks per second that matters.
 * With `idleFromText`, the idle limit starts with the reply's first text, the
 * total limit alone bounding the wait for it: a model that streams nothing
 * while it thinks (OpenAI's reasoning models) is silent for minutes before
 * its answer, and cut at the idle limit, each attempt was paid and sent again.
 *
 * Why a keep-alive limit: a proxy in front of a server that hung sends `: ping`
 * every few seconds, forever; each ping restarted the idle limit, so only the
 * total limit (10 min plus the completion limit at 2 tokens/s: hours) ended the
 * attempt. Keep-alives still keep a call alive (a model behind OpenRouter that
 * reasons in hidden is pinged for minutes, and cutting it pays it again), but
 * only for `keepAliveMs` since the reply last brought text or a count of tokens.
 */
export function startWatchdog(options: WatchdogLimits): Watchdog {
  const controller = new AbortController();
  const started = performance.now();
  let lastByte = started;
  let lastEvent = started;
  let events = false;
  const keepAliveMs = options.keepAliveMs ?? Number.POSITIVE_INFINITY;
  let failure: ReplyError | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let totalTimer: NodeJS.Timeout | undefined;
  const expire = (error: ReplyError) => {
    if (controller.signal.aborted) return;
    failure = error;
    controller.abort(error);
  };
  let idleArmed = false;
  const armIdle = (ms: number) => {
    idleArmed = true;
    idleTimer = setTimeout(() => {
      const now = performance.now();
      const quiet = now - lastByte;
      const pinged = events ? now - lastEvent : 0;
      if (quiet >= options.idleMs) expire(new ReplyError('timeout', `no byte from the server for ${secondsText(quiet)} s (--timeout ${options.idleMs / 1000})`));
      else if (pinged >= keepAliveMs) expire(new KeepAlivesOnlyError(pinged, keepAliveMs));
      else armIdle(Math.min(options.idleMs - quiet, events ? keepAliveMs - pinged : Number.POSITIVE_INFINITY));
    }, Math.min(ms, MAX_TIMER_MS));
  };
  if (options.idleFromText !== true) armIdle(Math.min(options.idleMs, keepAliveMs));
  if (options.total !== null) {
    const { ms, label } = options.total;
    // Node fires a longer timer at once (its delays are 32-bit); 24 days is no limit in practice anyway.
    totalTimer = setTimeout(() => expire(new ReplyError('timeout', `the call took longer than ${label}`)), Math.min(ms, MAX_TIMER_MS));
  }
  const onAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  return {
    controller,
    touch() {
      lastByte = performance.now();
    },
    readingEvents(on) {
      events = on;
      lastEvent = performance.now();
    },
    heard() {
      // The byte that brought it was just touched: no clock read more per token.
      lastEvent = lastByte;
    },
    textStarted() {
      if (idleArmed) return;
      lastByte = performance.now();
      lastEvent = lastByte;
      armIdle(Math.min(options.idleMs, keepAliveMs));
    },
    get failure() {
      return failure;
    },
    fail: expire,
    dispose() {
      clearTimeout(idleTimer);
      clearTimeout(totalTimer);
      options.signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** A time in seconds as a message shows it beside its flag: 0.3 for a limit of 0.3 s (rounded to whole seconds, it read "for 0 s"), whole from 10 s. */
function secondsText(ms: number): string {
  return ms < 10_000 ? String(Math.round(ms / 100) / 10) : String(Math.round(ms / 1000));
}

/** An event stream that sent keep-alives alone (`: ping`, empty or non-JSON events) for longer than `--keepalive-timeout`: a timeout, retried as one. */
export class KeepAlivesOnlyError extends ReplyError {
  constructor(
    readonly pingedMs: number,
    readonly limitMs: number,
  ) {
    super('timeout', `the server sent only keep-alives (comments such as ": ping", events without text) or bytes too slow to end one, for ${secondsText(pingedMs)} s (--keepalive-timeout ${limitMs / 1000})`);
    this.name = 'KeepAlivesOnlyError';
  }
}

/**
 * Bytes of a body read in one go before the event loop gets a turn. A body
 * already buffered (a fast server, or one catching up after a pause) is
 * otherwise read to its end in one chain of promises: a thinking-length event
 * stream is megabytes of events, and parsing them in one go held the loop long
 * enough to show in the event-loop benchmark's p99.
 */
const BYTES_PER_TURN = 64 * 1024;

/**
 * The body's chunks, touching the watchdog on each, failing (and dropping the
 * connection) once more than `cap` bytes arrived, so memory stays bounded
 * while a reply arrives. A reader that stops early returns the body's
 * iterator, which tells the transport the rest is not wanted.
 */
export function boundedBody(body: AsyncIterable<Uint8Array>, cap: number, watchdog: Watchdog): AsyncIterableIterator<Uint8Array, void> {
  return new BoundedChunks(body[Symbol.asyncIterator](), cap, watchdog);
}

/**
 * The chunks of boundedBody. An iterator written out rather than an async
 * generator: a server that streams a token an event makes a read of each
 * token, and a generator's step costs several promises where this costs the
 * one await on the body.
 */
class BoundedChunks implements AsyncIterableIterator<Uint8Array, void> {
  private size = 0;
  private sinceTurn = 0;

  constructor(
    private readonly chunks: AsyncIterator<Uint8Array>,
    private readonly cap: number,
    private readonly watchdog: Watchdog,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Uint8Array, void>> {
    if (this.sinceTurn >= BYTES_PER_TURN) {
      this.sinceTurn = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const read = await this.chunks.next();
    if (read.done === true) return { done: true, value: undefined };
    const value = read.value;
    this.watchdog.touch();
    this.size += value.byteLength;
    if (this.size > this.cap) {
      const error = new ReplyError('malformed', `the reply exceeded ${this.cap} bytes, more than its completion limit explains`);
      this.watchdog.fail(error);
      await this.chunks.return?.();
      throw error;
    }
    this.sinceTurn += value.byteLength;
    return read;
  }

  async return(): Promise<IteratorResult<Uint8Array, void>> {
    await this.chunks.return?.();
    return { done: true, value: undefined };
  }
}

