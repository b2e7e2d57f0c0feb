/**
 * The wait a 429 states in its body alone, where no header says it (a proxy
 * such as LiteLLM that passes the error on without the API's headers, or an
 * API that writes it nowhere else): OpenAI's and Groq's "Please try again in
 * 7m12s", Azure's "Please retry after 20 seconds", Gemini's "Please retry in
 * 37.583s" and its RetryInfo detail (`"retryDelay": "37s"`). Unread, a call
 * retried at the backoff's first steps into a per-minute limit, each a
 * failure; and a daily limit ("on requests per day (RPD) … try again in
 * 7h12m0s") spent every call's retries, minutes each, until the run stopped
 * as an endpoint down, advising to lower --concurrency, where it can stop at
 * once saying when to resume (TMAS_RATE_LIMITED).
 */
import { APIError } from 'openai';

/** The most characters of a message read: such a sentence comes early, and an error body is up to 64 KiB. */
const READ_CHARS = 2048;

/** "try again in 7m12s", "retry in 37.583s", "retry after 20 seconds", "try again in 1 minute": the amount and its unit. */
const WAIT_WORDS = /\b(?:try again|retry)\s(?:in|after)\s(?:about\s)?(\d{1,9}(?:\.\d{1,6})?)\s?(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hours?)(?![a-z])((?:\d{1,9}(?:\.\d{1,6})?(?:ms|h|m|s))*)/i;

/** Milliseconds in each unit, by its first letters. */
function unitMs(unit: string): number {
  const word = unit.toLowerCase();
  if (word === 'ms' || word.startsWith('milli')) return 1;
  if (word.startsWith('s')) return 1000;
  if (word.startsWith('m')) return 60_000;
  return 3_600_000;
}

/** The rest of a Go duration after its first part ("12s" of "7m12s"), in milliseconds. */
function restMs(rest: string): number {
  let total = 0;
  for (const [, amount, unit] of rest.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) total += Number(amount) * unitMs(unit ?? 's');
  return total;
}

/** Gemini's RetryInfo detail: `{"@type": "…google.rpc.RetryInfo", "retryDelay": "37s"}`, in seconds. */
function retryInfoMs(error: APIError): number | null {
  const details = (error.error as { details?: unknown } | undefined)?.details;
  if (!Array.isArray(details)) return null;
  for (const detail of details) {
    const delay = (detail as { retryDelay?: unknown } | null)?.retryDelay;
    const seconds = typeof delay === 'string' ? /^\s*(\d{1,9}(?:\.\d{1,9})?)s\s*$/.exec(delay)?.[1] : undefined;
    if (seconds !== undefined) return Number(seconds) * 1000;
  }
  return null;
}

/** The wait a 429's body states, in milliseconds; null when it states none. */
export function statedWaitMs(error: APIError): number | null {
  const fromDetail = retryInfoMs(error);
  if (fromDetail !== null) return fromDetail;
  const words = WAIT_WORDS.exec(error.message.slice(0, READ_CHARS));
  if (words === null) return null;
  return Number(words[1]) * unitMs(words[2] ?? 's') + restMs(words[3] ?? '');
}
