/**
 * What each injected fault does to a chat reply (faults.ts decides which
 * fault an attempt meets; chat.ts calls these where each strikes): a
 * rejection before any work (`429`, `context`, `hang`), an error status after
 * the latency (`500`, `503`), a reply that arrives damaged (`length`,
 * `empty`), or a whole body that breaks half-way (`stall`, `reset`,
 * `malformed`; a streamed one breaks in stream.ts's `strike`).
 */
import type { ServerResponse } from 'node:http';
import type { Finished } from '../http/completion.ts';
import { sendsRetryAfter, type FaultKind } from './faults.ts';
import { CHARS_PER_TOKEN, filler, tokensOf } from '../model/filler.ts';
import type { Rng } from '../model/random.ts';
import { sendError } from '../http/http.ts';

/** A fault sent in place of the reply: the status the request log records (null: no complete response). */
export interface FaultSent {
  status: number | null;
}

/** What the early faults need to know of the request. */
export interface EarlyFaultRequest {
  model: string;
  promptTokens: number;
  maxTokens: number | null;
  seed: number;
  /** The request body's sha256 and its attempt: whether a 429 sends Retry-After is drawn from them. */
  key: string;
  attempt: number;
  hold(res: ServerResponse): void;
}

/** Rejections a real server makes before any work, which come back at once: sent, or null when `fault` is not one. */
export function sendEarlyFault(res: ServerResponse, fault: FaultKind | null, request: EarlyFaultRequest): FaultSent | null {
  if (fault === '429') {
    const headers = sendsRetryAfter(request.seed, request.key, request.attempt) ? { 'retry-after': '1' } : {};
    sendError(res, 429, `Rate limit reached for ${request.model} (simulated fault). Please try again later.`, {
      type: 'requests',
      code: 'rate_limit_exceeded',
      headers,
    });
    return { status: 429 };
  }
  if (fault === 'context') {
    const { promptTokens, maxTokens } = request;
    const requested = promptTokens + (maxTokens ?? 0);
    const window = 2 ** Math.floor(Math.log2(Math.max(2, requested - 1)));
    sendError(
      res,
      400,
      `This model's maximum context length is ${window} tokens. However, you requested ${requested} tokens ` +
        `(${promptTokens} in the messages, ${maxTokens ?? 0} in the completion). ` +
        'Please reduce the length of the messages or completion. (simulated fault)',
      { param: 'messages', code: 'context_length_exceeded' },
    );
    return { status: 400 };
  }
  if (fault === 'hang') {
    request.hold(res);
    return { status: null };
  }
  return null;
}

/** The server errors, which come after the latency: sent, or null when `fault` is not one. */
export function sendServerFault(res: ServerResponse, fault: FaultKind | null): FaultSent | null {
  if (fault !== '500' && fault !== '503') return null;
  const message = fault === '500' ? 'The server had an error while processing your request' : 'The server is overloaded or not ready yet';
  sendError(res, Number(fault), `${message} (simulated fault).`, { type: 'server_error', code: null });
  return { status: Number(fault) };
}

/** The request's completion limit, and the draws of the text a reply cut at it runs on with. */
export interface CompletionLimit {
  maxTokens: number | null;
  rng: Rng;
}

/**
 * A reply cut at its completion limit as a real server sends one: the model
 * wrote `kept` of its content, then went on writing until the limit stopped
 * it, so the text runs on to the request's `max_tokens` and the usage counts
 * all of them (`completion_tokens` = `max_tokens`). Without a limit in the
 * request (none to reach), the reply ends after `kept`.
 */
export function cutAtLimit(reply: Finished, kept: string, { maxTokens, rng }: CompletionLimit): Finished {
  const reasoningTokens = reply.reasoning === null ? 0 : tokensOf(reply.reasoning);
  if (maxTokens === null) return { ...reply, content: kept, finishReason: 'length', completionTokens: reasoningTokens + tokensOf(kept) };
  if (reply.reasoning !== null && reasoningTokens >= maxTokens) return { ...reply, content: '', reasoning: reply.reasoning.slice(0, maxTokens * CHARS_PER_TOKEN), finishReason: 'length', completionTokens: maxTokens };
  const room = (maxTokens - reasoningTokens) * CHARS_PER_TOKEN;
  // Asked for a sentence more than the room, as filler ends at the sentence end nearest to what it is asked, then cut to the room exactly.
  const content = kept.length >= room ? kept.slice(0, room) : `${kept} ${filler(room + 200, rng)}`.slice(0, room);
  return { ...reply, content, finishReason: 'length', completionTokens: maxTokens };
}

/** The `length` and `empty` faults: a reply that arrives but is damaged (`length`: half its content written, then cut at the limit). */
export function damage(reply: Finished, fault: FaultKind | null, limit: CompletionLimit): Finished {
  if (fault === 'empty') return { ...reply, content: '', finishReason: 'stop', completionTokens: reply.reasoning === null ? 0 : tokensOf(reply.reasoning) };
  if (fault === 'length') return cutAtLimit(reply, reply.content.slice(0, Math.floor(reply.content.length / 2)), limit);
  return reply;
}

/** `stall` without streaming: the headers and half the body, then silence until the client gives up. */
export function sendStalled(res: ServerResponse, text: string, hold: (res: ServerResponse) => void, done: () => void): void {
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.write(text.slice(0, Math.floor(text.length / 2)));
  hold(res);
  done();
}

/**
 * `malformed`: a 200 whose body is cut in half, so it is not JSON.
 * `reset`: the headers promise the whole body, half is sent, then the socket is destroyed.
 */
export function sendBroken(res: ServerResponse, text: string, fault: 'malformed' | 'reset', done: () => void): void {
  if (res.destroyed) return;
  const half = text.slice(0, Math.floor(text.length / 2));
  const length = Buffer.byteLength(fault === 'reset' ? text : half);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': length });
  if (fault === 'malformed') res.end(half);
  else res.write(half, () => res.socket?.destroy());
  done();
}
