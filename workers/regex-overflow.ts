/**
 * Counting a text whose pre-tokenizer regex overflows.
 *
 * Every tokenizer here cuts a text into pieces with a regular expression
 * before merging (tiktoken's `pat_str`, a Hugging Face `Split`). V8 runs it
 * with a backtracking stack of bounded size, and one match of about
 * 4.2 million characters outside Latin-1 (a model repeating "的", "ж" or an
 * emoji) overflows it: the match throws a RangeError, and a count that
 * throws fails the same way on every resume. Such a text is counted in
 * windows of a million characters instead, each cut on its own. Only a cut
 * inside one piece changes that piece's tokens (its two halves are merged
 * apart, a token or so more per cut: one in a million characters); a text
 * the regex reads whole is counted exactly, as before.
 */

/** Characters per window: a quarter of the shortest match that overflows. */
export const WINDOW_CHARS = 2 ** 20;

/** `count(text)`, or the sum over windows of `text` when the regex overflows on it. */
export function countGuarded(count: (text: string) => number, text: string): number {
  try {
    return count(text);
  } catch (error) {
    if (!(error instanceof RangeError) || text.length <= WINDOW_CHARS) throw error;
  }
  let tokens = 0;
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + WINDOW_CHARS);
    // Never between the two halves of a surrogate pair: each half alone would count as a replacement character.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    tokens += count(text.slice(start, end));
    start = end;
  }
  return tokens;
}
