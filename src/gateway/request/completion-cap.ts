/**
 * A completion limit above what a hosted API lets one call generate, in the
 * words of the APIs that refuse it with a 400 stating their cap: OpenAI's
 * chat models ("max_tokens is too large: 130737. This model supports at most
 * 16384 completion tokens"), DeepSeek ("Invalid max_tokens value, the valid
 * range of max_tokens is [1, 8192]"), Groq ("`max_tokens` must be less than
 * or equal to `32768`"), Anthropic's compatible API ("max_tokens: 130000 >
 * 64000, which is the maximum allowed number of output tokens"), those
 * that say "expected a value <= 12288", and text-generation-inference's
 * 422 ("`max_new_tokens` must be <= 4096. Given: 130000"). A run whose completion limit is what
 * the window leaves (the default) sent every call so, and each was refused:
 * every problem stopped (exit 3). Every call sent with that limit would be
 * refused alike, so the run stops at once, naming the flag that sets it and
 * the cap (run-stopping.ts). A server's refusal because prompt and
 * completion pass its window is a context-length error instead (retry.ts),
 * which refits the call.
 */
import { APIError } from 'openai';
import { ungroupDigits } from './grouped-digits.ts';

/** The request fields that carry the completion limit. */
const LIMIT_FIELD = /max_(?:completion_|new_)?tokens/;

/** How the APIs state their cap; the first group is it. */
const CAPS: readonly RegExp[] = [
  /supports at most (\d+) completion tokens/,
  /valid range of max_(?:completion_)?tokens is \[\s*\d+\s*,\s*(\d+)\s*\]/,
  /must be less than or equal to `?(\d+)`?/,
  /> (\d+), which is the maximum allowed number of output tokens/,
  /expected a value <= (\d+)/,
  // text-generation-inference without a tokenizer; its '`inputs` tokens + `max_new_tokens` must be <= N' is the window's, not this.
  /(?:^|: )`?max_new_tokens`? must be <= (\d+)/,
];

/** The most completion tokens a call may ask for, as a 400 or 422 that refuses the completion limit states it; null for any other error. */
export function statedCompletionCap(error: unknown): number | null {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return null;
  const param = typeof error.param === 'string' ? error.param : '';
  if (!LIMIT_FIELD.test(`${param} ${error.message}`)) return null;
  const message = ungroupDigits(error.message);
  for (const wording of CAPS) {
    const cap = wording.exec(message)?.[1];
    if (cap !== undefined && Number(cap) > 0) return Number(cap);
  }
  return null;
}

/**
 * An account's per-minute token limit smaller than one call: Groq (a 413)
 * and OpenAI (a 429) count a request's prompt and its completion limit
 * against the tokens a minute the account may use, and refuse a request
 * larger than the whole limit ("Request too large for model … on tokens per
 * minute (TPM): Limit 12000, Requested 131072"). No wait lifts it: the
 * default completion limit (what the window leaves) made every call of a run
 * on a small tier refused, retried, and failed (Groq's 413 told to raise a
 * proxy's body-size limit). Returns the limit and what was asked, or null.
 */
export function perMinuteTooSmall(error: unknown): { limit: number; requested: number } | null {
  if (!(error instanceof APIError) || (error.status !== 413 && error.status !== 429)) return null;
  const said = /tokens per min(?:ute)? \(TPM\): Limit (\d+), Requested (\d+)/i.exec(ungroupDigits(error.message));
  if (said === null) return null;
  const [limit, requested] = [Number(said[1]), Number(said[2])];
  return requested > limit ? { limit, requested } : null;
}

