/**
 * Cutting a text to at most a number of tokens, deterministically: the
 * judge's view of a response (machines/roles/judge.role.ts), and a quoted
 * value shortened to fit the window (shorten-values.ts). The first and
 * last halves are kept, so a reader sees how the text starts and what it
 * concludes, with a line between them saying how many tokens were left out.
 *
 * Works with any counter (a tiktoken encoding or a model's own tokenizer):
 * each cut is the longest prefix (suffix) whose count is within its half,
 * found by bisection on the text's length, and never splits a surrogate pair.
 */

/** Tokens kept free for the line that marks the cut. */
const MARKER_TOKENS = 32;

/** The longest length in [0, limit] for which `fits` holds, `fits` being true up to some length and false after. */
function longest(limit: number, fits: (length: number) => boolean): number {
  let [low, high] = [0, limit];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * `text` when it has at most `maxTokens` tokens; otherwise its head and tail
 * of about `(maxTokens - 32) / 2` tokens each, joined by a line that says how
 * many tokens were left out, and `why`. The same text, bound and counter
 * always give the same result.
 */
export function boundTokens(text: string, maxTokens: number, count: (text: string) => number, why = `the judge reads at most ${maxTokens} tokens of a response`): string {
  const total = count(text);
  if (total <= maxTokens) return text;
  const half = Math.max(0, Math.floor((maxTokens - MARKER_TOKENS) / 2));
  let headEnd = longest(text.length, (length) => count(text.slice(0, length)) <= half);
  if (headEnd > 0 && isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  let tailLength = longest(text.length - headEnd, (length) => count(text.slice(text.length - length)) <= half);
  if (tailLength > 0 && isLowSurrogate(text.charCodeAt(text.length - tailLength))) tailLength--;
  const head = text.slice(0, headEnd);
  const tail = text.slice(text.length - tailLength);
  const omitted = Math.max(0, total - count(head) - count(tail));
  return `${head}\n[… ${omitted} tokens left out here: ${why} …]\n${tail}`;
}
