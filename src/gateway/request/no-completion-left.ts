/**
 * A completion limit the server worked out as none: vLLM's "max_tokens must
 * be at least 1, got 0." (its limit is what its window leaves the prompt,
 * when that is less than the request's), OpenAI's "Expected a value >= 1,
 * but got 0 instead." of `max_tokens`, a proxy's that clamps the limit to
 * its model's window and refuses what is left. tmas never sends a limit
 * below 1, so the value the server names is its own: the prompt alone
 * fills the server's window (by |value| tokens past it). Read as a refused
 * request (TMAS_CALL_REJECTED), the call failed at once, saying nothing of
 * the window; it is a context-length error, and the call is refitted into
 * a window of its prompt less that overshoot (context-errors.ts).
 */

/** The limit fields servers name (OpenAI's two, TGI's, Gemini's). */
const LIMIT_FIELD = /\bmax_(?:completion_|new_|output_)?tokens\b/i;

/** "at least 1", ">= 1", "greater than 0", "positive", then the value the server got, zero or less. */
const NONE_LEFT = /(?:at least 1|>= ?1|greater than (?:or equal to )?[01]|> ?0|positive)\b[^]{0,60}?\bgot:? ?`?(-?\d{1,12})\b/i;

/** The most characters between the field's name and the words that refuse its value. */
const NEAR_CHARS = 80;

/** The most characters of a message read: such refusals are one sentence, an error body is up to 64 KiB. */
const READ_CHARS = 1024;

/** The completion limit (0 or less) the server says it got, when its words say it refused one of none; else null. */
export function noCompletionLeft(message: string): number | null {
  const head = message.slice(0, READ_CHARS);
  const field = LIMIT_FIELD.exec(head);
  if (field === null) return null;
  const after = head.slice(field.index + field[0].length);
  const got = NONE_LEFT.exec(after);
  if (got === null) return null;
  // The words must be the field's own: near it and in its clause (OpenAI's "Invalid 'max_tokens': integer below minimum
  // value. Expected a value >= 1"), not another field's said after it ("max_tokens: 5; n must be at least 1, got 0",
  // "... for this model. Also: best_of must be at least 1").
  const between = after.slice(0, got.index);
  if (between.length > NEAR_CHARS || /[;,]|\b[a-z]+_[a-z]/i.test(between)) return null;
  const value = Number(got[1]);
  return value <= 0 ? value : null;
}
