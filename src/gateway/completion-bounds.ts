/**
 * What a reply may hold and how long it may run, from its request's
 * completion limit (`max_tokens`): a server that keeps sending past them is
 * cut (reply-bounds.ts), and the attempt is retried like a malformed reply or
 * a timeout, then fails for good as a failed call.
 *
 * - Tokens: the usage a reply reports (a stream's continuous usage, or the
 *   usage at its end) may not pass the limit. The servers tmas talks to count
 *   reasoning inside it (vLLM, SGLang, OpenAI's `max_completion_tokens`,
 *   DeepSeek's API today); one that counted it outside (DeepSeek's reasoner
 *   in early 2025) would have its long reasonings cut, with the counts in
 *   the error. A reply that reports no usage is counted with the run's
 *   tokenizer once it is whole.
 * - Text, as it arrives, where nothing else tells: no token of the tokenizers
 *   checked (o200k_base, cl100k_base, p50k_base, Qwen3, Llama 3, DeepSeek V3)
 *   is longer than 128 bytes, so a text of more than `MAX_TOKEN_CHARS`
 *   characters per token of the limit (each character at least a byte) holds
 *   more tokens than the limit allows.
 * - Bytes: the size cap of reply-bounds.ts (1 KiB a token for a stream), which
 *   also bounds one line of an event stream.
 * - Time: without `--total-timeout`, an attempt may run `TOTAL_BASE_MS` plus
 *   its completion limit at `FLOOR_TOKENS_PER_SECOND`.
 */
import { ReplyError, type Watchdog } from './reply-bounds.ts';

/** Characters of text per token of the completion limit: twice the longest token (128 bytes) of every tokenizer checked. */
export const MAX_TOKEN_CHARS = 256;

/** Characters of text any reply may have beyond its tokens' (a template's markers, a server's notice). */
const BASE_TEXT_CHARS = 4096;

/**
 * The slowest generation the derived total limit lets finish, in tokens per
 * second of one sequence. A GPU server at full batch decodes a few tens of
 * tokens per second per sequence (the capacity model of one GPU: 8,000
 * tokens/s shared by the ~260 sequences its KV cache holds, about 30 each);
 * 2 is fifteen times slower, so a sequence that also waits out preemptions
 * still finishes. A server slower than that per sequence (a large model on
 * a CPU) needs `--total-timeout`.
 */
export const FLOOR_TOKENS_PER_SECOND = 2;

/**
 * Time an attempt may take before its tokens flow: waiting in a server's
 * queue and the prefill of a full window (a 131,072-token prompt at a few
 * thousand tokens per second is under a minute). Twice the default idle limit
 * (`--timeout 300`), which already ends a wait in which no byte comes.
 */
export const TOTAL_BASE_MS = 10 * 60_000;

/** The most characters of text (answer and reasoning) a reply to a request with this completion limit may have. */
export function textCharCap(maxTokens: number): number {
  return BASE_TEXT_CHARS + maxTokens * MAX_TOKEN_CHARS;
}

/** What a derived total limit is made of: a base, and the slowest rate of generation it lets finish. */
export interface TotalFloor {
  baseMs: number;
  tokensPerSecond: number;
}

/** The limit on one attempt's whole duration when `--total-timeout` is not given, and how to say it. */
export function derivedTotal(maxTokens: number, floor: TotalFloor = { baseMs: TOTAL_BASE_MS, tokensPerSecond: FLOOR_TOKENS_PER_SECOND }): { ms: number; label: string } {
  const ms = floor.baseMs + (maxTokens / floor.tokensPerSecond) * 1000;
  const base = floor.baseMs >= 60_000 ? `${floor.baseMs / 60_000} min` : `${floor.baseMs / 1000} s`;
  const seconds = ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000));
  return { ms, label: `${seconds} s, the total limit of a call of ${maxTokens} completion tokens (${base} + ${floor.tokensPerSecond} tokens/s; --total-timeout sets another)` };
}

/** The failure of a reply past its completion limit: retried like a malformed one. */
export function overLimit(maxTokens: number, what: string): ReplyError {
  return new ReplyError('malformed', `the reply went past its completion limit of ${maxTokens} tokens: ${what}`);
}

/** Watches one reply against its completion limit: each method throws a ReplyError, and drops the connection, once the reply passes it. */
export interface ReplyMeter {
  /** `chars` more characters of text (answer or reasoning) arrived. */
  text(chars: number): void;
  /** The server reports `completionTokens` so far (continuous usage, or the usage at the end). */
  tokens(completionTokens: number): void;
}

/** Starts the meter of one attempt. */
export function createReplyMeter(maxTokens: number, watchdog: Watchdog): ReplyMeter {
  const cap = textCharCap(maxTokens);
  let chars = 0;
  const over = (what: string): never => {
    const error = overLimit(maxTokens, what);
    watchdog.fail(error);
    throw error;
  };
  return {
    text(count) {
      chars += count;
      if (chars > cap) over(`its text passed ${cap} characters, more than ${maxTokens} tokens hold (${MAX_TOKEN_CHARS} characters each at most)`);
    },
    tokens(completionTokens) {
      if (completionTokens > maxTokens) over(`the server counted ${completionTokens} completion tokens`);
    },
  };
}

/** The reply, once the usage it ends with is within the limit (the meter throws otherwise). */
export function withinLimit<R extends { usage: { completionTokens: number } | null }>(reply: R, meter: ReplyMeter): R {
  if (reply.usage !== null) meter.tokens(reply.usage.completionTokens);
  return reply;
}

/** A whole reply (not streamed) under its limit: its text metered at once, then its usage. */
export function withinMeteredLimit<R extends { content: string; reasoning: string | null; usage: { completionTokens: number } | null }>(reply: R, meter: ReplyMeter): R {
  meter.text(reply.content.length + (reply.reasoning?.length ?? 0));
  return withinLimit(reply, meter);
}
