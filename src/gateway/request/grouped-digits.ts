/**
 * Numbers in a server's words written with their thousands grouped ("32,768
 * tokens", "1,048,576", "131 072" with a no-break space), as hosted APIs and
 * proxies that format their messages for people write them. Read digit by
 * digit, "maximum context length is 32,768 tokens" stated a window of 32
 * tokens, and the call was refitted into 512; "supports at most 16,384
 * completion tokens" a cap of 16.
 */

/**
 * A group of one to three digits followed by groups of exactly three, each
 * after a comma or a (no-break, thin) space, not inside a longer number or a
 * range's bracket ("[1,100]" is two numbers).
 */
const GROUPED = /(?<![\d.,[])\d{1,3}(?:[,\u00a0\u202f\u2009]\d{3})+(?![\d,])/g;

/** `text` with every grouped number written as plain digits ("32,768" → "32768"); the rest as it was. */
export function ungroupDigits(text: string): string {
  return text.replace(GROUPED, (number) => number.replace(/\D/g, ''));
}
