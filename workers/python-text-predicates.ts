/**
 * Python's str methods of case and of prefixes that `@huggingface/jinja`
 * lacks or gives otherwise: `isupper`, `islower`, `istitle`, `isnumeric`,
 * `isalnum`, `swapcase`, and `startswith`/`endswith` with a tuple of
 * prefixes and a start and an end (the library ignored the start and end:
 * `'abc'.startswith('b', 1)` was false where Python says true). Cased
 * characters are Unicode's Uppercase, Lowercase and titlecase (Lt) ones, as
 * CPython reads them; numeric ones Unicode's N categories and the CJK
 * ideographs with a numeric value (Python 3.11's Unicode 14 tables).
 */
import { pyType } from './jinja2-tests.ts';
import { runtime } from './jinja2-values.ts';
import { isTuple, type RuntimeValue } from './python-str.ts';

type Value = RuntimeValue;

export const TEXT_PREDICATES = new Set(['isupper', 'islower', 'istitle', 'isnumeric', 'isalnum', 'swapcase', 'startswith', 'endswith']);

/** Ideographs (Lo) whose Numeric_Type Python's isnumeric() takes: 一, 二, 十, 百, 千, 万, 億, 零, … */
const NUMERIC_IDEOGRAPHS = new Set(
  Array.from(
    '\u{3405}\u{3483}\u{382a}\u{3b4d}\u{4e00}\u{4e03}\u{4e07}\u{4e09}\u{4e5d}\u{4e8c}\u{4e94}\u{4e96}\u{4ebf}\u{4ec0}\u{4edf}\u{4ee8}\u{4f0d}\u{4f70}\u{5104}\u{5146}\u{5169}\u{516b}\u{516d}\u{5341}\u{5343}\u{5344}\u{5345}\u{534c}\u{53c1}\u{53c2}\u{53c3}\u{53c4}\u{56db}\u{58f1}\u{58f9}\u{5e7a}\u{5efe}\u{5eff}\u{5f0c}\u{5f0d}\u{5f0e}\u{5f10}\u{62fe}\u{634c}\u{67d2}\u{6f06}\u{7396}\u{767e}\u{8086}\u{842c}\u{8cae}\u{8cb3}\u{8d30}\u{9621}\u{9646}\u{964c}\u{9678}\u{96f6}\u{f96b}\u{f973}\u{f978}\u{f9b2}\u{f9d1}\u{f9d3}\u{f9fd}\u{20001}\u{20064}\u{200e2}\u{20121}\u{2092a}\u{20983}\u{2098c}\u{2099c}\u{20aea}\u{20afd}\u{20b19}\u{22390}\u{22998}\u{23b1b}\u{2626d}\u{2f890}',
  ),
);

const isUpper = (char: string) => /^\p{Uppercase}$/u.test(char);
const isLower = (char: string) => /^\p{Lowercase}$/u.test(char);
const isTitle = (char: string) => /^\p{Lt}$/u.test(char);
const isNumeric = (char: string) => /^\p{N}$/u.test(char) || NUMERIC_IDEOGRAPHS.has(char);

/** isupper (`upper`) or islower: every cased character of that case, and one at least. */
function allOfCase(text: string, upper: boolean): boolean {
  let cased = false;
  for (const char of text) {
    if ((upper ? isLower(char) : isUpper(char)) || isTitle(char)) return false;
    if (upper ? isUpper(char) : isLower(char)) cased = true;
  }
  return cased;
}

/** istitle: an upper or titlecase character only at a word's start, lower ones only after a cased one, and one cased at least. */
function isTitled(text: string): boolean {
  let cased = false;
  let previousCased = false;
  for (const char of text) {
    if (isUpper(char) || isTitle(char)) {
      if (previousCased) return false;
      previousCased = cased = true;
    } else if (isLower(char)) {
      if (!previousCased) return false;
      previousCased = cased = true;
    } else previousCased = false;
  }
  return cased;
}

/** Python's slice bound of a text of `length` characters. */
function bound(value: Value | undefined, length: number, whole: number): number {
  if (value === undefined || value.type === 'NullValue') return whole;
  if (value.type !== 'IntegerValue' && value.type !== 'BooleanValue') throw new TypeError('slice indices must be integers or None or have an __index__ method');
  const index = Number(value.value);
  return Math.min(length, Math.max(0, index < 0 ? length + index : index));
}

/** startswith or endswith(prefix or tuple of prefixes, start=None, end=None), within text[start:end] counted in characters. */
function affixed(text: string, method: string, [affix, start, end, ...rest]: Value[]): boolean {
  if (affix === undefined) throw new TypeError(`${method}() takes at least 1 argument (0 given)`);
  if (rest.length > 0) throw new TypeError(`${method}() takes at most 3 arguments (${rest.length + 3} given)`);
  const chars = Array.from(text);
  const from = bound(start, chars.length, 0);
  const to = bound(end, chars.length, chars.length);
  // Python: a start past the end finds nothing, not even ''.
  if (from > chars.length || (start !== undefined && start.type !== 'NullValue' && Number(start.value) > chars.length)) return false;
  const within = from <= to ? chars.slice(from, to).join('') : null;
  const affixes = affix.type === 'StringValue' ? [affix] : Array.isArray(affix.value) && isTuple(affix) ? (affix.value as Value[]) : null;
  if (affixes === null) throw new TypeError(`${method} first arg must be str or a tuple of str, not ${pyType(affix)}`);
  return affixes.some((item) => {
    if (item.type !== 'StringValue') throw new TypeError(`tuple for ${method} must only contain str, not ${pyType(item)}`);
    const piece = String(item.value);
    if (within === null) return false;
    return method === 'startswith' ? within.startsWith(piece) : within.endsWith(piece);
  });
}

/** `text.method(...args)`, one of TEXT_PREDICATES, as Python gives it. */
export function textPredicate(text: string, method: string, args: Value[]): Value {
  if (method === 'startswith' || method === 'endswith') return runtime(affixed(text, method, args));
  if (args.length > 0) throw new TypeError(`str.${method}() takes no arguments (${args.length} given)`);
  switch (method) {
    case 'isupper':
    case 'islower':
      return runtime(allOfCase(text, method === 'isupper'));
    case 'istitle':
      return runtime(isTitled(text));
    case 'isnumeric':
      return runtime(text !== '' && Array.from(text).every(isNumeric));
    case 'isalnum':
      return runtime(text !== '' && Array.from(text).every((char) => /^[\p{L}\p{Nd}]$/u.test(char) || isNumeric(char)));
    default:
      // swapcase: an upper character lowered, a lower one raised (in full: ß is SS), the rest as they are.
      return runtime(Array.from(text, (char) => (isUpper(char) ? char.toLowerCase() : isLower(char) ? char.toUpperCase() : char)).join(''));
  }
}
