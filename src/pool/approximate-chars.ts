/**
 * About how long a value is as JSON, without serialising it: the store and the
 * gateway use it to decide what is worth serialising on a pool thread.
 */

/**
 * Values of about this many characters and more are serialised on a pool
 * thread: below it, handing the value over and the bytes back costs about
 * what serialising it on the main thread does.
 */
export const OFF_THREAD_JSON_CHARS = 64 * 2 ** 10;

/** About the length of `value` as JSON: its strings and keys, and a few characters per other value. Cheap: a walk, no copy. */
export function approximateChars(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return 8;
  let chars = 2;
  if (Array.isArray(value)) {
    for (const item of value) chars += approximateChars(item) + 1;
    return chars;
  }
  for (const key in value) chars += key.length + 4 + approximateChars((value as Record<string, unknown>)[key]);
  return chars;
}
