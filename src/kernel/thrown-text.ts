/**
 * The text of a value thrown by code tmas does not own (an agents module, a template, a library a file is read
 * with), for a message. Whatever such code throws reaches tmas: an Error whose `message` getter throws, an object
 * whose `toString` throws or that has none (Object.create(null)), a Proxy whose every trap throws, a string of
 * 50 MB. `error instanceof Error ? error.message : String(error)` threw on the first four, so tmas ended with an
 * internal error (exit 1, a stack trace of XState) in place of the module's own coded error, and on the last it
 * built messages of 50 MB. Nothing here throws, and the text is bounded.
 */

/** How much of a thrown value's text a message holds: enough for any real message, not a whole file. */
export const THROWN_TEXT_CHARS = 2000;

/** `value instanceof Error`, false where asking throws (a Proxy whose getPrototypeOf trap throws). */
export function isErrorSafely(value: unknown): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

/** `value`'s own text when reading it throws nothing: its `message` when it is a string, else String(value); null when neither can be read. */
function readText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'symbol') return value.description === undefined ? 'Symbol()' : `Symbol(${value.description})`;
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return String(value);
  try {
    const message: unknown = (value as { message?: unknown }).message;
    if (typeof message === 'string') return message;
  } catch {
    // A getter that throws: its text is read as any object's.
  }
  try {
    const text = String(value);
    return text === '[object Object]' ? null : text;
  } catch {
    return null;
  }
}

/** How many of an object's keys its description names. */
const KEYS_NAMED = 8;

/** The kind of an object whose text cannot be read: `an Error`, `an object with keys a, cause`. */
function kindOf(value: unknown): string {
  if (isErrorSafely(value)) return 'an Error';
  if (typeof value === 'function') return 'a function';
  try {
    if (Array.isArray(value)) return 'an array';
    const keys = Object.keys(value as object);
    const named = keys.slice(0, KEYS_NAMED).map((key) => key.slice(0, 40)).join(', ');
    return keys.length === 0 ? 'an object with no keys' : `an object with keys ${named}${keys.length > KEYS_NAMED ? ', …' : ''}`;
  } catch {
    return 'an object';
  }
}

/**
 * What `value` says of itself, for a message: an Error's message, a string, `null`, `Symbol(x)`, or, for an object
 * whose text cannot be read, what it is (`an Error whose message and text could not be read`); at most
 * THROWN_TEXT_CHARS characters, the rest counted. Never throws.
 */
export function thrownText(value: unknown, limit = THROWN_TEXT_CHARS): string {
  return bounded(readText(value) ?? `${kindOf(value)} whose message and text could not be read`, limit);
}

/** `text`, its first `limit` characters and how many more. */
function bounded(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}… (${text.length - limit} more characters)`;
}

/** `value` as JSON, null where it has none or writing it throws (a cycle, a BigInt, a toJSON or a Proxy trap that throws). */
function jsonOf(value: unknown): string | null {
  try {
    const json: unknown = JSON.stringify(value);
    return typeof json === 'string' ? json : null;
  } catch {
    return null;
  }
}

/**
 * A thrown value that is not an Error, said with its kind, for a message: `the string "boom"`, `the number 42`,
 * `undefined`, `an object {"code":7}`, or what thrownText says of one whose JSON says nothing. Where only its text
 * was given, a thrown '42' read as a thrown 42, undefined as the word, and an object as its keys without their
 * values. Bounded as thrownText is; never throws.
 */
export function describeNonError(value: unknown, limit = THROWN_TEXT_CHARS): string {
  if (value === undefined || value === null) return String(value);
  // The string cut before it is quoted: a thrown file's text is not written out whole to be cut.
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, limit))}${value.length > limit ? `… (${value.length - limit} more characters)` : ''}`;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return `the ${typeof value} ${String(value)}`;
  if (typeof value === 'symbol') return `the symbol ${thrownText(value, limit)}`;
  const json = typeof value === 'object' ? jsonOf(value) : null;
  if (json === null || json === '{}') return thrownText(value, limit);
  return `${Array.isArray(value) ? 'an array' : 'an object'} ${bounded(json, limit)}`;
}
