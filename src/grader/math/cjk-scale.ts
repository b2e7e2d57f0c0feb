/**
 * Characters after a number that make it another number, a bound or a base, in Chinese: "5万" is 50000, "5千" 5000,
 * "5以上" five or more, "5多个" more than five, "5的平方" its square, "5的倍数" its multiples, "5分之1" a fifth. Read
 * as a counter after the number (as "5个" is), each was graded equal to a reference 5.
 */

/** Those characters, after optional white space; 千 not where it begins a unit ("4000千克" is 4000 kilograms). */
export const SCALED_NEXT = String.raw`\s*(?:[万百亿兆的以之余多几来]|千(?![克米瓦卡焦帕赫])|分之)`;

const SCALED_AT_START = new RegExp(`^${SCALED_NEXT}`, 'u');

/** Whether the number that ends where `rest` begins is scaled, bounded or a base by what follows it. */
export function scaledByNextCjk(rest: string): boolean {
  return SCALED_AT_START.test(rest);
}
