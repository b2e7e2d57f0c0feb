/**
 * The base a whole answer is written in, when it is one numeral in a base
 * other than ten ("204_5", "4210_{5}", "FF_{16}", "0b1010"). A reference
 * written so says the question asked for that base: "Express 54 in base 5"
 * is answered by 204_5, and 54, its value, does not answer it.
 */

/** "204_5", "2516_{8}", "1A_{12}": digits, or digits and capitals, and the base as a subscript. */
const SUBSCRIPT_NUMERAL = /^([0-9A-Z]+)_(?:\{\s*(\d{1,2})\s*\}|(\d{1,2}))$/;

/** "0xFF", "0b1010", "0o17": the base a program's prefix names. */
const PREFIXES: Readonly<Record<string, number>> = { x: 16, b: 2, o: 8 };

/** The base other than ten that the whole of `cleaned` is a numeral in, or null. */
export function numeralBase(cleaned: string): number | null {
  const text = cleaned.trim().replace(/^\\text\{([0-9A-Z]+)\}_/, '$1_');
  const prefixed = /^0(?:(x)[0-9A-Fa-f]+|(b)[01]+|(o)[0-7]+)$/.exec(text);
  if (prefixed !== null) return PREFIXES[prefixed[1] ?? prefixed[2] ?? prefixed[3] ?? ''] ?? null;
  const m = SUBSCRIPT_NUMERAL.exec(text);
  const base = Number(m?.[2] ?? m?.[3]);
  if (m?.[1] === undefined || base < 2 || base > 36 || base === 10) return null;
  // "F_{16}" alone is a term of a sequence; a numeral has digits of its base only.
  if (/[A-Z]/.test(m[1]) && m[1].length < 2) return null;
  return [...m[1]].every((digit) => Number.parseInt(digit, 36) < base) ? base : null;
}

/** Whether a match in value leaves open the base the reference is written in: `pred` is not written in it. */
export function otherBaseThanAsked(goldCleaned: string, predCleaned: string): boolean {
  const asked = numeralBase(goldCleaned);
  return asked !== null && numeralBase(predCleaned) !== asked;
}

/**
 * Whether `pred` is the digits of the reference's numeral with its base left off: "52" against "52_8". The reference's
 * base says the question asked for it, so the digits are that numeral's (its decimal value, 42, is another answer);
 * read as the decimal 52, the right answer was graded different, sure of it.
 */
export function digitsWithBaseLeftOff(goldCleaned: string, predCleaned: string): boolean {
  const gold = goldCleaned.trim().replace(/^\\text\{([0-9A-Z]+)\}_/, '$1_');
  if (numeralBase(gold) === null || /^0[xbo]/.test(gold)) return false;
  const digits = gold.replace(/_.*$/, '');
  return predCleaned.trim().replace(/^\\text\{([0-9A-Z]+)\}$/, '$1') === digits;
}
