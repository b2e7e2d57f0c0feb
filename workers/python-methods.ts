/**
 * Python's str and list methods that jinja2 lets a template call and
 * `@huggingface/jinja` lacks: `', '.join(items)`, `find`, `rfind`, `index`,
 * `rindex`, `count`, `zfill`, `splitlines`, `removeprefix`, `removesuffix`,
 * and a list's `index` and `count`. Prompt templates call them (promptsource's
 * `choices.index(answer)`, `', '.join(options)`); the library failed ("Cannot
 * call something that is not a function"), so they were refused before the
 * run. Positions count characters, as Python's do, not UTF-16 units.
 */
import { pyItems, pyTruthy } from './jinja2-select.ts';
import { pyType } from './jinja2-tests.ts';
import { boundedWidth, runtime } from './jinja2-values.ts';
import { pyEquals, pyLength, pyRepr, type RuntimeValue } from './python-str.ts';
import { MORE_TEXT_METHODS, moreTextMethod, textMethodArguments } from './python-text-methods.ts';
import { TEXT_PREDICATES, textPredicate } from './python-text-predicates.ts';

type Value = RuntimeValue;

export const TEXT_METHODS = new Set(['format', 'join', 'find', 'rfind', 'index', 'rindex', 'count', 'zfill', 'splitlines', 'removeprefix', 'removesuffix', ...MORE_TEXT_METHODS, ...TEXT_PREDICATES]);
export const LIST_METHODS = new Set(['index', 'count']);

/** What Python's str.splitlines() splits at. */
const LINE_BREAK = /(\r\n|[\n\r\v\f\u001c-\u001e\u0085\u2028\u2029])/;

/** Python's str.splitlines(keepends): the lines, with their breaks when `keepends`; none of an empty text. */
export function pySplitLines(text: string, keepends = false): string[] {
  // Split at a captured break: line, break, line, …, and the rest after the last break (empty when the text ends in one).
  const pieces = text.split(LINE_BREAK);
  const lines: string[] = [];
  for (let at = 0; at + 1 < pieces.length; at += 2) lines.push(keepends ? `${pieces[at]}${pieces[at + 1]}` : (pieces[at] as string));
  const rest = pieces[pieces.length - 1] as string;
  return rest === '' ? lines : [...lines, rest];
}

/**
 * A method's positional arguments, with splitlines' keepends= in its place: Python's str and list methods
 * take no other keyword (a keyword was dropped without a word, and splitlines(keepends=True) lost its breaks).
 */
export function methodArguments(owner: 'str' | 'list', method: string, positional: Value[], named: ReadonlyMap<string, Value>): Value[] {
  if (owner === 'str' && MORE_TEXT_METHODS.has(method)) return textMethodArguments(method, positional, named);
  if (named.size === 0) return positional;
  const [key] = named.keys();
  if (owner === 'list' || method !== 'splitlines' || named.size > 1 || key !== 'keepends' || positional.length > 0) throw new TypeError(owner === 'str' && method === 'splitlines' ? `'${key}' is an invalid keyword argument for splitlines()` : `${owner === 'list' ? 'list.' : ''}${method}() takes no keyword arguments`);
  return [named.get('keepends') as Value];
}

/** The text argument of `method`, or Python's TypeError. */
function textArgument(method: string, arg: Value | undefined): string {
  if (arg?.type !== 'StringValue') throw new TypeError(`${method}() argument must be str, not ${arg === undefined ? 'nothing' : pyType(arg)}`);
  return String(arg.value);
}

/** Whether Python's find and count see nothing, not even '', within start:end: a start past the text's end, or an end before the start. */
function nothingWithin(length: number, start: Value | undefined, end: Value | undefined): boolean {
  const [from, to] = bounds(length, start, end);
  return (start !== undefined && start.type !== 'NullValue' && Number(start.value) > length) || to < from;
}

/** Python's slice bounds start:end of `length` items (None for either: the whole). */
function bounds(length: number, start: Value | undefined, end: Value | undefined): [number, number] {
  const at = (value: Value | undefined, whole: number) => {
    if (value === undefined || value.type === 'NullValue') return whole;
    const index = Number(value.value);
    return Math.min(length, Math.max(0, index < 0 ? length + index : index));
  };
  return [at(start, 0), at(end, length)];
}

/**
 * A text's characters as Python counts them (code points) and their UTF-16 offsets: the same where it holds no astral
 * character. find, index and count search with the engine's indexOf: comparing a slice at every start took seconds
 * a call on a long text (20 finds in 10 million characters took two minutes), and a loop of them held a worker.
 */
class Points {
  readonly astral: boolean;
  constructor(readonly text: string) {
    this.astral = /[\uD800-\uDFFF]/.test(text);
  }

  get length(): number {
    return this.astral ? this.pointsBefore(this.text, this.text.length) : this.text.length;
  }

  /** The UTF-16 offset of code point `index`. */
  unitAt(index: number): number {
    if (!this.astral) return index;
    let unit = 0;
    for (let point = 0; point < index && unit < this.text.length; point++) unit += (this.text.codePointAt(unit) ?? 0) > 0xffff ? 2 : 1;
    return unit;
  }

  /** The code points of `text` before its UTF-16 offset `unit`. */
  pointsBefore(text: string, unit: number): number {
    if (!this.astral) return unit;
    let points = 0;
    for (let at = 0; at < unit; points++) at += (text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1;
    return points;
  }
}

/** The character index of `needle` in the characters from..to of the text, first or last, or -1. */
function position(points: Points, needle: string, [from, to]: [number, number], last: boolean): number {
  if (to - from < Array.from(needle).length) return -1;
  const slice = points.text.slice(points.unitAt(from), points.unitAt(to));
  const at = last ? slice.lastIndexOf(needle) : slice.indexOf(needle);
  return at < 0 ? -1 : from + points.pointsBefore(slice, at);
}

/** Non-overlapping occurrences of `needle` in the characters from..to (an empty needle: one more than the characters). */
function occurrences(points: Points, needle: string, [from, to]: [number, number]): number {
  if (needle === '') return Math.max(0, to - from) + 1;
  const slice = points.text.slice(points.unitAt(from), points.unitAt(to));
  let count = 0;
  for (let at = slice.indexOf(needle); at >= 0; at = slice.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** `text.join(items)`: each item must be a text, as in Python. */
function joined(text: string, items: Value | undefined): string {
  if (items === undefined) throw new TypeError('str.join() takes exactly one argument (0 given)');
  return pyItems(items)
    .map((item, index) => {
      if (item.type !== 'StringValue') throw new TypeError(`sequence item ${index}: expected str instance, ${pyType(item)} found`);
      return String(item.value);
    })
    .join(text);
}

/**
 * An argument Python takes as an integer (zfill's width, center's): an int or a bool; a float or a text is Python's
 * TypeError (zfill('3') gave the text back, center('9') a text 9 wide).
 */
export function integerArgument(value: Value | undefined, otherwise: number): number {
  if (value === undefined) return otherwise;
  if (value.type === 'IntegerValue' || value.type === 'BooleanValue') return Number(value.value);
  throw new TypeError(`'${pyType(value)}' object cannot be interpreted as an integer`);
}

/** Python's str.zfill(width): zeros after any sign, up to `width` characters. */
function zfilled(text: string, width: number): string {
  // Counted, not split into characters: a text of 10 million characters took 135 ms a call, so a loop of them minutes.
  const length = pyLength(text);
  if (length >= boundedWidth(width, `zfill(${width})`)) return text;
  const sign = text[0] === '+' || text[0] === '-' ? text[0] : '';
  return sign + '0'.repeat(width - length) + text.slice(sign.length);
}

/** `text.method(...args)` as Python gives it (one of TEXT_METHODS). */
export function textMethod(text: string, method: string, args: Value[]): Value {
  if (MORE_TEXT_METHODS.has(method)) return moreTextMethod(text, method, args);
  if (TEXT_PREDICATES.has(method)) return textPredicate(text, method, args);
  const [first, second, third] = args;
  const points = new Points(text);
  switch (method) {
    case 'join':
      return runtime(joined(text, first));
    case 'zfill':
      if (first === undefined) throw new TypeError('str.zfill() takes exactly one argument (0 given)');
      return runtime(zfilled(text, integerArgument(first, 0)));
    case 'splitlines':
      return runtime(pySplitLines(text, pyTruthy(first ?? runtime(false))));
    case 'removeprefix':
      return runtime(text.startsWith(textArgument(method, first)) ? text.slice(String(first?.value).length) : text);
    case 'removesuffix': {
      const suffix = textArgument(method, first);
      return runtime(suffix !== '' && text.endsWith(suffix) ? text.slice(0, text.length - suffix.length) : text);
    }
    case 'count':
      return runtime(nothingWithin(points.length, second, third) ? 0 : occurrences(points, textArgument(method, first), bounds(points.length, second, third)));
    default: {
      const found = nothingWithin(points.length, second, third) ? -1 : position(points, textArgument(method, first), bounds(points.length, second, third), method.startsWith('r'));
      if (found < 0 && method.endsWith('index')) throw new RangeError('substring not found');
      return runtime(found);
    }
  }
}

/** `list.index(item)` or `list.count(item)`, items compared with Python's ==. */
export function listSearch(items: readonly Value[], method: string, [item, start, end]: Value[]): Value {
  if (item === undefined) throw new TypeError(`${method} expected at least 1 argument, got 0`);
  if (method === 'count') return runtime(items.filter((member) => pyEquals(member, item)).length);
  const [from, to] = bounds(items.length, start, end);
  const found = items.findIndex((member, index) => index >= from && index < to && pyEquals(member, item));
  if (found < 0) throw new RangeError(`${pyRepr(item)} is not in list`);
  return runtime(found);
}
