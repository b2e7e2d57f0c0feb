/**
 * A value a Chinese sentence states at the end of a reply: "体重是192公斤。", "比例为13/28。", and a conclusion that
 * has or reaches it, "所以他们一共赚了8722美元。", "所以一共有3 + 10 = 13只鸟。", "弗兰克一共有**858颗**糖果。". Read
 * as bare mathematics or as no answer at all, a right count was unsure, or no answer where the reply gave one.
 */

/** A number as such a sentence writes it, set in bold or not, with its counter or unit in up to five characters. */
const VALUE = String.raw`\**\s*(-?\d+(?:\.\d+)?(?:\/\d+)?%?)\s*\p{Script=Han}{0,3}\s*\**\s*\p{Script=Han}{0,5}`;

/**
 * What states the value: 是, 为 or 等于 right before it (not 不是, "is not"), or a conclusion (所以, 因此, 一共, 总共, …) that goes on to 有,
 * 了 or "=" before it, within its clause.
 */
const STATES = String.raw`(?:(?<![不非])(?:是|为|等于)|(?:所以|因此|因而|故|于是|一共|总共|共计)[，,]?[^。，,\n$]{0,30}?(?:有|了|=))\s*`;

/** Closing the text with its full stop; a whole reply of one short line may end without it. */
const AT_END = new RegExp(`${STATES}${VALUE}\\s*[。.]\\s*$`, 'u');
const AT_END_OF_LINE = new RegExp(`${STATES}${VALUE}\\s*[。.]?\\s*$`, 'u');

/**
 * The number the Chinese sentence closing `text` states, null for none. `whole` says `text` is a whole reply of one
 * short line ("计划的比例为13/28"), which may end without its full stop: a reply cut at its window is never that short.
 */
export function statedValueCjk(text: string, whole = false): string | null {
  // Such a sentence ends within this many characters of its conclusion word: searched from every place in a long
  // text, the pattern took half a second on a megabyte.
  const tail = text.slice(-STATEMENT_REACH);
  if (!/\p{Script=Han}/u.test(tail)) return null;
  return (whole ? AT_END_OF_LINE : AT_END).exec(tail)?.[1] ?? null;
}

/** How far from the end of a text the statement of its value may begin. */
const STATEMENT_REACH = 200;
