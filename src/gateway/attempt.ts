/**
 * One attempt of a call on one endpoint: the request, sent under its bounds
 * (reply-bounds.ts, completion-bounds.ts), and its reply read as a stream or
 * as a whole JSON reply; then, its slot free, its tokens settled: counted
 * with the run's tokenizer when it carries no usage, or a usage its text
 * belies (token-meter.ts).
 */
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { boundedBody, KeepAlivesOnlyError, logprobEntries, replyByteCap, startWatchdog, type Watchdog } from './reply/reply-bounds.ts';
import { createReplyMeter, defaultKeepAliveMs, derivedTotal, replyLimits, weighUsage, type ReplyMeter } from './reply/completion-bounds.ts';
import { FINISH_GRACE_MS } from './reply/stream-end.ts';
import { promptFiltered } from './request/prompt-filtered.ts';
import { createReplyTokens, type ReplyTokens } from './reply/reply-tokens.ts';
import { fromStream, type Reply } from './reply/reply.ts';
import { sseEvents } from './reply/sse.ts';
import { tellOnce } from './told-once.ts';
import { fromJsonReply, fromWholeJson, sortBody } from './reply/json-reply.ts';
import { confirmStreamUsage, onTextEnded, refuseStreamUsage, stopCountingText } from './endpoints/stream-usage.ts';
import type { CompletionRequest, Endpoint } from './reply/completion.ts';
import type { EndpointState } from './endpoints/endpoint-state.ts';
import type { Tally } from './endpoints/ledger.ts';
import type { GatewayOptions } from './endpoints/gateway-options.ts';
import { ConnectionLostError, type HttpTransport, type TransportResponse } from './request/http-transport.ts';
import { readWholeJson, type WholeJsonReading } from './reply/whole-json-body.ts';

/** What an attempt works with. */
export interface AttemptContext {
  options: Pick<GatewayOptions, 'timeoutMs' | 'totalTimeoutMs' | 'keepAliveTimeoutMs' | 'totalFloor' | 'countTokens' | 'onUnstreamed' | 'onKeepAlive' | 'onKeepAlivesOnly' | 'finishGraceMs'>;
  stream: boolean;
  /** What the call's attempts are counted into. */
  tally: Tally;
  /** The client of an endpoint (createClients). */
  clientFor: (endpoint: Endpoint) => OpenAI;
  /** What was told once per endpoint (an endpoint that does not stream, one whose streams hold keep-alives): its keys (told-once.ts). */
  toldOnce: Set<string>;
}

/** How long past the idle limit the client's own timeout waits for an answer's headers. */
const CLIENT_TIMEOUT_SLACK_MS = 1_000;

/**
 * One OpenAI client per endpoint and key, over our transport; every key
 * used goes into `keys`, so that error messages can be redacted.
 */
export function createClients(transport: HttpTransport, timeoutMs: number, keys: Set<string>): (endpoint: Endpoint) => OpenAI {
  const clients = new Map<string, OpenAI>();
  return (endpoint) => {
    keys.add(endpoint.apiKey);
    const id = `${endpoint.baseUrl}\u0000${endpoint.apiKey}`;
    let client = clients.get(id);
    if (!client) {
      // Retries are ours: we count them, honour Retry-After and release the slot while waiting. The client's own timeout
      // is a backstop a second past the watchdog's idle limit: at the same delay it often fired first on a retry (a timer
      // may fire a little before the clock says it is due), and the call failed as 'Request timed out.', naming no flag.
      client = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey, maxRetries: 0, timeout: Math.ceil(timeoutMs) + CLIENT_TIMEOUT_SLACK_MS, fetch: transport.fetch });
      clients.set(id, client);
    }
    return client;
  };
}

/** What an attempt gives back: its reply, and what settling its tokens (settleTokens) needs once its slot is free. */
export interface Attempted {
  /** The reply, without its usage when its text belied it. */
  reply: Reply;
  /** Its count with the run's tokenizer, begun as a stream arrived; null when the gateway has no tokenizer. */
  tokens: ReplyTokens | null;
  /** The completion tokens of a usage the text belied; null when none was. */
  belied: number | null;
  /** The prompt tokens of a usage that its request's bytes belied (counted as 0); null when none were. */
  beliedPrompt: number | null;
  /** The bytes of the request this reply answered. */
  requestBytes: number;
  /** Characters of text (answer and reasoning). */
  chars: number;
}

/**
 * One attempt under its bounds (reply-bounds.ts, completion-bounds.ts): the
 * idle limit from the request to the body's last byte, the total limit
 * (`--total-timeout`, else derived from the completion limit), a size cap,
 * and what the completion limit allows the reply to hold: its text's
 * characters and, as a stream arrives, its tokens (token-meter.ts).
 */
export async function attempt(context: AttemptContext, request: CompletionRequest, state: EndpointState, body: Buffer, askedUsage: boolean, signal?: AbortSignal): Promise<Attempted> {
  // An endpoint that refused streamed requests is sent whole ones (call.ts omitOwnField).
  const stream = context.stream && !state.omitted.has('stream');
  // OpenAI's reasoning models send nothing while they think: the idle limit waits for their first text.
  const idleFromText = state.dialect === 'openai-reasoning';
  const keepAliveMs = context.options.keepAliveTimeoutMs ?? defaultKeepAliveMs(context.options.timeoutMs, request.maxTokens);
  const watchdog = startWatchdog({ idleMs: context.options.timeoutMs, total: totalLimitOf(context.options, request.maxTokens), keepAliveMs, signal, idleFromText });
  const limits = replyLimits(request.maxTokens, request.room);
  const meter = createReplyMeter(limits, watchdog, body.byteLength);
  const count = context.options.countTokens;
  const tokens = count === undefined ? null : createReplyTokens({ limits, count, signal, onOver: (error) => watchdog.fail(error) });
  const whole = (reply: Reply): Attempted => {
    const chars = reply.content.length + (reply.reasoning?.length ?? 0);
    meter.text(chars);
    return { ...weighUsage(reply, chars, meter), tokens, chars, requestBytes: body.byteLength };
  };
  const started = performance.now();
  const watched = state.watch.watch();
  try {
    // What `chat.completions.create` sends, encoded by us (request-body.ts); the client checks the status and keeps the server's error message.
    const response = await context
      .clientFor({ ...request.endpoint, baseUrl: state.url })
      .post<ChatCompletion>('/chat/completions', { body, headers: { 'content-type': 'application/json' }, signal: watchdog.controller.signal })
      .asResponse()
      .catch((error: unknown) => {
        if (promptFiltered(error)) return null;
        throw error;
      });
    // The prompt refused by the API's content filter: the answer is a filtered reply (prompt-filtered.ts).
    if (response === null) return whole(FILTERED_PROMPT);
    watchdog.touch();
    // The transport's own body (http-transport.ts): chunks as Node reads them, no web stream. A request not streamed
    // may get an event stream all the same (a server or proxy that streams whatever it is asked): it is read as one,
    // under a stream's cap; read as JSON, each such reply failed as malformed, and the endpoint was stopped as down.
    const streams = stream || (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
    const bytes = boundedBody((response as unknown as TransportResponse).body, replyByteCap(limits.room, streams, logprobEntries(request.sampling?.extraBody)), watchdog);
    if (!streams) return whole(fromWholeJson(await readWholeJson(bytes, wholeJsonReading(context, watchdog)), response.headers));
    // From its first byte an event stream is held to the keep-alive limit: blank lines before its first event are keep-alives too.
    watchdog.readingEvents(true);
    const sorted = await sortBody(bytes);
    if (sorted.json) {
      watchdog.readingEvents(false);
      return whole(unstreamedReply(context, state, await readWholeJson(sorted.body, wholeJsonReading(context, watchdog)), response.headers));
    }
    // The server's chunks, as the OpenAI API defines them; fromStream reads every field defensively.
    const onKeepAlive = (data: string) => tellOnce(context.toldOnce, `keep-alive\n${state.url}`, () => context.options.onKeepAlive?.(state.url, data));
    const chunks = sseEvents(sorted.body, response.headers, onKeepAlive) as AsyncGenerator<ChatCompletionChunk[]>;
    return { ...(await streamed(context, { state, watchdog, meter, tokens, watched, askedUsage, started }, chunks)), requestBytes: body.byteLength };
  } catch (error) {
    tokens?.stop();
    if (signal?.aborted) throw signal.reason ?? error;
    const failure = watchdog.failure;
    if (failure instanceof KeepAlivesOnlyError) tellOnce(context.toldOnce, `keep-alives only\n${state.url}`, () => context.options.onKeepAlivesOnly?.(state.url, failure.limitMs));
    throw failure ?? error;
  } finally {
    watched.ended();
    watchdog.dispose();
  }
}

/** The reply of a prompt the API's content filter refused: nothing generated, filtered. */
const FILTERED_PROMPT: Reply = { content: '', reasoning: null, reasoningDialect: null, finishReason: 'content_filter', finishSaid: null, usage: null, model: null, firstTokenMs: null, choices: 1 };

/** Whether a read failed as the connection broke of itself: not by a bound of the call (the idle or total limit, the size cap) nor by the run's stop. */
function brokeOfItself(error: unknown, watchdog: Watchdog): boolean {
  return error instanceof ConnectionLostError && watchdog.failure === null && !watchdog.controller.signal.aborted;
}

/** How a whole JSON body is read (whole-json-body.ts): taken after the stream's grace once its JSON is whole, the connection dropped. */
function wholeJsonReading(context: AttemptContext, watchdog: Watchdog): WholeJsonReading {
  return {
    graceMs: context.options.finishGraceMs ?? FINISH_GRACE_MS,
    broke: (error: unknown) => brokeOfItself(error, watchdog),
    cut: () => watchdog.controller.abort(new Error('the body was whole')),
  };
}

/** What reading one stream works with. */
interface StreamParts {
  state: EndpointState;
  watchdog: Watchdog;
  meter: ReplyMeter;
  tokens: ReplyTokens | null;
  watched: ReturnType<EndpointState['watch']['watch']>;
  askedUsage: boolean;
  /** When the attempt began: the time to the first token runs from it. */
  started: number;
}

/**
 * A streamed reply, read as it arrives: its text metered (characters, and
 * tokens once they may matter), its usage so far checked and given to the
 * knee's count, and taken as whole by the rule of stream-end.ts.
 */
async function streamed(context: AttemptContext, parts: StreamParts, chunks: AsyncGenerator<ChatCompletionChunk[]>): Promise<Omit<Attempted, 'requestBytes'>> {
  const { state, watchdog, meter, tokens, watched, askedUsage, started } = parts;
  const { tally } = context;
  // The usage so far this stream reported: each chunk's count, less the last, is what the server decoded meanwhile.
  let reported = 0;
  const onUsage = (sofar: { completionTokens: number; limited: number } | null) => {
    // A count the text so far cannot have taken (10^12 tokens beside a word) is skipped: added to the knee's count, it read as a burst of throughput.
    if (sofar !== null && meter.impossible(sofar.limited)) return;
    if (sofar !== null) meter.tokens(sofar.limited);
    if (!askedUsage) return;
    if (sofar === null) return refuseStreamUsage(state);
    const { completionTokens } = sofar;
    confirmStreamUsage(state);
    if (completionTokens > reported && state.streamUsage.state === 'counting') state.streamUsage.tokens += completionTokens - reported;
    reported = Math.max(reported, completionTokens);
  };
  let chars = 0;
  const onText = (count: number) => {
    // Text restarts the keep-alive limit; events that bring none (empty choices, a role alone) are keep-alives.
    watchdog.heard();
    meter.text(count);
    tally.streamed(count);
    if (state.streamUsage.state === 'text') state.text.add(count);
    if (chars === 0) {
      watched.texted();
      watchdog.textStarted();
    }
    chars += count;
  };
  // A stream that finished but neither sends its usage nor ends is dropped after the grace: its reply is whole.
  const whole = {
    graceMs: context.options.finishGraceMs ?? FINISH_GRACE_MS,
    cut: () => watchdog.controller.abort(new Error('the stream was whole')),
    broke: (error: unknown) => brokeOfItself(error, watchdog),
  };
  const onDelta = tokens === null ? undefined : (piece: string, sofar: () => string, answerSofar: (() => string) | null) => tokens.add(piece, sofar, answerSofar);
  // Choice 0 after another (a server that sends several choices): the count starts over on the choice read.
  const onRestart = () => tokens?.restart();
  // A count of tokens that grows says the server generates (hidden reasoning that streams its usage, with a choice or without): not a keep-alive.
  const onCounted = () => watchdog.heard();
  const read = await fromStream(chunks, { started, onText, onFirstEvent: () => watched.started(), onUsage, onRestart, onCounted, whole, ...(onDelta === undefined ? {} : { onDelta }) });
  const weighed = weighUsage(read, chars, meter);
  const { reply } = weighed;
  onTextEnded(state, chars, reply.usage);
  if (reply.firstTokenMs !== null) {
    const decodeMs = performance.now() - started - reply.firstTokenMs;
    tally.timed(reply.firstTokenMs, decodeMs);
    if (reply.usage !== null) state.poll.onCall(reply.usage.completionTokens, decodeMs);
  }
  return { ...weighed, tokens, chars };
}

/**
 * A whole JSON reply to a streamed request: read as the completion it holds
 * (json-reply.ts). Such a server's replies say nothing of its tokens as
 * they are decoded, so its streams are not counted; the user is told once,
 * as the idle limit then covers the wait for the whole reply.
 */
function unstreamedReply(context: AttemptContext, state: EndpointState, text: string, headers: Headers): Reply {
  const reply = fromJsonReply(text, headers);
  if (state.streamUsage.state !== 'off') stopCountingText(state);
  tellOnce(context.toldOnce, `unstreamed\n${state.url}`, () => context.options.onUnstreamed?.(state.url));
  return reply;
}

/**
 * A reply's tokens, settled once its connection is done and its slot free.
 * A reply whose usage holds its text keeps it, and its count stops. One
 * without usage, or whose text belied its usage, is counted with the run's
 * tokenizer when the gateway has one (the rest of a stream's text, a whole
 * reply's all of it): past its limit and the margin for tokenizers it fails
 * like a reply whose usage says so (retried). Returns the count (null when
 * not counted), so the caller need not count the same text again.
 */
export async function settleTokens(attempted: Attempted): Promise<number | null> {
  const { reply, tokens, belied, chars } = attempted;
  if (tokens === null) return null;
  if (reply.usage !== null) {
    tokens.stop();
    return null;
  }
  const why = belied === null ? 'it came without usage' : `its usage of ${belied} tokens cannot hold its ${chars} characters`;
  return tokens.total(why, reply.reasoning ?? '', reply.content);
}

/** The total limit of an attempt: `--total-timeout` when given, else derived from the completion limit. */
function totalLimitOf(options: AttemptContext['options'], maxTokens: number): { ms: number; label: string } {
  const given = options.totalTimeoutMs ?? null;
  if (given !== null) return { ms: given, label: `--total-timeout ${given / 1000} s` };
  return derivedTotal(maxTokens, options.totalFloor);
}
