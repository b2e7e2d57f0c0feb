/**
 * Python's `text % values` (printf-style formatting), which jinja2 gives a
 * template (`'%s of %d' % (name, n)`, `'%.2f' % score`, `'%(a)s' % record`)
 * and `@huggingface/jinja` lacks ("Unknown operator %"): a template that
 * formatted a score so failed at the first prompt that reached it. The
 * conversions d, i, u, s, r, a, f, F, e, E, g, G, x, X, o, c and %, with
 * their flags, width and precision; another is Python's error.
 */
import { pyType } from './jinja2-tests.ts';
import { boundedWidth } from './jinja2-values.ts';
import { exponentDigits, fixedDigits } from './python-float-digits.ts';
import { pyIntOfFloat } from './python-int-float.ts';
import { isTuple, pyFloat, pyRepr, pyStr, type RuntimeValue } from './python-str.ts';

const SPEC = /%(?:\(([^)]*)\))?([-+ 0#]*)(\*|\d+)?(?:\.(\*|\d+))?[hlL]?([a-zA-Z%])?/g;

/** A value as Python's int() of a number for %d, %x, %o, %c; a TypeError like Python's for a text. */
function integerOf(value: RuntimeValue, conversion: string): number {
  // %d, %i and %u take a float's integer part; %x, %o and %c refuse a float (they printed 1.5 as "1", 65.0 as "A").
  if (value.type === 'FloatValue' && !'diu'.includes(conversion)) throw new TypeError(conversion === 'c' ? '%c requires int or char' : `%${conversion} format: an integer is required, not float`);
  if (typeof value.value === 'number' || typeof value.value === 'boolean') return pyIntOfFloat(Number(value.value));
  throw new TypeError(`%${conversion} format: a ${conversion === 'c' ? 'int or char' : 'real number'} is required, not ${pyType(value)}`);
}

/**
 * The digits of the integer `n`'s magnitude in `radix`, every one of them: Python's are exact, and JavaScript
 * writes a number past 2**53 with its shortest digits ('%d' % 2 ** 60 gave 1152921504606847000, jinja2's
 * 1152921504606846976) and from 10**21 in exponent notation ('%d' % 1e21 gave 1e+21).
 */
function exactDigits(n: number, radix: number): string {
  return BigInt(Math.abs(n)).toString(radix);
}

function numberOf(value: RuntimeValue, conversion: string): number {
  if (typeof value.value === 'number' || typeof value.value === 'boolean') return Number(value.value);
  throw new TypeError(`must be real number, not ${pyType(value)} (%${conversion})`);
}

/** Python's exponent notation: at least two exponent digits. */
function exponential(x: number, precision: number, upper: boolean): string {
  const { mantissa, power } = exponentDigits(x, precision);
  const text = `${mantissa}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
  return upper ? text.toUpperCase() : text;
}

/** Python's %g: fixed or exponent notation by the exponent, trailing zeros dropped unless `alternate`. */
function general(x: number, precision: number, upper: boolean, alternate: boolean): string {
  const digits = precision === 0 ? 1 : precision;
  if (x === 0) return alternate ? `0.${'0'.repeat(digits - 1)}` : '0';
  const { power } = exponentDigits(x, digits - 1);
  const text = power < -4 || power >= digits ? exponential(x, digits - 1, upper) : fixedDigits(x, Math.max(0, digits - 1 - power));
  if (alternate) return text;
  return text.replace(/\.?0+(?=e|E|$)/, (match) => (match.startsWith('.') || text.includes('.') ? '' : match));
}

/** One conversion of `value`, before its width. */
function converted(value: RuntimeValue, conversion: string, flags: string, precision: number | undefined): string {
  const sign = (x: number, body: string) => (x < 0 || Object.is(x, -0) ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '') + body;
  switch (conversion) {
    case 's':
    case 'r':
    case 'a': {
      const text = conversion === 's' ? pyStr(value) : pyRepr(value);
      return precision === undefined ? text : Array.from(text).slice(0, precision).join('');
    }
    case 'd':
    case 'i':
    case 'u': {
      const n = integerOf(value, conversion);
      return sign(n, exactDigits(n, 10).padStart(precision ?? 1, '0'));
    }
    case 'x':
    case 'X':
    case 'o': {
      const n = integerOf(value, conversion);
      const digits = exactDigits(n, conversion === 'o' ? 8 : 16);
      const prefix = flags.includes('#') ? (conversion === 'o' ? '0o' : `0${conversion}`) : '';
      return sign(n, prefix + (conversion === 'X' ? digits.toUpperCase() : digits));
    }
    case 'c':
      if (typeof value.value !== 'string') return String.fromCodePoint(integerOf(value, 'c'));
      if (Array.from(value.value).length !== 1) throw new TypeError('%c requires int or char');
      return value.value;
    default: {
      const x = numberOf(value, conversion);
      if (!Number.isFinite(x)) return sign(x, pyFloat(Math.abs(x)));
      // JavaScript writes at most 100 digits of a float (toFixed, toExponential): '%.200f' % 1 gave 100 zeros, Python's 200.
      if ((precision ?? 6) > 100) throw new RangeError(`a precision of ${precision} digits: tmas writes at most 100 digits of a float, where jinja2 writes them all: write at most %.100${conversion}`);
      const upper = conversion === conversion.toUpperCase();
      const lower = conversion.toLowerCase();
      const body = lower === 'f' ? fixedDigits(x, precision ?? 6) : lower === 'e' ? exponential(Math.abs(x), precision ?? 6, upper) : general(Math.abs(x), precision ?? 6, upper, flags.includes('#'));
      return sign(x, body);
    }
  }
}

/** `converted` padded to `width`: left-justified with `-`, zeros after the sign with `0` for numbers, spaces otherwise. */
function padded(text: string, width: number, flags: string, numeric: boolean): string {
  const length = Array.from(text).length;
  if (length >= width) return text;
  if (flags.includes('-')) return text + ' '.repeat(width - length);
  if (!flags.includes('0') || !numeric) return ' '.repeat(width - length) + text;
  const signed = /^[-+ ]/.test(text) ? 1 : 0;
  return text.slice(0, signed) + '0'.repeat(width - length) + text.slice(signed);
}

/** `format % values` as Python gives it (`values` a tuple's items, a record's entries for `%(name)s`, or one value); Python's error names the format. */
export function pyPercent(format: string, values: RuntimeValue): string {
  try {
    return formatted(format, values);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new TypeError(`${JSON.stringify(format)} % …: ${message}`, { cause: error });
  }
}

function formatted(format: string, values: RuntimeValue): string {
  const byName = values.value instanceof Map ? (values.value as Map<string, RuntimeValue>) : null;
  // A tuple's items, a record's (key, value) pair's too (items() gives lists marked as tuples: '%s=%s' % pair failed).
  const tuple = isTuple(values);
  const positional = tuple ? (values.value as RuntimeValue[]) : [values];
  // Python reads a value it can index (a list, as a record) as a mapping: what no specifier takes is no error ('ab' % [1]).
  const indexable = byName !== null || (!tuple && values.type === 'ArrayValue');
  let next = 0;
  const take = (): RuntimeValue => {
    const value = positional[next++];
    if (value === undefined) throw new TypeError('not enough arguments for format string');
    return value;
  };
  const text = format.replace(SPEC, (_, name: string | undefined, flags: string, width: string | undefined, precision: string | undefined, conversion: string | undefined) => {
    if (conversion === '%') return '%';
    if (conversion === undefined || !'diusrafFeEgGxXoc'.includes(conversion)) throw new Error(`unsupported format character '${conversion ?? ''}'`);
    const widthOf = (given: string | undefined) => (given === '*' ? integerOf(take(), 'd') : given === undefined ? undefined : Number(given));
    const [w, p] = [widthOf(width), widthOf(precision)].map((given) => (given === undefined ? undefined : boundedWidth(given, `a width or precision of ${given}`)));
    let value: RuntimeValue;
    if (name !== undefined) {
      if (byName === null) throw new TypeError('format requires a mapping');
      const found = byName.get(name);
      if (found === undefined) throw new Error(`KeyError: '${name}'`);
      value = found;
    } else value = byName !== null && positional.length === 1 ? values : take();
    return padded(converted(value, conversion, flags, p), w ?? 0, flags, !'srac'.includes(conversion));
  });
  if (!indexable && next < positional.length) throw new TypeError('not all arguments converted during string formatting');
  return text;
}
