/**
 * jinja2's `int` and `float` filters: Python's int() and float() of the
 * value, with jinja2's fallbacks. `int` reads a text in its base, else
 * truncates what float() reads of it ("3.9" is 3, "1e3" 1000), else gives
 * its default (0); `float` gives float() or its default (0.0). The library
 * read the number a text begins with ("111/2" gave 111, jinja2 0), so the
 * two were refused before the run (a mini-swe-agent prompt's
 * `((limit - elapsed) / 60) | int`, a chat template's `| int`).
 */
import { pyStrip, type RuntimeValue } from './python-str.ts';

/** jinja2's default when Python's conversion fails. */
export const NO_NUMBER = Symbol('no number');
type Converted = number | typeof NO_NUMBER;

/** A decimal digit of any script (Python reads "١٢" as 12): its value, as the distance from the start of its run of digits. */
function digitValue(char: string): number {
  let point = char.codePointAt(0) as number;
  const at = point;
  while (/\p{Nd}/u.test(String.fromCodePoint(point - 1))) point--;
  return (at - point) % 10;
}

/** `text` stripped of Python's whitespace, every decimal digit written in ASCII. */
function asciiDigits(text: string): string {
  return pyStrip(text, 'strip').replace(/\p{Nd}/gu, (char) => (/[0-9]/.test(char) ? char : String(digitValue(char))));
}

const PREFIXES: Readonly<Record<string, number>> = { x: 16, o: 8, b: 2 };

/** Python's int(text, base), or NO_NUMBER where it raises ValueError. */
function intOfText(text: string, base: number): Converted {
  let body = asciiDigits(text);
  const sign = body.startsWith('-') ? -1 : 1;
  if (/^[+-]/.test(body)) body = body.slice(1);
  let radix = base === 0 ? 10 : base;
  const prefix = /^0([xob])_?/i.exec(body);
  const prefixed = prefix === null ? undefined : PREFIXES[(prefix[1] as string).toLowerCase()];
  if (prefix !== null && prefixed !== undefined && (base === 0 || base === prefixed)) {
    radix = prefixed;
    body = body.slice(prefix[0].length);
  }
  if (radix < 2 || radix > 36 || !/^[0-9a-z]+(_[0-9a-z]+)*$/i.test(body)) return NO_NUMBER;
  const digits = body.replace(/_/g, '').toLowerCase();
  if (Array.from(digits).some((digit) => parseInt(digit, 36) >= radix)) return NO_NUMBER;
  return sign * parseInt(digits, radix);
}

/** Python's float(text), or NO_NUMBER where it raises ValueError. */
function floatOfText(text: string): Converted {
  const body = asciiDigits(text);
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(body);
  if (special !== null) return (special[2] as string).toLowerCase() === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity;
  const digits = '[0-9]+(?:_[0-9]+)*';
  if (!new RegExp(`^[+-]?(?:${digits}(?:\\.(?:${digits})?)?|\\.${digits})(?:[eE][+-]?${digits})?$`).test(body)) return NO_NUMBER;
  return Number(body.replace(/_/g, ''));
}

/** Python's float() of a value, or NO_NUMBER where it raises TypeError or ValueError (None, a list, a record, "abc"). */
export function pyFloatOf(value: RuntimeValue): Converted {
  if (typeof value.value === 'string') return floatOfText(value.value);
  if (value.type === 'BooleanValue') return value.value ? 1 : 0;
  return typeof value.value === 'number' ? value.value : NO_NUMBER;
}

/** The integer a text's digits give; past 2^53 jinja2's is exact and this one would not be, so it fails rather than print another number. */
function exactInteger(number: number, text: string): number {
  if (!Number.isSafeInteger(number)) throw new RangeError(`"int" of "${text.trim()}": an integer past 2**53 is not held exactly here, where jinja2's is: keep it a text`);
  return number;
}

/**
 * Python's int() of a float, as %d and round's ceil and floor take it: its integer part, never -0 (int(-0.5) is 0,
 * where JavaScript's -0 printed "-0" and "-0.0"), and Python's error for an infinity or NaN, which printed as numbers.
 */
export function pyIntOfFloat(x: number): number {
  if (Number.isNaN(x)) throw new RangeError('cannot convert float NaN to integer');
  if (!Number.isFinite(x)) throw new RangeError('cannot convert float infinity to integer');
  return Math.trunc(x) + 0;
}

/** jinja2's int filter: int(value) (of a text, in `base`), else int(float(value)), else NO_NUMBER (its default). */
export function jinja2Int(value: RuntimeValue, base: number): Converted {
  if (value.type === 'FloatValue' && !Number.isFinite(value.value)) {
    // int(inf) raises OverflowError, which jinja2 lets through; int(nan) a ValueError, which it catches.
    if (Number.isNaN(value.value)) return NO_NUMBER;
    throw new RangeError('"int" of an infinite number: cannot convert float infinity to integer');
  }
  const direct = typeof value.value === 'string' ? intOfText(value.value, base) : NO_NUMBER;
  if (direct !== NO_NUMBER) return exactInteger(direct, String(value.value));
  // A float's integer part is exact however large (int(1e20) is 10**20), and prints so.
  const float = pyFloatOf(value);
  return float === NO_NUMBER || !Number.isFinite(float) ? NO_NUMBER : Math.trunc(float);
}
