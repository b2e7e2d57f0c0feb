/**
 * One attempt of a call on one endpoint: the request, sent under its bounds
 * (reply-bounds.ts, completion-bounds.ts), and its reply read as a stream,
 * as a whole JSON reply, or counted with the run's tokenizer when it carries
 * no usage.
 */
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { boundedBody, readAll, replyByteCap, startWatchdog } from './reply-bounds.ts';
import { createReplyMeter, derivedTotal, overLimit, withinLimit, withinMeteredLimit } from './completion-bounds.ts';
import { fromStream, fromWholeReply, type Reply } from './reply.ts';
import { sseEvents } from './sse.ts';
import { fromJsonReply, sortBody } from './json-reply.ts';
import { confirmStreamUsage, onTextEnded, refuseStreamUsage, stopCountingText } from './stream-usage.ts';
import type { CompletionRequest, Endpoint } from './completion.ts';
import type { EndpointState } from './endpoint-state.ts';
import type { GatewayCounters } from './gateway-stats.ts';
import type { GatewayOptions } from './gateway-options.ts';
import type { HttpTransport, TransportResponse } from './http-transport.ts';

/** What an attempt works with. */
export interface AttemptContext {
  options: Pick<GatewayOptions, 'timeoutMs' | 'totalTimeoutMs' | 'totalFloor' | 'countTokens' | 'onUnstreamed'>;
  stream: boolean;
  counters: GatewayCounters;
  /** The client of an endpoint (createClients). */
  clientFor: (endpoint: Endpoint) => OpenAI;
  /** Endpoints that answered a streamed request with a whole JSON reply. */
  unstreamed: Set<string>;
}

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
      // Retries are ours: we count them, honour Retry-After and release the slot while waiting.
      client = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey, maxRetries: 0, timeout: Math.ceil(timeoutMs), fetch: transport.fetch });
      clients.set(id, client);
    }
    return client;
  };
}

/**
 * One attempt under its bounds (reply-bounds.ts, completion-bounds.ts): the
 * idle limit from the request to the body's last byte, the total limit
 * (`--total-timeout`, else derived from the completion limit), a size cap,
 * and what the completion limit allows the reply to hold.
 */
export async function attempt(context: AttemptContext, request: CompletionRequest, state: EndpointState, body: Buffer, askedUsage: boolean, signal?: AbortSignal): Promise<Reply> {
  const { stream, counters } = context;
  const watchdog = startWatchdog({ idleMs: context.options.timeoutMs, total: totalLimitOf(context.options, request.maxTokens), signal });
  const meter = createReplyMeter(request.maxTokens, watchdog);
  const started = performance.now();
  const watched = state.watch.watch();
  // The usage so far this stream reported: each chunk's count, less the last, is what the server decoded meanwhile.
  let reported = 0;
  const onUsage = (completionTokens: number | null) => {
    if (completionTokens !== null) meter.tokens(completionTokens);
    if (!askedUsage) return;
    if (completionTokens === null) return refuseStreamUsage(state);
    confirmStreamUsage(state);
    if (completionTokens > reported && state.streamUsage.state === 'counting') state.streamUsage.tokens += completionTokens - reported;
    reported = Math.max(reported, completionTokens);
  };
  try {
    // What `chat.completions.create` sends, encoded by us (request-body.ts); the client checks the status and keeps the server's error message.
    const response = await context
      .clientFor({ ...request.endpoint, baseUrl: state.url })
      .post<ChatCompletion>('/chat/completions', { body, headers: { 'content-type': 'application/json' }, signal: watchdog.controller.signal })
      .asResponse();
    watchdog.touch();
    // The transport's own body (http-transport.ts): chunks as Node reads them, no web stream.
    const bytes = boundedBody((response as unknown as TransportResponse).body, replyByteCap(request.maxTokens, stream), watchdog);
    if (!stream) return withinMeteredLimit(fromWholeReply(JSON.parse((await readAll(bytes)).toString('utf8')) as ChatCompletion), meter);
    const sorted = await sortBody(bytes, response.headers);
    if (sorted.json) return withinMeteredLimit(unstreamedReply(context, state, (await readAll(sorted.body)).toString('utf8'), response.headers), meter);
    // The server's chunks, as the OpenAI API defines them; fromStream reads every field defensively.
    const chunks = sseEvents(sorted.body, response.headers) as AsyncGenerator<ChatCompletionChunk[]>;
    let chars = 0;
    const onStreamText = (count: number) => {
      meter.text(count);
      counters.streamedChars += count;
      if (state.streamUsage.state === 'text') state.text.add(count);
      if (chars === 0) watched.texted();
      chars += count;
    };
    const reply = withinLimit(await fromStream(chunks, { started, onText: onStreamText, onFirstEvent: () => watched.started(), onUsage }), meter);
    onTextEnded(state, chars, reply.usage);
    if (reply.firstTokenMs !== null) {
      const decodeMs = performance.now() - started - reply.firstTokenMs;
      counters.firstTokenMs.add(reply.firstTokenMs);
      counters.generationMs.add(decodeMs);
      if (reply.usage !== null) state.poll.onCall(reply.usage.completionTokens, decodeMs);
    }
    return reply;
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    throw watchdog.failure ?? error;
  } finally {
    watched.ended();
    watchdog.dispose();
  }
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
  if (!context.unstreamed.has(state.url)) {
    context.unstreamed.add(state.url);
    context.options.onUnstreamed?.(state.url);
  }
  return reply;
}

/**
 * A reply that says nothing of its usage, counted with the run's tokenizer
 * when the gateway has one, once its connection is done and its slot free:
 * past the limit, it fails like a reply whose usage says so (retried).
 * Returns the count (null when not counted), so the caller need not count
 * the same text again.
 */
export async function checkCounted(options: Pick<GatewayOptions, 'countTokens'>, reply: Reply, maxTokens: number, signal: AbortSignal | undefined): Promise<number | null> {
  if (reply.usage !== null || options.countTokens === undefined) return null;
  const counts = await options.countTokens([reply.content, reply.reasoning ?? ''], signal);
  const tokens = counts.reduce((sum, count) => sum + count, 0);
  if (tokens > maxTokens) throw overLimit(maxTokens, `its text, which came without usage, counts ${tokens} tokens`);
  return tokens;
}

/** The total limit of an attempt: `--total-timeout` when given, else derived from the completion limit. */
function totalLimitOf(options: AttemptContext['options'], maxTokens: number): { ms: number; label: string } {
  const given = options.totalTimeoutMs ?? null;
  if (given !== null) return { ms: given, label: `--total-timeout ${given / 1000} s` };
  return derivedTotal(maxTokens, options.totalFloor);
}
