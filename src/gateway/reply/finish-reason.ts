/**
 * A reply's finish reason, read as what it means to a run. The roles read
 * two of them as a cut reply (machines/reply.ts: `length`, `content_filter`)
 * and every other as a whole one, so each server's own word is mapped to the
 * one OpenAI uses for it before it goes further:
 *
 * - cut at the length limit: `length`, and `max_tokens` (Anthropic's word,
 *   and Gemini's and Cohere's in upper case) and its kin; cut before it by
 *   the server's repetition detection (vLLM's `repetition`, Moonshot's
 *   `repeat`): a loop that would have run to the limit, stopped early to save
 *   its decoding, whose text is a piece of a reply as a cut one's is (what it
 *   boxed on its way is no final answer), read as a run without the detector
 *   reads the same loop, cut at its limit. Before, it was a word tmas did not
 *   know, inferred whole from its tokens, its loop graded as an answer;
 * - stopped by a filter: `content_filter`, Gemini's `safety` and
 *   `recitation`, Anthropic's `refusal`;
 * - whole: `stop`, and the end of sequence as TGI and others say it
 *   (`eos_token`, `eos`, `stop_sequence`, `end_turn`, Cohere's `complete`);
 *   a tool call (`tool_calls`, `function_call`, `tool_use`) ended the
 *   generation too;
 * - not ended: vLLM's and SGLang's engines end an aborted request (a pause
 *   for new weights, a lost KV transfer, a scheduler that gave up on it)
 *   with `"abort"` and the text so far; OpenRouter ends a generation that
 *   failed midway with `"error"`, Cohere a cancelled one with `user_cancel`,
 *   Anthropic a long turn it paused with `pause_turn`. Such a text is a
 *   piece of a reply: read as one, its half-written boxes were graded and
 *   its tokens journaled as paid for good. The attempt fails instead, and is
 *   retried like a stream cut short.
 *
 * Anything else (a word of no server above, a number, an object), and no
 * finish reason at all in a reply that ended as a whole one (a stream
 * closed by `data: [DONE]`, a JSON body), is read from the reply's tokens
 * once they are known (`inferredFinish`): before, a stream without one was
 * retried until its endpoint was declared down, and a JSON body without one,
 * or with a word tmas did not know, was graded as whole even when it was cut.
 */
import { ReplyError } from './reply-bounds.ts';

/** The finish reasons a reply carries on: OpenAI's words. */
export type FinishReason = 'stop' | 'length' | 'content_filter' | 'tool_calls';

/** Each word servers say, in lower case, and what it means. */
const MEANINGS: ReadonlyMap<string, FinishReason | 'unfinished'> = new Map([
  ...['stop', 'eos', 'eos_token', 'stop_sequence', 'end_turn', 'complete'].map((word) => [word, 'stop'] as const),
  ...['length', 'max_tokens', 'max_length', 'max_output_tokens', 'repetition', 'repeat'].map((word) => [word, 'length'] as const),
  ...['content_filter', 'safety', 'recitation', 'refusal', 'prohibited_content', 'blocklist', 'error_toxic'].map((word) => [word, 'content_filter'] as const),
  ...['tool_calls', 'function_call', 'tool_use'].map((word) => [word, 'tool_calls'] as const),
  ...['abort', 'error', 'cancelled', 'canceled', 'user_cancel', 'pause_turn'].map((word) => [word, 'unfinished'] as const),
]);

/** Characters of an unknown finish reason shown in a warning. */
const SHOWN_CHARS = 80;

/** A finish reason as read: what it means, or null with what was said instead (null when nothing was). */
export interface ReadFinish {
  reason: FinishReason | null;
  /** The value said, shown, when it is no word tmas knows; null when it is one, or when none was said. */
  said: string | null;
}

/**
 * Words that spell no value: a server that writes a missing finish reason as
 * a string (KoboldCpp's streams said "null" on every chunk; Python's "None").
 */
const NO_VALUE = new Set(['', 'null', 'none', 'nil', 'undefined']);

/**
 * Whether a reply's `finish_reason` field says anything: none, null, an
 * empty string and a word for no value say nothing. Before, "null" on each
 * chunk of a stream read as its finish: the stream was taken whole 2 s after
 * its first chunk, and that chunk's text graded as the whole reply.
 */
export function saysFinish(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return typeof value !== 'string' || !NO_VALUE.has(value.trim().toLowerCase());
}

/**
 * Whether a finish reason is one tmas knows, which ends a stream: the rest
 * of it is its usage (stream-end.ts). A word tmas does not know may be a
 * server's word for a chunk that is not the last: such a stream is read to
 * its end (`[DONE]`, or its body's end), its reply whole only then.
 */
export function endsStream(value: unknown): boolean {
  return typeof value === 'string' && MEANINGS.has(value.trim().toLowerCase());
}

/**
 * What a reply's `finish_reason` means; throws a ReplyError (`unfinished`)
 * when it says the server ended the generation before it was done.
 */
export function readFinish(value: unknown): ReadFinish {
  if (!saysFinish(value)) return { reason: null, said: null };
  const meaning = typeof value === 'string' ? MEANINGS.get(value.trim().toLowerCase()) : undefined;
  if (meaning === 'unfinished') throw new ReplyError('unfinished', `the server ended the generation unfinished (finish_reason "${String(value)}")`);
  if (meaning !== undefined) return { reason: meaning, said: null };
  const shown = typeof value === 'string' ? `"${value}"` : (JSON.stringify(value) ?? String(value));
  return { reason: null, said: shown.length > SHOWN_CHARS ? `${shown.slice(0, SHOWN_CHARS)}…` : shown };
}

/**
 * The finish reason of a whole reply that gave none tmas knows: cut at the
 * length limit when its completion tokens (its usage, else the run's count
 * of its text) reached the request's `max_tokens`, else stopped; stopped
 * too when neither is known.
 */
export function inferredFinish(completionTokens: number | null, maxTokens: number): FinishReason {
  return completionTokens !== null && completionTokens >= maxTokens ? 'length' : 'stop';
}
