/**
 * An error the server sent inside a successful answer: an `{"error": …}`
 * event in the middle of a stream (vLLM and OpenAI send one when generation
 * fails after the headers went out), or an `{"error": …}` JSON body under a
 * 200. The HTTP status said nothing of it, so the error's own numeric `code`
 * stands in for one where it has a status's value; otherwise it counts as the
 * server's failure (500): the reply broke on the server's side, and the same
 * request may well succeed on the next attempt.
 */
import { APIError } from 'openai';
import { clippedText } from '../../kernel/clipped-text.ts';

/** The server's error, read from a reply that began as a success. */
export class InBandError extends APIError {
  override readonly name = 'InBandError';

  constructor(error: unknown, headers: Headers) {
    // TGI sends the error as a string; OpenAI and vLLM as an object with its message.
    const body = typeof error === 'object' && error !== null ? error : { message: String(error) };
    // Given with its message already written: the client's own writes the whole error back when it has none.
    const message = messageOf(body);
    super(statusOf(body), { ...body, message }, undefined, headers);
    // The server's words alone: the status above is a stand-in, not what the HTTP answer said.
    this.message = message;
  }
}

/**
 * The server's error that `value` (a parsed chunk or body) carries, or null:
 * its `error` field (OpenAI, vLLM, SGLang), or the value itself when it is an
 * error object without that wrapper (`{"object": "error", "message": …}`, the
 * shape of vLLM's and FastChat's ErrorResponse, which some servers send bare).
 */
export function inBandErrorOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return null;
  if ('error' in value && saysSomething(value.error)) return value.error;
  return 'object' in value && value.object === 'error' ? value : null;
}

/**
 * Whether an `error` field says anything: not null, false, "", nor an empty
 * object or list. Some servers write `"error": {}` on every chunk of a
 * stream that goes well; read as the server's error, every attempt failed.
 */
function saysSomething(error: unknown): boolean {
  if (typeof error === 'object' && error !== null) return Object.keys(error).length > 0;
  return Boolean(error);
}

/** How much of an error without a message is shown: the server's words, not a body of megabytes. */
const SHOWN_ERROR_CHARS = 2_000;

/**
 * The error's message as the server wrote it, or the whole error when it has none, shortened. An error nested
 * too deeply to write back (a body of `{"error": {"a": {"a": …}}}`) overflowed the stack: that RangeError, thrown
 * while the reply was read, failed the call as rejected instead of retrying it as the server's failure.
 */
function messageOf(error: object): string {
  const message: unknown = (error as { message?: unknown }).message;
  if (typeof message === 'string' && message !== '') return message;
  let text: string;
  try {
    text = JSON.stringify(message ?? error) ?? String(error);
  } catch {
    return 'an error object nested too deeply to show';
  }
  return clippedText(text, SHOWN_ERROR_CHARS);
}

/** The error's `code` when it is an HTTP error status (a number or its digits), else 500. */
function statusOf(error: object): number {
  const code = Number((error as { code?: unknown }).code);
  return Number.isInteger(code) && code >= 400 && code <= 599 ? code : 500;
}
