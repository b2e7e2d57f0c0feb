/**
 * The `fetch` the gateway gives the `openai` client: a request over Node's own
 * `http` and `https` modules, on keep-alive agents, whose reply is read as a
 * Node stream.
 *
 * Why not the global `fetch`: undici's fetch builds web streams for every
 * request and every reply (a ReadableStream for the body sent, one for the
 * body received, their controllers, readers and promises per chunk), and
 * those were the main thread's largest cost after garbage collection, at
 * hundreds of calls a second. The openai client only needs what it reads of a
 * Response: the status, the headers, `text()` for an error's message; the
 * gateway reads the body itself (reply-bounds.ts).
 *
 * What a call needs of it, and gets:
 * - the caller's signal aborts the request at any point, the body included;
 * - an error answer's body is read up to `MAX_ERROR_BODY_BYTES` only, since
 *   the client reads it whole for its message and a proxy may answer with
 *   megabytes or never end it, and its message is put where the client
 *   reads it, whichever server's shape it came in (error-body.ts);
 * - a successful answer read whole (`text()`, `json()`: a model list, a
 *   probe's one-token completion) fails past `MAX_ANSWER_BYTES`, decoded: a
 *   `GET /models` that never ended held 1.1 GB after 10 s, where only its
 *   time was bounded (a completion's body is bounded by the gateway);
 * - a body left before its end (an event stream read up to `[DONE]`) gives
 *   its connection back when the rest is already here or follows at once,
 *   and drops it otherwise;
 * - a compressed reply is decompressed (content-coding.ts), and 307/308 redirects are followed as
 *   fetch would (a few hops, with the body sent again), each told to
 *   `onRedirect`; a key refused after it was left behind at a redirect to
 *   another server is said to have been (redirects.ts);
 * - a request on a kept connection that the server had closed is sent again
 *   on another connection, as the server never read it;
 * - an answer's headers may take up to `MAX_HEADER_BYTES`, not Node's 16 KiB:
 *   a proxy's cookies and debug headers passed that, and the run was refused
 *   as 'Cannot reach the model endpoint' with a parser's 'Header overflow';
 * - an endpoint goes through the proxy the environment names for it
 *   (HTTPS_PROXY, HTTP_PROXY, NO_PROXY: proxy/proxy-env.ts), on agents that keep
 *   their connections too (proxy/proxy-agents.ts); what is above holds there alike.
 */
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { ByteBuilder, readAll } from '../reply/byte-builder.ts';
import { openAiErrorBody } from './error-body.ts';
import { keyLeftBehind, redirectLoopNote, withNote, type Redirect } from './redirects.ts';
import { streamChunks } from './stream-chunks.ts';
import { decodedBody, decodingFailure } from './content-coding.ts';
import { portOf } from './proxy/no-proxy.ts';
import { proxyRoute } from './proxy/proxy-env.ts';
import { CALL_SIGNAL, ProxyRefusedError } from './proxy/proxy-agents.ts';
import { createTransportAgents } from './transport-agents.ts';
import { thrownText } from '../../kernel/thrown-text.ts';

/** Bytes of an error body kept: far more than any message worth showing. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Bytes of a successful answer read whole: a model list of hundreds of models is a few megabytes. */
export const MAX_ANSWER_BYTES = 32 * 2 ** 20;

/** A successful answer read whole that passed its byte limit. */
export class AnswerTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the answer went on past ${limit / 2 ** 20} MiB`);
    this.name = 'AnswerTooLargeError';
  }
}

/** Bytes of an answer's status line and headers: a proxy's cookies and tracing headers take tens of kilobytes; a megabyte is none of theirs. */
export const MAX_HEADER_BYTES = 256 * 1024;

/** An answer whose headers passed MAX_HEADER_BYTES. */
export class HeadersTooLargeError extends Error {
  constructor(cause: unknown) {
    super(`the answer's headers pass ${MAX_HEADER_BYTES / 1024} KiB: a proxy in front of the server adds that many (cookies, debug or tracing headers); have it send fewer, or give the server's own address as the base URL`, { cause });
    this.name = 'HeadersTooLargeError';
  }
}

/** Redirects followed before the last answer is returned as it is. */
const MAX_REDIRECTS = 5;

/**
 * Times a request is sent again after a kept connection turned out closed by
 * the server: once, on a fresh connection. Not on another kept one: the
 * others kept as long may be closed too (a proxy that drops idle connections
 * without a word, a server that closes each as it is reused), and a chain of
 * them failed a call in the suite. A fresh connection that fails is the
 * gateway's retries' business, which count and space them.
 */
const MAX_RESENDS = 1;

/** How long a body left before its end may take to finish, and how much it may still send, before its connection is dropped instead of reused. */
const DRAIN_MS = 1_000;
const DRAIN_BYTES = 64 * 1024;

/** The connection broke while a reply's body was arriving: a reset, a close before the promised length, a corrupt compressed body. */
export class ConnectionLostError extends Error {
  constructor(cause: unknown) {
    super(`the connection broke while the reply arrived (${thrownText(cause)})`, { cause });
    this.name = 'ConnectionLostError';
  }
}

/** A reply's body as the gateway reads it: its chunks, and a way to stop reading early. */
export interface ReplyBody extends AsyncIterable<Uint8Array> {
  /** Stops reading: the connection is kept when the rest comes at once, dropped otherwise. */
  cancel(): void;
}

/** The part of a fetch Response the openai client and the gateway use. */
export interface TransportResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected: boolean;
  readonly body: ReplyBody;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

/** A `fetch` over keep-alive agents of its own. */
export interface HttpTransport {
  /** A request, answered with what the gateway reads of a reply. */
  request(url: string | URL, init?: RequestInit): Promise<TransportResponse>;
  /** The same, typed as the `openai` client's `fetch` option wants it. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Closes its connections, those of calls still in flight too (they fail). */
  close(): void;
}

/** Where a request is on its way: the redirects it followed, and the one at which its API key was left behind, if any. */
interface Hops {
  redirects: number;
  keyLeft: Redirect | null;
  /** The addresses the request was sent to so far, the first included. */
  visited: string[];
}

/** Creates a transport; each keeps its own connections. */
export function createHttpTransport(options: { errorBodyLimit?: number; onRedirect?: (redirect: Redirect) => void } = {}): HttpTransport {
  const errorBodyLimit = options.errorBodyLimit ?? MAX_ERROR_BODY_BYTES;
  const agents = createTransportAgents();

  async function send(url: URL, init: RequestInit, hops: Hops, resent = 0): Promise<TransportResponse> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`unsupported protocol in ${url.href}: only http: and https: are`);
    const route = proxyRoute(url);
    const body = bodyBytes(init.body);
    const headers = headersObject(init.headers);
    if (body !== null) headers['content-length'] = String(body.byteLength);
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    // The call's signal goes to a proxy's agent too: it closes a connection to the proxy that outlives the call (proxy/proxy-agents.ts).
    const requestOptions: http.RequestOptions & { [CALL_SIGNAL]?: AbortSignal } = { method: init.method ?? 'GET', headers, agent: agents.agentOf(url, route, resent > 0), maxHeaderSize: MAX_HEADER_BYTES, [CALL_SIGNAL]: signal };
    const request = (url.protocol === 'https:' ? https : http).request(url, requestOptions);
    const answer = new Promise<IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    // The request and its reply share the signal: an abort destroys both, wherever the call is. Destroyed without an
    // error: once the whole reply is here its socket may have no error listener left, and an error there would be
    // thrown in the process; whoever waits on the request or reads the body gets the signal's reason instead.
    const onAbort = () => request.destroy();
    signal?.addEventListener('abort', onAbort, { once: true });
    const release = () => signal?.removeEventListener('abort', onAbort);
    request.end(body ?? undefined);
    let reply: IncomingMessage;
    try {
      reply = await answer;
    } catch (error) {
      release();
      if (signal?.aborted) throw abortError(signal);
      // A kept connection the server closed while it was idle (its keep-alive timeout; uvicorn's is 5 s)
      // fails as soon as it is used, before the server read the request: sent again, on a fresh one.
      if (resent < MAX_RESENDS && request.reusedSocket && isClosedByServer(error)) return send(url, init, hops, resent + 1);
      throw (error as { code?: unknown } | null)?.code === 'HPE_HEADER_OVERFLOW' ? new HeadersTooLargeError(error) : error;
    }
    // From here a broken connection surfaces as the reply's error, where the body is read.
    request.on('error', () => {});
    const status = reply.statusCode ?? 0;
    // A forwarding proxy's 407 is its own (a tunnel's refusal never gets here: proxy/proxy-agents.ts).
    if (route !== null && status === 407) {
      reply.resume();
      release();
      throw new ProxyRefusedError(route, status, reply.statusMessage ?? '', `${url.hostname}:${portOf(url)}`, firstHeader(reply.headers['proxy-authenticate']));
    }
    const location = reply.headers.location;
    const target = (status === 307 || status === 308) && location !== undefined ? new URL(location, url) : null;
    // A redirect back to an address already on the way, or past the hops: not followed, and said to loop.
    const loops = target !== null && (hops.redirects >= MAX_REDIRECTS || hops.visited.includes(target.href));
    if (target !== null && !loops) {
      reply.resume();
      release();
      const redirect = { from: url.href, to: target.href, status };
      options.onRedirect?.(redirect);
      // As fetch does: credentials do not follow a redirect to another origin.
      const leaves = target.origin !== url.origin && new Headers(init.headers).has('authorization');
      const onward = leaves ? { ...init, headers: withoutAuthorization(init.headers) } : init;
      const next = await send(target, onward, { redirects: hops.redirects + 1, keyLeft: leaves ? redirect : hops.keyLeft, visited: [...hops.visited, target.href] });
      return Object.assign(next, { redirected: true });
    }
    // A key refused where it was never sent: the refusal is the redirect's doing.
    const note = loops ? redirectLoopNote(hops.visited, target.href) : hops.keyLeft !== null && (status === 401 || status === 403) ? keyLeftBehind(hops.keyLeft) : null;
    return responseOf(url, reply, request, release, signal, { errorBody: errorBodyLimit, answer: MAX_ANSWER_BYTES, note });
  }

  return {
    request: (url, init = {}) => send(new URL(url), init, firstHop(new URL(url))),
    async fetch(input, init = {}) {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      // The client types its fetch as returning a Response; it reads only what TransportResponse has.
      return (await send(url, init, firstHop(url))) as unknown as Response;
    },
    close() {
      agents.close();
    },
  };
}

/** Where a request starts: no redirect yet, at its own address. */
function firstHop(url: URL): Hops {
  return { redirects: 0, keyLeft: null, visited: [url.href] };
}

function firstHeader(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function isClosedByServer(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

/** The error a fetch rejects with on an abort: the signal's reason when it is an error, an AbortError otherwise. */
function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}

function bodyBytes(body: RequestInit['body']): Uint8Array | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  throw new TypeError('the gateway sends bodies as bytes or strings only');
}

function withoutAuthorization(headers: RequestInit['headers']): Headers {
  const kept = new Headers(headers);
  kept.delete('authorization');
  return kept;
}

function headersObject(headers: RequestInit['headers']): Record<string, string> {
  const object: Record<string, string> = {};
  if (headers === undefined) return object;
  for (const [name, value] of new Headers(headers)) object[name] = value;
  return object;
}

/** The bytes of an answer read: an error body's, cut at `errorBody`; a successful answer's, read whole, refused past `answer`; `note`, said after an error's message. */
interface ReadLimits {
  errorBody: number;
  answer: number;
  note: string | null;
}

function responseOf(url: URL, reply: IncomingMessage, request: http.ClientRequest, release: () => void, signal: AbortSignal | undefined, limits: ReadLimits): TransportResponse {
  const headers = new Headers();
  for (const [name, value] of Object.entries(reply.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const status = reply.statusCode ?? 0;
  const ok = status >= 200 && status < 300;
  const body = replyBody(reply, request, release, signal, ok ? Number.POSITIVE_INFINITY : limits.errorBody);
  const failure = async () => {
    const text = openAiErrorBody((await readAll(body)).toString('utf8'));
    return limits.note === null ? text : withNote(text, limits.note);
  };
  const read = async () => (ok ? (await readWithin(body, limits.answer)).toString('utf8') : failure());
  return {
    ok,
    status,
    statusText: reply.statusMessage ?? '',
    headers,
    url: url.href,
    redirected: false,
    body,
    text: read,
    json: async () => JSON.parse(await read()) as unknown,
  };
}

/** A whole body of at most `limit` bytes; past them it is let go (its connection dropped unless its rest comes at once), and AnswerTooLargeError thrown. */
async function readWithin(body: AsyncIterable<Uint8Array>, limit: number): Promise<Buffer> {
  const gathered = new ByteBuilder();
  for await (const chunk of body) {
    if (gathered.length + chunk.byteLength > limit) throw new AnswerTooLargeError(limit);
    gathered.push(chunk);
  }
  return gathered.bytes();
}

/** The body's chunks, decompressed, up to `limit` bytes (then its end, the rest unread). */
function replyBody(reply: IncomingMessage, request: http.ClientRequest, release: () => void, signal: AbortSignal | undefined, limit: number): ReplyBody {
  const decoded = decodedBody(reply, reply.headers['content-encoding']);
  let ended = false;
  let cancelled = false;
  const cancel = () => {
    if (ended || cancelled) return;
    cancelled = true;
    release();
    // A compressed body's rest would have to go through its decoder to be drained: its connection is dropped.
    if (decoded !== reply) request.destroy();
    else drainOrDrop(reply, request);
  };
  return {
    [Symbol.asyncIterator]: () =>
      streamChunks(decoded, {
        limit,
        onEnd: () => {
          ended = true;
          release();
        },
        onStop: cancel,
        // An abort destroyed the reply: the caller wants its own reason back, not the stream's.
        failure: (error) => (signal?.aborted ? abortError(signal) : (decodingFailure(error) ?? new ConnectionLostError(error))),
      }),
    cancel,
  };
}

/**
 * A body the reader left before its end: when its last bytes are already here
 * or follow at once, they are read and thrown away so that the connection
 * goes back to the agent; a body that goes on is dropped with its connection.
 */
function drainOrDrop(reply: IncomingMessage, request: http.ClientRequest): void {
  if (reply.destroyed) return;
  if (reply.complete) {
    reply.resume();
    return;
  }
  let drained = 0;
  const drop = () => request.destroy();
  const timer = setTimeout(drop, DRAIN_MS);
  timer.unref();
  reply.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > DRAIN_BYTES) drop();
  });
  reply.once('close', () => clearTimeout(timer));
  reply.resume();
}
