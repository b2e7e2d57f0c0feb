/**
 * Which call failures are worth retrying, and how long to wait before the next
 * attempt: exponential backoff with full jitter, or what the server asked for
 * in `Retry-After` / `retry-after-ms`.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ConnectionLostError, HeadersTooLargeError } from './http-transport.ts';
import { REDIRECT_LOOP, redirectAdvice } from './redirects.ts';
import { WEB_PAGE } from './error-body.ts';
import { KeepAlivesOnlyError, ReplyError } from '../reply/reply-bounds.ts';
import { NotStreamedError } from '../reply/json-reply.ts';
import { InBandError } from '../reply/in-band-error.ts';
import { WebPageError } from '../reply/unexpected-body.ts';
import { refusedField } from './refused-field.ts';
import { perMinuteTooSmall, statedCompletionCap } from './completion-cap.ts';
import { quotaSpent } from './quota-spent.ts';
import { modelGone } from './model-gone.ts';
import { routeGone } from './route-gone.ts';
import { statedWaitMs } from './stated-wait.ts';
import { noCompletionLeft } from './no-completion-left.ts';
import { ProxyRefusedError } from './proxy/proxy-agents.ts';
import { clippedText } from '../../kernel/clipped-text.ts';

/** How a failed attempt is classified. */
export type FailureKind = 'transient' | 'wait-too-long' | 'context-length' | 'auth' | 'proxy' | 'quota' | 'model-gone' | 'route-gone' | 'redirected' | 'not-streamed' | 'web-page' | 'in-band' | 'refused-field' | 'fatal' | 'aborted';

/**
 * The longest wait a server may ask for (a 429's or 503's Retry-After, a
 * limit's reset) that a call waits out. Past it (a daily limit spent, a
 * server down for maintenance for hours), the attempt is `wait-too-long`:
 * retried on another replica of a pool, else it stops the run, resumable,
 * saying when the server asked to be called again. Before, such a wait was
 * cut to the backoff's cap (60 s) and each retry met the same refusal: a
 * call spent its 8 retries in 8 minutes and the run stopped as an endpoint
 * down, advising to check the server or lower --concurrency.
 */
export const LONGEST_ASKED_WAIT_MS = 15 * 60_000;

/**
 * Classifies a failed attempt. Timeouts, resets, 408/409/429/5xx and
 * unparseable bodies are transient. A 4xx sent inside a reply that began as
 * a success (in-band-error.ts) is `in-band`, retried once: vLLM reports any
 * exception raised while it streams (an engine's RuntimeError) as a 400
 * there, and SGLang any ValueError, so it may be the engine's failure rather
 * than the request's; a context-length error sent so is still one.
 */
export function classifyFailure(error: unknown): FailureKind {
  const kind = classifyStatus(error);
  return kind === 'fatal' && error instanceof InBandError ? 'in-band' : kind;
}

function classifyStatus(error: unknown): FailureKind {
  if (error instanceof APIUserAbortError) return 'aborted';
  // A sign-in page or a captive portal under a 200 (unexpected-body.ts): retried once, then the run stops.
  if (error instanceof WebPageError) return 'web-page';
  // A reply past its idle or total limit, over its size cap, or a stream cut short.
  if (error instanceof ReplyError) return 'transient';
  // A streamed request answered with JSON that is no completion: every attempt would be answered alike.
  if (error instanceof NotStreamedError) return 'not-streamed';
  // A proxy that wants credentials, or whose rules forbid the tunnel, refuses every call alike (a 502 of it may pass).
  if (error instanceof APIConnectionError && error.cause instanceof ProxyRefusedError && (error.cause.status === 407 || error.cause.status === 403)) return 'proxy';
  if (error instanceof APIConnectionError) return 'transient';
  // A reset or a close while the body arrived (http-transport.ts).
  if (error instanceof ConnectionLostError) return 'transient';
  if (error instanceof APIError) {
    const status = error.status ?? 0;
    // TGI refuses a request past its window with a 422 (its validation errors' status), the others with a 400.
    if ((status === 400 || status === 422) && isContextLengthError(error)) return 'context-length';
    // A field of the request the server does not take, or a completion limit above its cap: every call sent with it is refused alike (refused-field.ts, completion-cap.ts).
    if (refusedField(error) !== null || statedCompletionCap(error) !== null || perMinuteTooSmall(error) !== null) return 'refused-field';
    // A spent quota or balance (quota-spent.ts) passes with no wait, a 429 of it included: the run stops at once.
    if (quotaSpent(error)) return 'quota';
    // A model withdrawn, or a deployment deleted (model-gone.ts): every call to it is refused alike.
    if (modelGone(error)) return 'model-gone';
    // A 404 or 405 that names no model: the chat route is not there (route-gone.ts), for any call.
    if (routeGone(error)) return 'route-gone';
    // A redirect not followed (301, 302, 303: fetch would resend the request as a GET without its body; a 307 or 308
    // past the hops followed): the base URL leads elsewhere, and every call would be answered alike.
    if (status >= 300 && status < 400) return 'redirected';
    // A refused key fails every call alike: the run stops at once rather than spend its retries.
    if (status === 401 || status === 403) return 'auth';
    if (status === 408 || status === 409 || status === 429 || status >= 500) return (retryAfterMs(error) ?? 0) > LONGEST_ASKED_WAIT_MS ? 'wait-too-long' : 'transient';
    return 'fatal';
  }
  // A 200 whose body is not JSON surfaces as a SyntaxError from the client.
  if (error instanceof SyntaxError) return 'transient';
  if (error instanceof Error && error.name === 'AbortError') return 'aborted';
  return 'fatal';
}

function isContextLengthError(error: APIError): boolean {
  // llama.cpp's server: type exceed_context_size_error, 'request (N tokens) exceeds the available context size (M tokens)'.
  if (error.code === 'context_length_exceeded' || error.type === 'exceed_context_size_error') return true;
  // xAI's 'This model's maximum prompt length is N but the request contains P tokens'; LM Studio's and others' 'context window'.
  if (/maximum context length|context length|context window|maximum prompt length|too many tokens|exceeds the available context size/i.test(error.message)) return true;
  // Hosted APIs' words: Anthropic's 'prompt is too long: N tokens > M maximum' and 'input length and `max_tokens` exceed context limit',
  // Gemini's 'The input token count (N) exceeds the maximum number of tokens allowed (M)', TGI's (Together's) '`inputs` tokens + `max_new_tokens` must be <= M'.
  // TGI's '`inputs` must have less than N tokens' (its prompt past max_input_tokens).
  // A completion limit the server worked out as none (no-completion-left.ts): the prompt alone fills its window.
  if (noCompletionLeft(error.message) !== null) return true;
  return /prompt is too long|exceed context limit|input token count.*exceeds the maximum number of tokens|inputs`? tokens \+ `?max_new_tokens`? must be|inputs`? must have less than \d+ tokens/i.test(error.message);
}

/** The server's requested wait in milliseconds, if it sent one: Retry-After (seconds or a date), retry-after-ms, or, on a 429, when the exhausted limit resets, or the wait its body states (stated-wait.ts). */
export function retryAfterMs(error: unknown): number | null {
  if (!(error instanceof APIError) || !error.headers) return null;
  const ms = Number(error.headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const header = error.headers.get('retry-after');
  if (!header) return error.status === 429 ? (limitResetMs(error.headers) ?? spentLimitResetMs(error) ?? statedWaitMs(error)) : null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/**
 * When a 429's limit resets, as OpenAI and the APIs that copy it (Groq,
 * DeepSeek, Fireworks) say it on every answer, in `x-ratelimit-reset-requests`
 * and `-tokens` ("1s", "6m0s", "20ms", "2m59.56s"), where a 429 carries no
 * Retry-After: the latest reset of the limits that say they have nothing left
 * (`-remaining-… 0`), else the soonest of those named. Retried at the
 * backoff's first steps, a call spent its retries inside the window, each
 * counted a failure. Which limit refused is unknown when none is spent (a
 * prompt larger than the tokens left): the latest would be a daily request
 * limit's hours, which stop the run (LONGEST_ASKED_WAIT_MS) for a refusal
 * that the per-minute token limit lifts in seconds.
 */
function limitResetMs(headers: Headers): number | null {
  const resets = ['requests', 'tokens'].flatMap((limit) => {
    const ms = durationMs(headers.get(`x-ratelimit-reset-${limit}`));
    return ms === null ? [] : [{ ms, spent: headers.get(`x-ratelimit-remaining-${limit}`)?.trim() === '0' }];
  });
  if (resets.length === 0) return null;
  const spent = resets.filter((reset) => reset.spent).map((reset) => reset.ms);
  return spent.length > 0 ? Math.max(...spent) : Math.min(...resets.map((reset) => reset.ms));
}

/**
 * When a spent limit resets, as `X-RateLimit-Reset` states it beside
 * `X-RateLimit-Remaining: 0`: a moment (epoch milliseconds, as OpenRouter
 * writes it, or seconds), or seconds from now; in the answer's headers, or in
 * the error's `metadata.headers` (OpenRouter's 429 for its `:free` models'
 * daily limit: "Rate limit exceeded: free-models-per-day"). Unread, each call
 * spent its retries into a limit that lifts only the next day, and the run
 * stopped as an endpoint down; read, the call waits for a per-minute limit
 * and a daily one stops the run, saying when to resume (TMAS_RATE_LIMITED).
 */
function spentLimitResetMs(error: APIError): number | null {
  const metadata = (error.error as { metadata?: { headers?: unknown } } | undefined)?.metadata?.headers;
  const stated = typeof metadata === 'object' && metadata !== null ? Object.entries(metadata as Record<string, unknown>) : [];
  const field = (name: string) => error.headers?.get(name) ?? stated.find(([key]) => key.toLowerCase() === name)?.[1];
  if (String(field('x-ratelimit-remaining') ?? '').trim() !== '0') return null;
  const reset = Number(String(field('x-ratelimit-reset') ?? '').trim() || Number.NaN);
  if (!Number.isFinite(reset) || reset < 0) return null;
  if (reset > 1e12) return Math.max(0, reset - Date.now());
  return reset > 1e9 ? Math.max(0, reset * 1000 - Date.now()) : reset * 1000;
}

/** A duration written as Go writes one ("1h2m3.5s", "20ms", "6m0s"), or seconds alone ("1.5"), in milliseconds; null when it is neither. */
function durationMs(text: string | null): number | null {
  const written = text?.trim() ?? '';
  if (/^\d+(?:\.\d+)?$/.test(written)) return Number(written) * 1000;
  if (!/^(?:\d+(?:\.\d+)?(?:h|ms|m|s))+$/.test(written)) return null;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  let total = 0;
  for (const [, amount, name] of written.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)) total += Number(amount) * (unit[name ?? ''] ?? 0);
  return total;
}

/** Backoff settings. */
export interface BackoffOptions {
  baseMs: number;
  /** The longest wait of the backoff itself. */
  capMs: number;
  /** The longest wait a server may ask for that is waited out (LONGEST_ASKED_WAIT_MS by default); `capMs` when not given. */
  askedCapMs?: number;
}

/**
 * The wait before attempt `attempt + 1` (attempt counts from 1). Full jitter
 * spreads retries of many calls that failed together; `random` is injectable
 * for tests. A server's Retry-After lengthens the wait, with a little jitter
 * on top, waited out past the backoff's cap (a per-minute limit that resets
 * in 6 min); it never shortens it below the backoff's step: a server or proxy
 * that answers `Retry-After: 0` (or 1) to every refusal spent a call's 8
 * retries in a few seconds, each sent at once into the same refusal, and the
 * call failed where the backoff rides out minutes of overload.
 */
export function backoffMs(attempt: number, error: unknown, options: BackoffOptions, random = Math.random): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** (attempt - 1));
  const backoff = ceiling / 2 + random() * (ceiling / 2);
  const asked = retryAfterMs(error);
  if (asked === null) return backoff;
  return Math.max(backoff, Math.min(options.askedCapMs ?? options.capMs, asked) + random() * Math.min(1000, options.baseMs));
}

/** The longest a call's retries wait in all, by the backoff without jitter: what one endpoint's outage may last before a call fails for good. */
export function retryBudgetMs(maxRetries: number, options: BackoffOptions): number {
  let total = 0;
  for (let attempt = 1; attempt <= maxRetries; attempt++) total += Math.min(options.capMs, options.baseMs * 2 ** (attempt - 1));
  return total;
}

/** How much of a failure `describeFailure` gives: a sentence or two, never a body of megabytes. */
const DESCRIBED_CHARS = 500;

/** A short description of a failure for messages and logs (never the request, so never a key), cut at a word's end. */
export function describeFailure(error: unknown): string {
  return clippedText(failureText(error), DESCRIBED_CHARS);
}

/** The whole of what describeFailure shortens. */
function failureText(error: unknown): string {
  if (error instanceof InBandError) return `the server's error inside a 200 reply: ${error.message}`;
  // A per-minute token limit's 413 (Groq's) is no body-size limit: its own words say what it is.
  if (error instanceof APIError && error.status === 413 && perMinuteTooSmall(error) === null) return tooLarge(error);
  // The client's message starts with the status itself ("500 refused"): said once.
  if (error instanceof APIError && error.status !== undefined) return `HTTP ${error.status}: ${error.message.replace(new RegExp(`^${error.status} `), '')}${redirectHint(error)}`;
  // Not a failed connection: the answer came, with more headers than are read.
  if (error instanceof APIConnectionError && error.cause instanceof HeadersTooLargeError) return error.cause.message;
  // The client's "Connection error." says nothing of what to fix; its cause does (refused, unknown host, a certificate).
  if (error instanceof APIConnectionError && !(error instanceof APIConnectionTimeoutError) && error.cause instanceof Error) {
    const code = (error.cause as NodeJS.ErrnoException).code;
    const cause = code !== undefined && !error.cause.message.includes(code) ? `${code}: ${error.cause.message}` : error.cause.message;
    return `connection failed: ${cause}`;
  }
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * A 413: the request's body is over a size limit, most often a proxy's in
 * front of the server (nginx's client_max_body_size is 1 MB unless set, a
 * prompt of some 250,000 tokens), whose page said only "413 Request Entity
 * Too Large". The server's own words are kept when they are no web page.
 */
function tooLarge(error: APIError): string {
  const words = error.message.replace(/^413 /, '').trim();
  const own = words === '' || words.startsWith('<') || words.startsWith(WEB_PAGE) || /status code \(no body\)/.test(words) ? '' : ` (${clippedText(words, 200)})`;
  return (
    `HTTP 413: the request is larger than the server, or a proxy in front of it, accepts${own}: raise the proxy's limit on request bodies ` +
    "(nginx's client_max_body_size, a load balancer's or an ingress's body-size limit), or bound the prompt with a smaller --max-tokens"
  );
}

/**
 * For a redirect the transport does not follow (301, 302, 303: a POST would
 * become a GET), where it points, and the base URL to give instead: the
 * address less the route tmas asked for (`…/v1/chat/completions` is the base
 * URL `…/v1`); a path alone is on the same server.
 */
function redirectHint(error: APIError): string {
  const location = error.status !== undefined && error.status >= 300 && error.status < 400 ? error.headers?.get('location') : null;
  // A loop's note (the transport's) says what to do; advice to give its target would name the base URL given.
  if (error.message.includes(REDIRECT_LOOP)) return '';
  return location ? ` (a redirect to ${location}: ${redirectAdvice(location)})` : '';
}

/**
 * Whether a failed attempt says its server is busy rather than broken: a
 * 429, a 503, or Anthropic's 529 `overloaded_error` (its API and the
 * gateways in front of it). Such a server has its in-flight limit lowered
 * and is never drained as dead; before, a 529 counted as a server's failure:
 * three in a row drained a busy replica, and a lone endpoint kept its limit.
 */
export function saysOverloaded(error: unknown): boolean {
  return error instanceof APIError && (error.status === 429 || error.status === 503 || error.status === 529);
}

/** A short label of what made an attempt fail, for counters: `429`, `503`, `timeout`, `keepalive` (keep-alives alone past their limit), `reset`, `malformed`, `unfinished`, `connection`, `other`. */
export function failureLabel(error: unknown): string {
  if (error instanceof KeepAlivesOnlyError) return 'keepalive';
  if (error instanceof ReplyError) return error.fault;
  if (error instanceof ConnectionLostError) return 'reset';
  if (error instanceof APIConnectionTimeoutError) return 'timeout';
  if (error instanceof APIConnectionError) return 'connection';
  if (error instanceof APIError && error.status !== undefined) return String(error.status);
  if (error instanceof SyntaxError) return 'malformed';
  return 'other';
}
