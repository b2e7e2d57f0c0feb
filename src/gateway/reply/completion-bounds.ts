/**
 * What a reply may hold and how long it may run, from its request's
 * completion limit (`max_tokens`): a server that keeps sending past them is
 * cut (reply-bounds.ts), and the attempt is retried like a malformed reply or
 * a timeout, then fails for good as a failed call.
 *
 * - Tokens: the usage a reply reports (a stream's continuous usage, or the
 *   usage at its end) may not pass the limit. The servers tmas talks to count
 *   reasoning inside it (vLLM, SGLang, OpenAI's `max_completion_tokens`,
 *   DeepSeek's API today); of a usage that counts it beside them (xAI,
 *   gateways), only the completion tokens it states are held to the limit,
 *   as the server held them (usage-counts.ts' limitedTokens), and the
 *   reasoning is billed. A usage is believed only when it can hold the reply's text
 *   (`usageHolds`): a reply that reports none, or one its text belies, is
 *   counted with the run's tokenizer (token-meter.ts), and so is every
 *   stream once its text could hold more than the limit, as it arrives;
 *   that count may pass the limit by `countMargin` only. Visible reasoning a
 *   server holds apart from the limit (DeepSeek's reasoner) is held to the
 *   room the window leaves the prompt instead (ReplyLimits, reply-tokens.ts).
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
import { limitedTokens, type ReadUsage, type UsageCounts } from './usage-counts.ts';

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

/**
 * Tokens a character of text may have taken at most: a byte-level tokenizer
 * writes a character outside the BMP (four UTF-8 bytes, two UTF-16 units) in
 * up to four tokens, two a unit; a few special tokens show nothing.
 */
const MAX_TOKENS_PER_CHAR = 4;
const SILENT_TOKENS = 64;

/**
 * Whether a count of `completionTokens`, beside a text of `chars` characters,
 * is no count of it: more than twice the reply's room, which no server
 * generates (a runaway that streams its usage passes the room a few tokens
 * at a time, and is cut there), and more than the text could have taken. A
 * server's usage block of 10^12 completion tokens beside the answer "4"
 * failed the reply as a runaway past its limit; it was sent again and paid,
 * and the call failed with its right answer. Hidden reasoning (OpenAI's) is
 * counted within the limit, so it never reads as such.
 */
export function impossibleCount(completionTokens: number, chars: number, room: number): boolean {
  return completionTokens > 2 * room + SILENT_TOKENS && completionTokens > MAX_TOKENS_PER_CHAR * chars + SILENT_TOKENS;
}

/**
 * Whether a reported usage of `completionTokens` can hold a text of `chars`
 * characters, by the bound of `textCharCap`: a 10 MB text that claims 12
 * tokens cannot, and its usage is not believed.
 */
export function usageHolds(chars: number, completionTokens: number): boolean {
  return chars <= textCharCap(completionTokens);
}

/**
 * The share of the limit by which the run's own count may pass it. The run's
 * tokenizer is seldom the server's: over answers, solutions, prose and code
 * (models' responses, MATH-500 and IMO-AnswerBench questions, READMEs, our
 * sources), o200k_base and cl100k_base counted at most 1.21 times what Qwen3,
 * Llama 3 or DeepSeek V3 counted of the same text of a few hundred tokens or
 * more (1.33 on a few questions of tens of tokens, which COUNT_MARGIN_TOKENS
 * covers). A reply a server stopped at its limit is never cut for it; a
 * legacy tokenizer (p50k_base counted up to 1.44 times more) should give
 * way to the model's own (`--tokenizer-path`).
 */
const COUNT_MARGIN_SHARE = 0.25;
/** Tokens the run's count may pass the limit by besides its share: short texts differ more, and each piece counted apart may add one. */
const COUNT_MARGIN_TOKENS = 64;

/** How many tokens the run's own count of a reply may pass its limit by: what tokenizers differ by. */
export function countMargin(maxTokens: number): number {
  return Math.ceil(maxTokens * COUNT_MARGIN_SHARE) + COUNT_MARGIN_TOKENS;
}

/**
 * The slowest hidden reasoning the default keep-alive limit lets finish, in
 * tokens per second. A model that reasons in hidden behind a proxy that pings
 * meanwhile (OpenRouter) streams nothing but keep-alives until its answer, and
 * a hard problem's thought of 30,000 tokens takes 10 to 30 minutes at the
 * 20 to 50 tokens/s hosted reasoning models decode: at twice `--timeout`
 * alone (10 min), each such call was cut, paid again and cut again.
 */
export const HIDDEN_REASONING_TOKENS_PER_SECOND = 10;

/**
 * How long keep-alives alone may keep a stream alive when `--keepalive-timeout`
 * is not given: twice the idle limit, or the call's completion limit at
 * HIDDEN_REASONING_TOKENS_PER_SECOND when longer (a call of 32,768 tokens: 55 min,
 * still far short of its total limit of 4.7 h).
 */
export function defaultKeepAliveMs(idleMs: number, maxTokens: number): number {
  return Math.max(2 * idleMs, (maxTokens / HIDDEN_REASONING_TOKENS_PER_SECOND) * 1000);
}

/** How the margin is made, for messages. */
export const COUNT_MARGIN_LABEL = `${COUNT_MARGIN_SHARE * 100}% + ${COUNT_MARGIN_TOKENS}`;

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

/** The failure of a reply past its completion limit (or `bound`, another it is held to): retried like a malformed one. */
export function overLimit(maxTokens: number, what: string, bound = `its completion limit of ${maxTokens} tokens`): ReplyError {
  return new ReplyError('malformed', `the reply went past ${bound}: ${what}`);
}

/** How the room is named in a failure past it, where it is more than the completion limit. */
export function roomBound(limits: ReplyLimits): string | undefined {
  return limits.room > limits.maxTokens ? `the ${limits.room} tokens the window leaves its prompt (its answer held to its completion limit of ${limits.maxTokens})` : undefined;
}

/**
 * What one reply may hold: its completion limit (`max_tokens`), and its room,
 * the tokens the window leaves its prompt (at least the limit). A server
 * generates no more than its room whatever it holds to the limit; visible
 * reasoning that a server does not hold to `max_tokens` is held to the room
 * (see reasoningApart).
 */
export interface ReplyLimits {
  maxTokens: number;
  room: number;
}

/** The limits of a request of `maxTokens` whose window leaves `room` (none known: the limit itself). */
export function replyLimits(maxTokens: number, room: number | undefined): ReplyLimits {
  return { maxTokens, room: Math.max(maxTokens, room ?? maxTokens) };
}

/** Watches one reply against its limits: each method throws a ReplyError, and drops the connection, once the reply passes them. */
export interface ReplyMeter {
  /** `chars` more characters of text (answer and reasoning) arrived. */
  text(chars: number): void;
  /** The server reports `completionTokens` so far (continuous usage, of answer and reasoning). */
  tokens(completionTokens: number): void;
  /** The usage a reply ended with, within its limits, as it is journaled (reasoningApart); throws past them. */
  settle(usage: ReadUsage): UsageCounts;
  /** Whether a count of `completionTokens` (those the limit bounds) is none, beside the text so far (impossibleCount). */
  impossible(completionTokens: number): boolean;
}

/**
 * Tokens a prompt may count beyond the bytes of the request that carried it:
 * a chat template's markers and a system prompt a proxy adds. A byte-level
 * tokenizer takes at least a byte a token, and the request holds every byte
 * of the prompt (escaped, so more), so a count past them and this is none:
 * a usage of 10^15 prompt tokens was journaled, and summed into every total
 * and budget of the run.
 */
const PROMPT_TOKENS_BEYOND_BYTES = 8_192;

/** The prompt tokens a usage states, or 0 (as for a usage without them) when the request's `requestBytes` cannot hold them. */
function possiblePromptTokens(promptTokens: number, requestBytes: number | undefined): number {
  return requestBytes !== undefined && promptTokens > requestBytes + PROMPT_TOKENS_BEYOND_BYTES ? 0 : promptTokens;
}

/** Starts the meter of one attempt; `requestBytes`, the size of its request, bounds the prompt tokens a usage may state. */
export function createReplyMeter(limits: ReplyLimits, watchdog: Watchdog, requestBytes?: number): ReplyMeter {
  const { maxTokens, room } = limits;
  const cap = textCharCap(room);
  let chars = 0;
  const over = (what: string, bound?: string): never => {
    const error = overLimit(maxTokens, what, bound);
    watchdog.fail(error);
    throw error;
  };
  const tokens = (completionTokens: number) => {
    // A count the text cannot have taken is no count: the reply is weighed by its text (weighUsage) instead.
    if (impossibleCount(completionTokens, chars, room)) return;
    if (completionTokens > room) over(`the server counted ${completionTokens} completion tokens`, roomBound(limits));
  };
  return {
    text(count) {
      chars += count;
      if (chars > cap) over(`its text passed ${cap} characters, more than ${room} tokens hold (${MAX_TOKEN_CHARS} characters each at most)`, roomBound(limits));
    },
    tokens,
    settle(usage) {
      const { reasoningAmong, ...stated } = usage;
      const counts = { ...stated, promptTokens: possiblePromptTokens(stated.promptTokens, requestBytes) };
      const apart = reasoningApart(counts, reasoningAmong, limits);
      const settled = apart > 0 ? { ...counts, reasoningApart: apart } : counts;
      if (limitedTokens(settled) > maxTokens) over(`the server counted ${limitedTokens(settled)} completion tokens`);
      tokens(settled.completionTokens - (settled.reasoningBeside ?? 0));
      return settled;
    },
    impossible: (completionTokens) => impossibleCount(completionTokens, chars, room),
  };
}

/**
 * The reasoning tokens a usage counts among its completion tokens that the
 * server held apart from `max_tokens`: all it states, when the completion
 * tokens pass the limit and those of the answer alone (less that reasoning)
 * do not, within the room. DeepSeek's reasoner (early 2025) held only its
 * answer to `max_tokens` (at most 8K) and its reasoning to a cap of its own
 * (32K), counting both in `completion_tokens`: held to the limit, each reply
 * that thought longer than it was cut as a runaway, retried at full price
 * and failed. A server that holds both never states more than the limit.
 */
function reasoningApart(usage: UsageCounts, among: number | undefined, limits: ReplyLimits): number {
  const bounded = limitedTokens(usage);
  if (among === undefined || bounded <= limits.maxTokens) return 0;
  return bounded - among <= limits.maxTokens && bounded <= limits.room ? among : 0;
}

/** A reply whose usage was weighed against its text: the reply, without the usage when the text belies it, and what that usage claimed. */
export interface WeighedUsage<R> {
  reply: R;
  /** The completion tokens of a usage that cannot hold the text (then dropped from the reply); null when believed or absent. */
  belied: number | null;
  /** The prompt tokens a believed usage stated that its request's bytes cannot hold (then counted as 0); null when none such. */
  beliedPrompt: number | null;
}

/**
 * Weighs the usage a reply ends with against its `chars` characters of text:
 * believed, it must be within the limit (the meter throws otherwise); belied,
 * it is dropped, and the reply is counted as one without usage. No token
 * for a text is belied too: proxies that do not know a reply's usage fill
 * it in with zeros, and such replies were journaled as costing nothing.
 */
export function weighUsage<R extends { usage: ReadUsage | null }>(reply: R, chars: number, meter: ReplyMeter): WeighedUsage<R> {
  if (reply.usage === null) return { reply, belied: null, beliedPrompt: null };
  const claimed = reply.usage.completionTokens;
  const impossible = meter.impossible(limitedTokens(reply.usage));
  if (impossible || !usageHolds(chars, claimed) || (claimed === 0 && chars > 0)) return { reply: { ...reply, usage: null }, belied: claimed, beliedPrompt: null };
  const settled = meter.settle(reply.usage);
  const stated = reply.usage.promptTokens;
  return { reply: { ...reply, usage: settled }, belied: null, beliedPrompt: settled.promptTokens === stated ? null : stated };
}

/** What a journaled answer holds, as the bounds read it. */
export interface BoundedAnswer {
  response: { content: string; reasoning: string | null };
  usage: { completionTokens: number; estimated?: true; reasoningBeside?: number; reasoningApart?: number };
}

/**
 * Why a journaled answer to a request with this completion limit breaks the
 * bounds a reply is held to now, or null: text past the character cap, a
 * usage past the limit or unable to hold the text, a count of the run's
 * tokenizer past the limit and its margin. A run journaled by a tmas that
 * trusted any usage may hold such answers; a resume sends them again.
 */
export function outOfBounds(answer: BoundedAnswer, limits: ReplyLimits): string | null {
  const { maxTokens, room } = limits;
  const chars = answer.response.content.length + (answer.response.reasoning?.length ?? 0);
  const tokens = answer.usage.completionTokens;
  if (chars > textCharCap(room)) return `its text has ${chars} characters, more than ${room} tokens hold`;
  if (answer.usage.estimated === true) return tokens > room + countMargin(room) ? `its text counts ${tokens} tokens, past the limit of ${room} and its margin` : null;
  if (limitedTokens(answer.usage) > maxTokens || tokens - (answer.usage.reasoningBeside ?? 0) > room) return `its usage of ${limitedTokens(answer.usage)} tokens is past the limit of ${maxTokens}`;
  return usageHolds(chars, tokens) ? null : `its usage of ${tokens} tokens cannot hold its ${chars} characters`;
}
