/**
 * A reply's `usage` block read as counts of tokens. The journal sums them
 * into the run's totals, its metrics and the progress line's rate, so only a
 * count goes in: a whole number of tokens, zero or more, or its digits as a
 * string (a gateway that writes its integers as JSON strings). Anything else
 * (a fraction, a negative number, words) is no count: the reply is taken as
 * one without usage and counted with the run's tokenizer. Before, the
 * strings "12" and "30" summed to "01230" tokens (the totals of metrics.json
 * read "0002702652…", the rate 7.1e+61 tok/s), and a usage of -5 completion
 * tokens made the run's totals negative.
 */
/** A reply's usage as counts (a reply's `usage`, reply.ts). */
export interface UsageCounts {
  promptTokens: number;
  /** Every token the server billed for the completion: its reasoning included, wherever the server counted it. */
  completionTokens: number;
  /** Of those, the reasoning tokens the server counted beside its `completion_tokens` (reasoningBeside below); absent when none. */
  reasoningBeside?: number;
  /**
   * Of those, the reasoning tokens a server that counts them among its `completion_tokens` held apart from
   * `max_tokens` (DeepSeek's reasoner: see reasoningApart in completion-bounds.ts); absent when none.
   */
  reasoningApart?: number;
}

/** A usage as read from a reply, before it is weighed against the request's limit (completion-bounds.ts' weighUsage). */
export interface ReadUsage extends UsageCounts {
  /** The reasoning tokens the usage states among its completion tokens (`completion_tokens_details.reasoning_tokens`); absent when none. Not journaled: weighUsage drops it. */
  reasoningAmong?: number;
}

/**
 * The tokens of a usage that the request's completion limit bounds: its
 * completion tokens as the server stated them. A server that counts its
 * reasoning beside them does not hold that reasoning to `max_tokens` either
 * (DeepSeek's reasoner capped its thinking apart; xAI bills it apart): held
 * to the limit, a whole reply whose thinking alone passed it was cut as a
 * runaway, retried at full price and failed, and its endpoint stopped the
 * run as down. A server that bounds both (Gemini's thinking is within its
 * output limit) never states more than the limit in both together anyway.
 */
export function limitedTokens(usage: { completionTokens: number; reasoningBeside?: number; reasoningApart?: number }): number {
  return usage.completionTokens - (usage.reasoningBeside ?? 0) - (usage.reasoningApart ?? 0);
}

/**
 * The usage block a stream's chunk carries: its `usage`, else Groq's
 * `x_groq.usage`, which Groq's streams send on their last chunk in place of
 * (or beside) OpenAI's. Unread, every streamed reply of Groq was counted with
 * the run's tokenizer and journaled as estimated, its billed tokens lost.
 */
export function chunkUsage(chunk: object): { completion_tokens?: unknown } | null {
  const { usage, x_groq: groq } = chunk as { usage?: unknown; x_groq?: { usage?: unknown } | null };
  const said = usage ?? (typeof groq === 'object' && groq !== null ? groq.usage : null);
  return typeof said === 'object' && said !== null ? (said as { completion_tokens?: unknown }) : null;
}

/** `value` as a count of tokens, or null when it is none. */
export function tokenCount(value: unknown): number | null {
  const count = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : value;
  return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : null;
}

/**
 * A usage block as counts: null without one, or when its completion tokens
 * are no count. Prompt tokens that are none count 0, as when a server leaves
 * them out: the completion tokens are what bounds and journals a reply.
 */
export function usageOf(usage: unknown): ReadUsage | null {
  if (typeof usage !== 'object' || usage === null) return null;
  const { prompt_tokens: prompt, completion_tokens: completion } = usage as { prompt_tokens?: unknown; completion_tokens?: unknown };
  // A block without completion tokens is what proxies fill in with zeros: 0, which a reply with text belies (completion-bounds.ts).
  const completionTokens = completion === undefined || completion === null ? 0 : tokenCount(completion);
  if (completionTokens === null) return null;
  const stated = tokenCount(prompt);
  const promptTokens = stated ?? 0;
  // A total is read against prompt + completion only where the prompt's count is stated: without it, the
  // difference is the prompt itself (a usage of completion 20 and total 332 is not 312 tokens of thinking).
  const beside = stated === null || stated === 0 ? 0 : reasoningBeside(usage as UsageBlock, promptTokens, completionTokens);
  if (beside > 0) return { promptTokens, completionTokens: completionTokens + beside, reasoningBeside: beside };
  const among = statedReasoning(usage as UsageBlock);
  return { promptTokens, completionTokens, ...(among !== null && among > 0 && among <= completionTokens ? { reasoningAmong: among } : {}) };
}

/** The reasoning tokens a usage states (`completion_tokens_details.reasoning_tokens`), or null. */
function statedReasoning(usage: UsageBlock): number | null {
  const details = usage.completion_tokens_details;
  return typeof details === 'object' && details !== null ? tokenCount(details.reasoning_tokens) : null;
}

/** The fields of a usage block that tell where its reasoning tokens were counted. */
interface UsageBlock {
  total_tokens?: unknown;
  completion_tokens_details?: { reasoning_tokens?: unknown } | null;
}

/** Tokens a proxy's total may be off by, counted as no tokens beside the completion's. */
const TOTAL_SLACK = 2;

/**
 * The reasoning tokens a usage counts beside its completion tokens rather
 * than among them; 0 when among them. OpenAI's API, vLLM, SGLang and
 * DeepSeek count `completion_tokens_details.reasoning_tokens` as a part of
 * `completion_tokens` (total = prompt + completion); xAI's API, Gemini's
 * compatible API and some gateways count them beside it (total = prompt +
 * completion + reasoning, a completion of 0 tokens beside 60 of reasoning),
 * and gateways that translate Gemini's usage drop its thinking tokens from
 * both, leaving them in the total alone. Read as OpenAI's, such replies cost
 * only their answer's tokens: a method that reasons long looked as cheap as
 * one that does not, in metrics.json, the progress line and every column of
 * the table's budget. A part larger than its whole is beside it; otherwise
 * the total tells, by the sum it is nearer (a proxy's total may be a token
 * or two off); a total above prompt and completion with no reasoning stated
 * holds its thinking in the difference; without a total, the reasoning is
 * taken as OpenAI counts it.
 */
function reasoningBeside(usage: UsageBlock, prompt: number, completion: number): number {
  const reasoning = statedReasoning(usage);
  if (reasoning !== null && reasoning > completion) return reasoning;
  const total = tokenCount(usage.total_tokens);
  if (total === null) return 0;
  if (reasoning === null || reasoning === 0) return total - (prompt + completion) > TOTAL_SLACK ? total - (prompt + completion) : 0;
  return Math.abs(total - (prompt + completion + reasoning)) < Math.abs(total - (prompt + completion)) ? reasoning : 0;
}
