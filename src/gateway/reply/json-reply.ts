/**
 * A streamed request answered with one JSON body instead of an event stream:
 * a server or proxy that ignores `stream: true` answers with the whole
 * `chat.completion`. Read as an event stream it held no `data:` line and
 * looked like an empty stream, retried until the call failed. Here such a
 * body is recognised by its first byte and read as the whole reply it is;
 * a JSON body that is no completion fails the call with a message naming
 * `--no-stream`.
 */
import { inBandErrorOf, InBandError } from './in-band-error.ts';
import { ReplyError } from './reply-bounds.ts';
import { unexpectedBody } from './unexpected-body.ts';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { fromWholeReply, type Reply } from './reply.ts';
import { ByteBuilder } from './byte-builder.ts';

/** A streamed request answered with JSON that is not a chat completion: the call fails at once (TMAS_NOT_STREAMED). */
export class NotStreamedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotStreamedError';
  }
}

/** A reply's body as it turned out to be: one JSON value, or an event stream; `body` holds every byte, those looked at included. */
export interface SortedBody {
  json: boolean;
  body: AsyncIterable<Uint8Array>;
}

/** The character a JSON object, and so a chunk or a completion, opens with. */
export const OPEN_BRACE = 0x7b;
const BYTE_ORDER_MARK = 0xfeff;
/** Space, tab, CR, LF, and the bytes of a UTF-8 byte-order mark, which may come before the JSON. */
const LEADING = new Set([0x20, 0x09, 0x0d, 0x0a, 0xef, 0xbb, 0xbf]);

/**
 * Whether a body is one JSON object rather than an event stream, told by its
 * first byte past white space whatever its label, as the label may be wrong
 * either way (a proxy that labels every body `application/json`, or every
 * answer to a streamed request `text/event-stream`, its error too): an event
 * stream's lines start with a field name or a colon, never with `{`. Before,
 * a body labelled an event stream was not looked at: an `{"error": …}` body
 * so labelled failed as one that holds no event, a context-length error
 * among them never refitted.
 */
export async function sortBody(body: AsyncIterable<Uint8Array>): Promise<SortedBody> {
  const chunks = body[Symbol.asyncIterator]();
  // White space before the first event is gathered into one buffer (sent a byte a chunk, up to the reply's byte limit, it was
  // an object per byte); made only when some comes in a chunk of its own, so a reply's first chunk is handed on uncopied.
  let seen: ByteBuilder | null = null;
  for (;;) {
    const { done, value } = await chunks.next();
    // An empty body is no JSON: read as a stream, it holds no event (sse.ts).
    if (done) return { json: false, body: rest(seen?.bytes() ?? null, chunks) };
    const first = value.findIndex((byte) => !LEADING.has(byte));
    if (first >= 0 && seen === null) return { json: value[first] === OPEN_BRACE, body: rest(value, chunks) };
    seen ??= new ByteBuilder();
    seen.push(value);
    if (first >= 0) return { json: value[first] === OPEN_BRACE, body: rest(seen.bytes(), chunks) };
  }
}

/** The bytes already read (null or empty: none), as one chunk, then the others; returning it stops the body. */
function rest(seen: Uint8Array | null, chunks: AsyncIterator<Uint8Array>): AsyncIterableIterator<Uint8Array, void> {
  return new ChunksAfterSeen(seen === null || seen.byteLength === 0 ? [] : [seen], chunks);
}

/**
 * The iterator of `rest`: past the chunks already read, each step is the
 * body's own (a read of a token an event costs no promise more here).
 */
class ChunksAfterSeen implements AsyncIterableIterator<Uint8Array, void> {
  private at = 0;

  constructor(
    private readonly seen: Uint8Array[],
    private readonly chunks: AsyncIterator<Uint8Array>,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array, void>> {
    const value = this.seen[this.at];
    if (value === undefined) return this.chunks.next() as Promise<IteratorResult<Uint8Array, void>>;
    this.at++;
    return Promise.resolve({ done: false, value });
  }

  async return(): Promise<IteratorResult<Uint8Array, void>> {
    await this.chunks.return?.();
    return { done: true, value: undefined };
  }
}

/**
 * The reply a JSON body to a streamed request holds: its chat completion;
 * the server's error for an `{"error": …}` body, as in an event stream; a
 * NotStreamedError naming `--no-stream` for anything else. A body that is
 * not JSON fails as parseBody says, retried as any unparseable body.
 */
export function fromJsonReply(text: string, headers: Headers): Reply {
  const value = parseBody(text, headers, 'a streamed request');
  refuseInBand(value, headers);
  const choice = (value as { choices?: unknown } | null)?.choices;
  // A chunk's `delta` in place of the message (a stream aggregated into its last chunk) is read as one (reply.ts textField).
  const first = Array.isArray(choice) ? (choice[0] as { message?: unknown; delta?: unknown } | undefined) : undefined;
  const message = first?.message ?? first?.delta;
  if (typeof message === 'object' && message !== null) return fromWholeReply(value as ChatCompletion);
  // A chat completion without its choice is a broken reply, retried as one; the server can stream or not alike.
  if (Array.isArray(choice)) throw new ReplyError('malformed', `the server answered with a chat completion that holds no choice with a message: ${text.slice(0, 200)}`);
  throw new NotStreamedError(
    `the server answered a streamed request with a JSON body that is not a chat completion (no choices[0].message): ${text.slice(0, 200)}. ` +
      'If it cannot stream, run with --no-stream.',
  );
}

/**
 * The reply a whole JSON body to a request that was not streamed holds: its
 * chat completion, or the server's error for an `{"error": …}` body under
 * the 200, as a streamed request's. Before, such a body read as "the
 * response has no choices": the server's words were lost, and a
 * context-length error said so was retried as a broken reply, its prompt
 * never refitted. A body that is not JSON fails as parseBody says.
 */
export function fromWholeJson(text: string, headers: Headers): Reply {
  const value = parseBody(text, headers, 'a request');
  refuseInBand(value, headers);
  // JSON that is no object (`null`, a number, a list) is a broken reply, retried as one: read as a completion, `null`
  // threw a TypeError ("Cannot read properties of null"), taken as the call's own fault and not retried.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ReplyError('malformed', `the server answered a request with JSON that is no chat completion (${text.trim().slice(0, 100)})`);
  }
  return fromWholeReply(value as ChatCompletion);
}

/**
 * A JSON body's value. A byte-order mark before it (as some proxies and
 * Windows servers write) is no part of it: JSON.parse refused it, and each
 * such reply was retried until the call failed. A body that is not JSON (a
 * login page under a 200) fails as malformed, naming its content type and
 * start and what to check; before, as the parser's "Unexpected token '<'".
 */
function parseBody(text: string, headers: Headers, request: 'a streamed request' | 'a request'): unknown {
  const json = text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
  try {
    return JSON.parse(json);
  } catch (error) {
    // JSON cut or damaged says where the parser stopped; a web page is shown by its start alone.
    const what = json.trimStart().charCodeAt(0) === OPEN_BRACE ? `that is not whole JSON (${(error as Error).message})` : 'that is not JSON';
    throw unexpectedBody(headers, json, what, request);
  }
}

/** Throws the server's error (InBandError) when `value` is an `{"error": …}` body, or an error object without that wrapper. */
function refuseInBand(value: unknown, headers: Headers): void {
  const error = inBandErrorOf(value);
  if (error !== null) throw new InBandError(error, headers);
}
