/**
 * A value a Chinese sentence states at the end of a reply: "体重是192公斤。", "比例为13/28。", and a conclusion that
 * has or reaches it, "所以他们一共赚了8722美元。", "所以一共有3 + 10 = 13只鸟。", "弗兰克一共有**858颗**糖果。". Read
 * as bare mathematics or as no answer at all, a right count was unsure, or no answer where the reply gave one.
 */
import { SCALED_NEXT } from '../math/cjk-scale.ts';

/**
 * A number as such a sentence writes it, set in bold or not, with its counter or unit in up to five characters. Not
 * a number the next character makes another ("5万" is 50000, "5千", "5分之1"), bounds ("5以上", "5多个", "5余") or
 * takes as a base ("5的倍数", "5的平方"): read as its digits alone, each was graded equal to a reference 5.
 */
const VALUE = String.raw`\**\s*(-?\d+(?:\.\d+)?(?:\/\d+)?%?)(?![\d.]|${SCALED_NEXT})\s*\p{Script=Han}{0,3}\s*\**\s*\p{Script=Han}{0,5}`;

/**
 * What states the value: 是, 为 or 等于 right before it, or a conclusion (所以, 因此, 一共, 总共, …) that goes on to 有, 了
 * or "=" (not ">=", "!=") before it, within its clause; a clause that denies it (DENIES) states none.
 */
const STATES = String.raw`(?:(?:是|为|等于)|(?:所以|因此|因而|故|于是|一共|总共|共计)[，,]?[^。，,\n$]{0,30}?(?:有|了|(?<![<>!≤≥≠]\s*)=))\s*`;

/**
 * Words that deny what the clause states: "所以答案不是5。", "所以小明没有5个苹果。", "不会是5", "并非5", "未必是5". Any of
 * them in the clause before the value leaves it unread: read, the denied value was graded equal to a reference 5. Not
 * 未 or 无 alone, which begin words that deny nothing ("未知数的值为5", "无论如何").
 */
const DENIES = /[不没]|[并绝决]非|非(?=是|为)|未(?:必|曾|能|有)|无(?:法|须|需)/u;

/** Where the clause that ends at `at` begins: after the last full stop, comma or line break before it. */
function clauseStart(text: string, at: number): number {
  return Math.max(...['。', '，', ',', '；', ';', '！', '？', '\n'].map((mark) => text.lastIndexOf(mark, at - 1) + 1));
}

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
  const found = (whole ? AT_END_OF_LINE : AT_END).exec(tail);
  const value = found?.[1];
  if (found === null || value === undefined) return null;
  const valueAt = found.index + found[0].indexOf(value);
  return DENIES.test(tail.slice(clauseStart(tail, found.index), valueAt)) ? null : value;
}

/** How far from the end of a text the statement of its value may begin. */
const STATEMENT_REACH = 200;
