/**
 * The arguments of the floors and ceilings in compiled mathjs source
 * ("floor(((v_n) / (2)))" gives "((v_n) / (2))"), for the integer-letter
 * rule of expr-equal.ts: a floor whose argument is an integer at every
 * integer rounds nothing there, so whoever wrote it meant the letter real.
 */

/** "floor" or "ceil" ending right before an opening parenthesis at `open`. */
const ROUNDING_NAME = /(?:^|[^A-Za-z0-9_])(?:floor|ceil)$/;

/** More than this many floors and ceilings are not read (null): a runaway answer, not a formula. */
const MOST_ROUNDINGS = 64;

/** Each floor's and ceiling's argument, as mathjs source, nested ones too; one pass over the source. */
export function roundingArguments(code: string): string[] | null {
  const found: string[] = [];
  const open: Array<{ at: number; rounding: boolean }> = [];
  for (let i = 0; i < code.length; i += 1) {
    if (code[i] === '(') open.push({ at: i, rounding: ROUNDING_NAME.test(code.slice(Math.max(0, i - 6), i)) });
    else if (code[i] === ')') {
      const start = open.pop();
      if (start?.rounding === true && found.push(code.slice(start.at + 1, i)) > MOST_ROUNDINGS) return null;
    }
  }
  return found;
}
