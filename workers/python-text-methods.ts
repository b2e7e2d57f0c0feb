/**
 * More of Python's str methods that jinja2 lets a template call and
 * `@huggingface/jinja` lacks or reads otherwise: `split` and `rsplit` with
 * Python's keywords (`split(',', maxsplit=1)` failed: "maxsplit argument must
 * be a number"), `partition`, `rpartition`, `ljust`, `rjust`, `center`, and
 * the tests `isdigit`, `isdecimal`, `isalpha`, `isspace`, `isascii` (an
 * answer's `.isdigit()`). They were refused before the run, wherever they
 * stood. Widths count characters, as Python's do, and are bounded.
 */
import { pyType } from './jinja2-tests.ts';
import { boundedReplace, boundedWidth, runtime } from './jinja2-values.ts';
import { isPySpace, markTuple, pyLength, type RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;

export const MORE_TEXT_METHODS = new Set(['replace', 'split', 'rsplit', 'partition', 'rpartition', 'ljust', 'rjust', 'center', 'isdigit', 'isdecimal', 'isalpha', 'isspace', 'isascii']);

/**
 * The characters past the decimal digits (Unicode's Nd, which isdecimal() takes) that Python's isdigit() takes:
 * superscripts, subscripts, circled and parenthesised digits (Python 3.11's Unicode 14 tables).
 */
const OTHER_DIGITS: ReadonlyArray<readonly [number, number]> = [
  [0xb2, 0xb3], [0xb9, 0xb9], [0x1369, 0x1371], [0x19da, 0x19da], [0x2070, 0x2070], [0x2074, 0x2079], [0x2080, 0x2089], [0x2460, 0x2468], [0x2474, 0x247c], [0x2488, 0x2490],
  [0x24ea, 0x24ea], [0x24f5, 0x24fd], [0x24ff, 0x24ff], [0x2776, 0x277e], [0x2780, 0x2788], [0x278a, 0x2792], [0x10a40, 0x10a43], [0x10e60, 0x10e68], [0x11052, 0x1105a], [0x1f100, 0x1f10a],
];

const isDecimal = (char: string) => /^\p{Nd}$/u.test(char);
const TESTS: Readonly<Record<string, (char: string) => boolean>> = {
  isdecimal: isDecimal,
  isdigit: (char) => isDecimal(char) || OTHER_DIGITS.some(([from, to]) => (char.codePointAt(0) ?? 0) >= from && (char.codePointAt(0) ?? 0) <= to),
  isalpha: (char) => /^\p{L}$/u.test(char),
  isspace: (char) => isPySpace(char.codePointAt(0) ?? 0),
  isascii: (char) => (char.codePointAt(0) ?? 0) < 0x80,
};

/** Python's keywords of split and rsplit (sep=, maxsplit=) in their places; the other methods take none. */
export function textMethodArguments(method: string, positional: Value[], named: ReadonlyMap<string, Value>): Value[] {
  if (named.size === 0) return positional;
  if (method !== 'split' && method !== 'rsplit') throw new TypeError(`str.${method}() takes no keyword arguments`);
  const args = [...positional];
  for (const [key, value] of named) {
    const at = ['sep', 'maxsplit'].indexOf(key);
    if (at < 0) throw new TypeError(`'${key}' is an invalid keyword argument for ${method}()`);
    if (args[at] !== undefined) throw new TypeError(`argument for ${method}() given by name ('${key}') and position (${at + 1})`);
    args[at] = value;
  }
  return Array.from(args, (value) => value ?? runtime(null));
}

/** `text.method(...args)` as Python gives it (one of MORE_TEXT_METHODS). */
export function moreTextMethod(text: string, method: string, args: Value[]): Value {
  if (method === 'replace') return runtime(replaced(text, args));
  const most = method.startsWith('is') ? 0 : method.endsWith('partition') ? 1 : 2;
  if (args.length > most) throw new TypeError(most === 0 ? `str.${method}() takes no arguments (${args.length} given)` : `${method}() takes at most ${most} argument${most > 1 ? 's' : ''} (${args.length} given)`);
  const [first, second] = args;
  const test = TESTS[method];
  // Every character passes, and there is one; of an empty text isascii() alone is true.
  if (test !== undefined) return runtime(text === '' ? method === 'isascii' : Array.from(text).every(test));
  switch (method) {
    case 'split':
    case 'rsplit':
      return runtime(pySplit(text, separatorOf(method, first), maxsplitOf(second), method === 'rsplit'));
    case 'partition':
    case 'rpartition':
      return parted(text, separatorOf(method, first), method === 'rpartition');
    default:
      return runtime(padded(text, method, first, second));
  }
}

/** str.replace(old, new, count=-1), its arguments by place (Python 3.11 takes none by name), bounded as the filter is. */
function replaced(text: string, args: Value[]): string {
  if (args.length < 2 || args.length > 3) throw new TypeError(`replace expected ${args.length < 2 ? 'at least 2' : 'at most 3'} arguments, got ${args.length}`);
  const [old, replacement, count] = args as [Value, Value, Value | undefined];
  for (const [place, arg] of [old, replacement].entries()) if (arg.type !== 'StringValue') throw new TypeError(`replace() argument ${place + 1} must be str, not ${pyType(arg)}`);
  if (count !== undefined && count.type !== 'IntegerValue' && count.type !== 'BooleanValue') throw new TypeError(`'${pyType(count)}' object cannot be interpreted as an integer`);
  return boundedReplace(text, String(old.value), String(replacement.value), count === undefined ? -1 : Number(count.value));
}

function separatorOf(method: string, value: Value | undefined): string | null {
  if (value === undefined || value.type === 'NullValue') {
    if (method.endsWith('partition')) throw new TypeError(`${method}() takes exactly one argument (0 given)`);
    return null;
  }
  if (value.type !== 'StringValue') throw new TypeError(`must be str or None, not ${pyType(value)}`);
  if (value.value === '') throw new RangeError('empty separator');
  return String(value.value);
}

function maxsplitOf(value: Value | undefined): number {
  if (value === undefined) return -1;
  if (value.type !== 'IntegerValue' && value.type !== 'BooleanValue') throw new TypeError(`'${pyType(value)}' object cannot be interpreted as an integer`);
  return Number(value.value);
}

/** Python's str.split or str.rsplit: at `separator`, or at runs of whitespace (none at the ends) where it is null; at most `maxsplit` times (negative: no bound). */
function pySplit(text: string, separator: string | null, maxsplit: number, fromRight: boolean): string[] {
  const limit = maxsplit < 0 ? Infinity : maxsplit;
  if (separator !== null) {
    const parts = text.split(separator);
    if (parts.length - 1 <= limit) return parts;
    return fromRight ? [parts.slice(0, parts.length - limit).join(separator), ...parts.slice(parts.length - limit)] : [...parts.slice(0, limit), parts.slice(limit).join(separator)];
  }
  const chars = Array.from(text);
  const words: string[] = [];
  const space = (char: string | undefined) => char !== undefined && isPySpace(char.codePointAt(0) ?? 0);
  const order = fromRight ? chars.reverse() : chars;
  let at = 0;
  while (at < order.length) {
    while (space(order[at])) at++;
    if (at >= order.length) break;
    if (words.length === limit) {
      // The rest, its whitespace at the far end kept, as Python keeps it.
      words.push(order.slice(at).join(''));
      break;
    }
    const start = at;
    while (at < order.length && !space(order[at])) at++;
    words.push(order.slice(start, at).join(''));
  }
  return fromRight ? words.reverse().map((word) => Array.from(word).reverse().join('')) : words;
}

/** Python's str.partition or str.rpartition: (before, separator, after), a tuple. */
function parted(text: string, separator: string | null, fromRight: boolean): Value {
  const sep = separator as string;
  const at = fromRight ? text.lastIndexOf(sep) : text.indexOf(sep);
  const parts = at < 0 ? (fromRight ? ['', '', text] : [text, '', '']) : [text.slice(0, at), sep, text.slice(at + sep.length)];
  const tuple = runtime(parts);
  markTuple(tuple);
  return tuple;
}

/** Python's str.ljust, str.rjust or str.center(width, fillchar=' '), the width bounded before the padding is made. */
function padded(text: string, method: string, width: Value | undefined, fill: Value | undefined): string {
  if (width === undefined) throw new TypeError(`${method} expected at least 1 argument, got 0`);
  if (width.type !== 'IntegerValue' && width.type !== 'BooleanValue') throw new TypeError(`'${pyType(width)}' object cannot be interpreted as an integer`);
  const fillchar = fill === undefined ? ' ' : String(fill.value);
  if (fill !== undefined && (fill.type !== 'StringValue' || pyLength(fillchar) !== 1)) throw new TypeError('The fill character must be exactly one character long');
  const length = pyLength(text);
  const total = boundedWidth(Number(width.value), `${method}(${Number(width.value)})`) - length;
  if (total <= 0) return text;
  // Of an odd padding, Python's center puts the extra character on the left where the width is odd, else on the right.
  const left = method === 'ljust' ? 0 : method === 'rjust' ? total : Math.floor(total / 2) + (total & Number(width.value) & 1);
  return fillchar.repeat(left) + text + fillchar.repeat(total - left);
}
