/**
 * Server-sent events of a streamed chat completion, read in one pass.
 *
 * The `openai` client's own reader copies the rest of its buffer after every
 * event it cuts off; a network read of 64 kB holds a few hundred chunk events,
 * so a 130,000-token stream was copied hundreds of megabytes over and the
 * garbage held the event loop (p99 delay over a second at 64 such streams).
 * Here each read is decoded once and split on line ends; only the unfinished
 * last line is carried over. The events of one read come out together: a
 * generator's step costs a few promises, and a read holds dozens of events.
 */
import { inBandErrorOf, InBandError } from './in-band-error.ts';
import { ReplyError } from './reply-bounds.ts';
import { STREAM_DONE } from './stream-end.ts';
import { SHOWN_CHARS, unexpectedBody } from './unexpected-body.ts';
import { OPEN_BRACE } from './json-reply.ts';


/**
 * A body that ended without a `data:` line: a proxy's or a captive portal's
 * web page under a 200, or a server that is not the one meant. Before, it
 * read as a stream cut short ("ended before a finish reason"), which named
 * neither what came nor what to check.
 */
function noEvents(headers: Headers, start: string): ReplyError {
  return unexpectedBody(headers, start, 'that holds no event', 'a streamed request');
}

/**
 * Keys of a chat completion chunk: data that holds one of them is a chunk,
 * damaged where it does not open with `{`, never a keep-alive.
 */
const CHUNK_KEYS = /"(?:choices|delta|content|finish_reason|usage)"/;

/**
 * Whether an event's data is a keep-alive rather than a chunk: a chunk is a
 * JSON object, which opens with `{`; some proxies and gateways send
 * `data: ping` (or `keep-alive`, `null`) while a generation runs. Parsed as
 * JSON, each failed its attempt: a stream that outlived the first one was
 * retried until the call failed for good. Data that opens with `{` and does
 * not parse is still a damaged reply.
 */
export function isKeepAlive(payload: string): boolean {
  return payload.trimStart().charCodeAt(0) !== OPEN_BRACE && !CHUNK_KEYS.test(payload);
}

/**
 * One event's data read: STREAM_DONE for `[DONE]`; null for nothing to
 * read (no data, or data of white space alone: a proxy's keep-alive, `data:`
 * and a blank line, which the event-stream format does not dispatch either;
 * or a keep-alive of words, told to `onKeepAlive`); else its JSON value, or
 * the failure it stands for as an Error, which no parsed JSON is (data that
 * is no JSON; the server's error, as an `{"error": …}` value or as the data
 * of an event named `error`). No wrapper object: this runs for every token.
 */
function readEvent(payload: string | null, errorEvent: boolean, headers: Headers, onKeepAlive?: (data: string) => void): unknown {
  if (payload === null) return null;
  // A chunk opens with `{`: the other checks, which trim, are for data that does not.
  if (payload.charCodeAt(0) !== OPEN_BRACE) {
    const trimmed = payload.trim();
    // `[DONE]` with white space around it (`data: [DONE] `) closes the stream as well.
    if (trimmed === STREAM_DONE) return STREAM_DONE;
    if (trimmed === '') return null;
    if (!errorEvent && isKeepAlive(payload)) {
      onKeepAlive?.(payload);
      return null;
    }
  }
  let event: unknown;
  try {
    event = JSON.parse(payload);
  } catch (error) {
    return errorEvent ? new InBandError(payload, headers) : (error as Error);
  }
  const error = inBandErrorOf(event);
  if (error !== null) return new InBandError(error, headers);
  return errorEvent ? new InBandError(event, headers) : event;
}

/** The value of a field's line (`data: x`, `data:x`), past its name and colon: one space after the colon is not part of it. */
function fieldValue(line: string, nameLength: number): string {
  return line.charCodeAt(nameLength + 1) === 32 ? line.slice(nameLength + 2) : line.slice(nameLength + 1);
}

/** What the reads of an event stream return at their end: STREAM_DONE when `data: [DONE]` closed them. */
type StreamEnd = typeof STREAM_DONE | undefined;

/**
 * The JSON payloads of the `data:` events of each read, until `data: [DONE]`
 * (then the reads end with STREAM_DONE: what follows, a second `[DONE]`
 * included, is not read) or the end; an `{"error": …}` event throws the
 * server's error. Data that is no JSON object and names no chunk's key is a
 * keep-alive (isKeepAlive), given to `onKeepAlive` and skipped.
 */
export function sseEvents(body: AsyncIterable<Uint8Array>, headers: Headers, onKeepAlive?: (data: string) => void): AsyncIterableIterator<unknown[], StreamEnd> {
  return new EventReads(body[Symbol.asyncIterator](), headers, onKeepAlive);
}

/**
 * The reads of sseEvents. An iterator written out rather than an async
 * generator: a generator's step costs a queue and several promises, and a
 * server that streams a token an event makes a read of each token; here a
 * read costs the one await on the body.
 */
class EventReads implements AsyncIterableIterator<unknown[], StreamEnd> {
  private readonly decoder = new TextDecoder();
  // The line still arriving, in the pieces it came in: joined once whole, so a long line costs its length, not its length
  // times its reads (a 10 MB line is 160 reads of 64 kB; scanning all it had so far on each was quadratic).
  private pending: string[] = [];
  // The event's data so far (its lines joined with a line end); null before its first `data:` line. No list per event: a stream has one per token.
  private data: string | null = null;
  // Whether the event so far was named `error` by an `event:` line: its data is the server's error, whatever its fields.
  private namedError = false;
  // A read that ended in a CR: a LF opening the next one belongs to that line's end, and ends no other line.
  private afterCr = false;
  // The body's start, kept until a `data:` line comes, for the error of a body without one.
  private start: string | null = '';
  /** A failure met after events of the same read: they go out first, and it is thrown at the next step. */
  private failure: Error | null = null;
  /** How the reads ended, once they did. */
  private end: { value: StreamEnd } | null = null;
  private closed = false;

  constructor(
    private readonly chunks: AsyncIterator<Uint8Array>,
    private readonly headers: Headers,
    private readonly onKeepAlive?: (data: string) => void,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<unknown[], StreamEnd>> {
    try {
      for (;;) {
        if (this.failure !== null) throw this.failure;
        if (this.end !== null) {
          await this.close();
          return { done: true, value: this.end.value };
        }
        const { done, value } = await this.chunks.next();
        const events = this.read(done === true ? null : value);
        if (events.length > 0) return { done: false, value: events };
      }
    } catch (error) {
      this.failure = null;
      this.end = { value: undefined };
      await this.close();
      throw error;
    }
  }

  async return(): Promise<IteratorResult<unknown[], StreamEnd>> {
    this.end ??= { value: undefined };
    await this.close();
    return { done: true, value: undefined };
  }

  /** Lets the body go (the transport keeps its connection when the rest comes at once): once, whatever ended the reads. */
  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.chunks.return?.();
  }

  /** The events a read (null: the body's end) completes; sets `end` at `[DONE]` or the body's end, `failure` at a failed event. */
  private read(value: Uint8Array | null): unknown[] {
    const done = value === null;
    let text = done ? this.decoder.decode() : this.decoder.decode(value, { stream: true });
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = text.endsWith('\r');
    if (this.start !== null && this.start.length < SHOWN_CHARS) this.start += text.slice(0, SHOWN_CHARS);
    // A line ends at CRLF, LF or a lone CR; the plain split, where there is no CR, is the common and cheaper case.
    const lines = text.includes('\r') ? text.split(/\r\n|\r|\n/) : text.split('\n');
    // The last piece is a line still arriving (or '' after a newline); at the end, a last line without its line end.
    const rest = lines.pop() ?? '';
    if (this.pending.length > 0 && lines.length > 0) {
      lines[0] = this.pending.join('') + (lines[0] ?? '');
      this.pending = [];
    }
    if (rest !== '') this.pending.push(rest);
    const events: unknown[] = [];
    for (const line of lines) {
      if (line !== '') this.field(line);
      else if (this.dispatch(events, false)) return events;
    }
    // A `data: [DONE]` line that has ended closes the stream without its blank line: a server that leaves it out and
    // holds the connection open was waited on until --timeout, and the reply it had finished was sent again and paid.
    // (Its data is a few characters: a long one is an event still coming, never trimmed at every read.)
    if (this.data !== null && this.data.length <= 32 && this.data.trim() === STREAM_DONE && this.dispatch(events, false)) return events;
    if (!done) return events;
    const last = this.pending.join('');
    this.pending = [];
    if (last !== '') this.field(last);
    // The body ended inside an event (no blank line after it): one that parses is read (a last `data: [DONE]` without
    // its blank line); one that does not was cut short by the end, and is dropped, as the event-stream format drops it.
    if (this.data !== null && this.dispatch(events, true)) return events;
    if (this.start !== null) this.failure = noEvents(this.headers, this.start);
    else this.end = { value: undefined };
    return events;
  }

  /**
   * Reads the event so far into `events`; true when the reads stop at it
   * (`[DONE]`, or a failure: the events before it in this read still reach
   * the reader, its first token, its progress). An event the body's end
   * `cutShort` whose data does not parse is dropped: a stream cut inside its
   * usage chunk, after its finish reason, failed as a damaged reply, and the
   * reply it had finished was sent again and paid twice; one cut before its
   * finish reason still ends before it, and is retried as such.
   */
  private dispatch(events: unknown[], cutShort: boolean): boolean {
    const event = readEvent(this.data, this.namedError, this.headers, this.onKeepAlive);
    this.data = null;
    this.namedError = false;
    if (event === null) return false;
    if (event === STREAM_DONE) {
      this.end = { value: STREAM_DONE };
      return true;
    }
    if (event instanceof Error) {
      if (cutShort && !(event instanceof InBandError)) return false;
      this.failure = event;
      return true;
    }
    events.push(event);
    return false;
  }

  /** A line of a field: `data:` adds to the event's data, `error:` and `event: error` make it the server's error. */
  private field(line: string): void {
    if (line.startsWith('data:')) {
      this.start = null;
      const value = fieldValue(line, 4);
      this.data = this.data === null ? value : `${this.data}\n${value}`;
    } else if (line.startsWith('error:')) {
      // llama.cpp's server writes an error met mid-stream as a field of its own (`error: {"code":500,"message":…}`), which
      // the event-stream format passes over: the stream then ended without a finish reason, the server's words lost.
      this.start = null;
      this.namedError = true;
      this.data = fieldValue(line, 5);
    } else if (line.startsWith('event:')) {
      // An event named `error` (as servers that name their events send one) is the server's error, its data without an `error` field.
      this.namedError = line.slice(6).trim() === 'error';
    }
    // Other names, `id:`, `retry:` and `:` comments carry nothing a chat completion needs.
  }
}
