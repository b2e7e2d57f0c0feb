/**
 * A message quoted in another, shortened for a line: cut at a word's end where one is near the limit, and marked
 * `…`. A cut at a fixed count of characters ended a failure in the middle of a word, where it read as another
 * word: `(--keepalive-timeout 20)` became `(--keepalive-time`, a flag tmas does not have.
 */

/** How far back from the limit a word's end is looked for; past it, the text is cut where the limit falls. */
const WORD_REACH = 40;

/** `text` as it is when it has at most `max` characters, else its start up to a word's end near `max`, then `…`. */
export function clippedText(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(' ', max);
  const end = space > max - WORD_REACH ? space : max;
  return `${text.slice(0, end).trimEnd()}…`;
}
