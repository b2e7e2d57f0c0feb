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
  completionTokens: number;
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
export function usageOf(usage: unknown): UsageCounts | null {
  if (typeof usage !== 'object' || usage === null) return null;
  const { prompt_tokens: prompt, completion_tokens: completion } = usage as { prompt_tokens?: unknown; completion_tokens?: unknown };
  // A block without completion tokens is what proxies fill in with zeros: 0, which a reply with text belies (completion-bounds.ts).
  const completionTokens = completion === undefined || completion === null ? 0 : tokenCount(completion);
  if (completionTokens === null) return null;
  return { promptTokens: tokenCount(prompt) ?? 0, completionTokens };
}
