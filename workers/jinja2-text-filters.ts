/**
 * jinja2's filters of a text that `@huggingface/jinja` lacks (it refused
 * them: "Unknown StringValue filter: format"): `format` (printf-style, as
 * `%`), `escape` and `e` (markupsafe's, giving a Markup), `center` (Python's
 * str.center), `wordcount` (runs of word characters) and `truncate` (at a
 * space, with jinja2's leeway of 5), `wordwrap` (each line wrapped by Python's
 * textwrap). Each reads Python's str() of its value.
 */
import { asMarkup, escapeHtml, isMarkup } from './jinja2-markup.ts';
import { pyPercent } from './python-format.ts';
import { pyType } from './jinja2-tests.ts';
import { boundedWidth, MAX_RENDERED_CHARS, TemplateBoundError } from './jinja2-values.ts';
import { integerArgument, pySplitLines } from './python-methods.ts';
import { pyStr, type RuntimeValue } from './python-str.ts';
import { pyWrap } from './python-textwrap.ts';

type Value = RuntimeValue;

/** What the filters here are given: their arguments, and what makes the library's values. */
export interface TextFilterContext {
  argument: (place: number, name: string) => Value | undefined;
  positional: Value[];
  named: Map<string, Value>;
  runtime: (value: unknown) => Value;
  tuple: (items: Value[]) => Value;
  record: (entries: Map<string, Value>) => Value;
}

export const TEXT_FILTERS = new Set(['format', 'escape', 'e', 'center', 'wordcount', 'truncate', 'indent', 'wordwrap']);

/** jinja2's wordwrap(s, width=79, break_long_words=True, wrapstring=None, break_on_hyphens=True): each line of the text wrapped apart, joined by wrapstring (a newline). */
function wordwrapped(value: Value, { argument }: TextFilterContext): string {
  if (value.type !== 'StringValue') throw new TypeError(`"wordwrap" of a ${pyType(value)}: '${pyType(value)}' object has no attribute 'splitlines'`);
  const width = integerArgument(argument(0, 'width'), 79);
  const breakLongWords = argument(1, 'break_long_words')?.value !== false;
  const wrapstring = argument(2, 'wrapstring');
  const separator = wrapstring === undefined || wrapstring.type === 'NullValue' ? '\n' : pyStr(wrapstring);
  const breakOnHyphens = argument(3, 'break_on_hyphens')?.value !== false;
  // Each line of the text wrapped apart; an empty one wraps to no lines and stays an empty line between its neighbours.
  const wrapped = pySplitLines(String(value.value)).map((line) => pyWrap(line, { width, breakLongWords, breakOnHyphens }));
  // Measured before it is joined: a long wrapstring between millions of lines failed with the engine's "Invalid string length".
  const joints = wrapped.reduce((sum, lines) => sum + Math.max(0, lines.length - 1), Math.max(0, wrapped.length - 1));
  const length = wrapped.flat().reduce((sum, line) => sum + line.length, joints * separator.length);
  if (length > MAX_RENDERED_CHARS) throw new TemplateBoundError(`a wordwrap makes ${length.toLocaleString('en-US')} characters, more than any context window holds (at most ${MAX_RENDERED_CHARS.toLocaleString('en-US')})`);
  return wrapped.map((lines) => lines.join(separator)).join(separator);
}

/**
 * jinja2's indent(s, width=4, first=False, blank=False): each line after the first (and the first with first=true)
 * after `width` spaces, or after the text `width` is; blank lines too with blank=true; its lines are Python's
 * splitlines() joined by \n (the library kept \r\n and did not break at U+2028, and refused a text width).
 */
function indented(value: Value, { argument }: TextFilterContext): string {
  if (value.type === 'UndefinedValue') throw new TypeError('"indent" of an undefined value: jinja2 fails on it (UndefinedError)');
  if (value.type !== 'StringValue') throw new TypeError(`"indent" of a ${pyType(value)}: unsupported operand type(s) for +=: '${pyType(value)}' and 'str'`);
  const width = argument(0, 'width');
  const unit = width?.type === 'StringValue' ? String(width.value) : ' '.repeat(Math.max(0, boundedWidth(Number(width?.value ?? 4), '"indent"')));
  const lines = pySplitLines(`${String(value.value)}\n`);
  // Each line gets the unit: a wide one over many lines is refused before it is repeated.
  boundedWidth(unit.length * lines.length, `"indent" of ${lines.length.toLocaleString('en-US')} lines by ${unit.length.toLocaleString('en-US')} characters`);
  const blank = argument(2, 'blank')?.value === true;
  const [head = '', ...rest] = lines;
  const body = blank ? lines.join(`\n${unit}`) : [head, ...rest.map((line) => (line === '' ? line : unit + line))].join('\n');
  return argument(1, 'first')?.value === true ? unit + body : body;
}

/** Python's str.center(width): the text between spaces, the odd one on the right unless the width is odd. */
function centered(text: string, width: number): string {
  const margin = boundedWidth(width, `center(${width})`) - Array.from(text).length;
  if (margin <= 0) return text;
  const left = Math.floor(margin / 2) + (margin & width & 1);
  return ' '.repeat(left) + text + ' '.repeat(margin - left);
}

/** jinja2's truncate(s, length=255, killwords=False, end='...', leeway=5). */
function truncated(text: string, { argument }: TextFilterContext): string {
  const length = Number(argument(0, 'length')?.value ?? 255);
  const killwords = argument(1, 'killwords')?.value === true;
  const end = pyStr(argument(2, 'end') ?? { type: 'StringValue', value: '...' } as Value);
  const leeway = Number(argument(3, 'leeway')?.value ?? 5);
  const chars = Array.from(text);
  if (length < end.length) throw new RangeError(`truncate: expected length >= ${end.length}, got ${length}`);
  if (chars.length <= length + leeway) return text;
  const head = chars.slice(0, length - Array.from(end).length).join('');
  if (killwords) return head + end;
  const space = head.lastIndexOf(' ');
  return (space === -1 ? head : head.slice(0, space)) + end;
}

/**
 * jinja2's truncate of what is not a text: it truncates the value itself, so a list or a record no longer than
 * length + leeway comes back as it is, a longer one fails, and a number, a bool or None has no len() (tmas
 * truncated their printed text: ['b', 'A'] | truncate(5) gave "['b'…").
 */
function untruncated(value: Value, { argument }: TextFilterContext): Value {
  const items = value.value instanceof Map ? value.value.size : Array.isArray(value.value) ? value.value.length : null;
  if (items === null) throw new TypeError(`"truncate" of a ${pyType(value)}: object of type '${pyType(value)}' has no len()`);
  const length = Number(argument(0, 'length')?.value ?? 255);
  if (items <= length + Number(argument(3, 'leeway')?.value ?? 5)) return value;
  throw new TypeError(`"truncate" of a ${pyType(value)} of ${items} items, more than its length: jinja2 fails on it (it slices the ${pyType(value)} and adds a text)`);
}

/** `result`, a Markup where `source` is one (a Markup indented is one). */
function keepMarkup(source: Value, result: Value): Value {
  return isMarkup(source) ? asMarkup(result) : result;
}

/** `name` (one of TEXT_FILTERS) of `value`, as jinja2 gives it. */
export function textFilter(name: string, value: Value, context: TextFilterContext): Value {
  const { runtime, argument, positional, named } = context;
  if (name === 'escape' || name === 'e') return isMarkup(value) ? value : asMarkup(runtime(escapeHtml(pyStr(value))));
  const text = pyStr(value);
  if (name === 'center') {
    // jinja2's center takes a width alone (the library took a fill character too, which jinja2 refuses).
    if (positional.length > 1) throw new TypeError(`do_center() takes from 1 to 2 positional arguments but ${positional.length + 1} were given`);
    const other = [...named.keys()].find((key) => key !== 'width');
    if (other !== undefined) throw new TypeError(`do_center() got an unexpected keyword argument '${other}'`);
    return runtime(centered(text, integerArgument(argument(0, 'width'), 80)));
  }
  // Python's \w: letters, digits of any script, and the underscore.
  if (name === 'wordcount') return runtime(text.match(/[\p{L}\p{N}_]+/gu)?.length ?? 0);
  if (name === 'truncate') return value.type === 'StringValue' || value.type === 'UndefinedValue' ? runtime(truncated(text, context)) : untruncated(value, context);
  if (name === 'indent') return keepMarkup(value, runtime(indented(value, context)));
  if (name === 'wordwrap') return runtime(wordwrapped(value, context));
  if (positional.length > 0 && named.size > 0) throw new TypeError("format: can't handle positional and keyword arguments at the same time");
  return runtime(pyPercent(text, named.size > 0 ? context.record(named) : context.tuple(positional)));
}
