/**
 * jinja2's number literals in the form `@huggingface/jinja`'s lexer reads.
 *
 * jinja2 reads `1e20`, `1.5e-3`, `2E+5` as floats, `1_000` and `0.000_1` with
 * their underscores dropped, `0x1F`, `0o17` and `0b101` as integers; the
 * library's lexer reads only `123` and `1.5`, so `1e20` became the number 1
 * followed by a name `e20`, and the template was refused as one that does not
 * parse ("Expected closing expression token"), though upstream chat templates
 * use such literals (a date's `1e9`, a large default such as `1e20`). Here each
 * such literal inside a tag is written out as the decimal digits of the same
 * value (`100000000000000000000.0`, `0.0015`, `31`), which the library reads as
 * the same float or integer, so it prints as jinja2 prints it (`1e+20`). A
 * string literal's escapes are rewritten so (jinja2-strings.ts). Text outside
 * the tags, comments and `{% raw %}` blocks are left as they are, and no line
 * moves (a number never holds a newline, nor does a rewritten escape).
 */

import { rawBlockAt } from './jinja2-raw.ts';
import { libraryString } from './jinja2-strings.ts';

/** jinja2's float_re: digits with an exponent, a fraction, or both; underscores between digits. */
const FLOAT = /(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?e[+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)/iy;
/** jinja2's integer_re: binary, octal, hexadecimal, decimal, zero. */
const INTEGER = /0b(?:_?[01])+|0o(?:_?[0-7])+|0x(?:_?[\da-f])+|[1-9](?:_?\d)*|0(?:_?0)*/iy;
/** A quoted string as jinja2's string_re reads it (a backslash escapes the next character). */
const STRING = /'[^'\\]*(?:\\[\s\S][^'\\]*)*'|"[^"\\]*(?:\\[\s\S][^"\\]*)*"/y;
/** A name: a letter or underscore, then letters, digits and underscores. */
const NAME = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy;
const OPEN = /\{[{%#]/g;

/** The match of a sticky pattern at `index`, or null. */
function matchAt(pattern: RegExp, text: string, index: number): string | null {
  pattern.lastIndex = index;
  return pattern.exec(text)?.[0] ?? null;
}

/** A finite or infinite float as digits with a point and no exponent, which parse back to the same double. */
export function plainFloat(value: number): string {
  if (!Number.isFinite(value)) return `1${'0'.repeat(309)}.0`;
  const shortest = Math.abs(value).toString();
  const [mantissa = '', exponent] = shortest.split('e');
  if (exponent === undefined) return mantissa.includes('.') ? mantissa : `${mantissa}.0`;
  const point = mantissa.indexOf('.');
  const digits = mantissa.replace('.', '');
  const at = (point === -1 ? mantissa.length : point) + Number(exponent);
  if (at <= 0) return `0.${'0'.repeat(-at)}${digits}`;
  if (at >= digits.length) return `${digits}${'0'.repeat(at - digits.length)}.0`;
  return `${digits.slice(0, at)}.${digits.slice(at)}`;
}

/**
 * A literal jinja2 reads, as the library reads the same number; the literal itself when the library reads it already.
 * An integer that no float holds (12345678901234567890, read as 12345678901234567168) becomes a call that fails where
 * it is evaluated, as a value never printed or computed with in jinja2 costs nothing: Python's integers are exact,
 * and a wrong digit printed or compared (`12345678901234567890 % 7` gave 0, jinja2's 1) is worse than a clear refusal.
 */
function libraryLiteral(literal: string, isFloat: boolean): string {
  const plain = literal.replace(/_/g, '');
  if (isFloat) return /[e_]/i.test(literal) ? plainFloat(Number(plain)) : literal;
  const based = /^0[box]/i.test(plain);
  const integer = BigInt(based ? plain.toLowerCase() : plain);
  if (BigInt(Number(integer)) !== integer) return `raise_exception(${JSON.stringify(inexactLiteral(literal, integer))})`;
  return based || plain !== literal ? integer.toString() : literal;
}

/** Why the integer literal `literal` is refused: a float holds it only rounded. */
function inexactLiteral(literal: string, integer: bigint): string {
  return `the integer \`${literal}\` is past 2**53 and no float holds it (it would be ${BigInt(Number(integer))}), where jinja2's integers are exact: tmas refuses it rather than print or compute with another number; keep such a number a text`;
}

/** The tag opened at `start` (`{{` or `{%`) with its numbers rewritten, and where it ends; an unterminated string leaves the rest as it is. */
function rewriteTag(source: string, start: number): { text: string; end: number } {
  const close = source[start + 1] === '{' ? '}}' : '%}';
  let text = source.slice(start, start + 2);
  let depth = 0;
  // jinja2's `{%+` and `+%}` undo lstrip_blocks and trim_blocks, which a user's template renders without: they do nothing, and the library reads neither.
  let at = close === '%}' && source[start + 2] === '+' ? start + 3 : start + 2;
  while (at < source.length) {
    const char = source[at] as string;
    if (depth === 0 && source.startsWith(close, at)) return { text: text + close, end: at + 2 };
    if (depth === 0 && close === '%}' && source.startsWith('+%}', at)) return { text: text + close, end: at + 3 };
    if (char === "'" || char === '"') {
      const quoted = matchAt(STRING, source, at);
      if (quoted === null) break;
      text += libraryString(quoted);
      at += quoted.length;
      continue;
    }
    if (/\d/.test(char)) {
      // jinja2's float_re does not start after a dot: `items.0.5` is two lookups.
      const float = source[at - 1] === '.' ? null : matchAt(FLOAT, source, at);
      const literal = float ?? matchAt(INTEGER, source, at) ?? char;
      text += libraryLiteral(literal, float !== null);
      at += literal.length;
      continue;
    }
    const name = matchAt(NAME, source, at);
    if (name !== null) {
      text += name;
      at += name.length;
      continue;
    }
    if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char)) depth = Math.max(0, depth - 1);
    text += char;
    at++;
  }
  return { text: text + source.slice(at), end: source.length };
}

/** `source` with every number and string literal inside its tags written as the library reads the same value. */
export function withLibraryNumbers(source: string): string {
  let result = '';
  let at = 0;
  for (;;) {
    OPEN.lastIndex = at;
    const start = OPEN.exec(source)?.index;
    if (start === undefined) return result + source.slice(at);
    result += source.slice(at, start);
    if (source[start + 1] === '#') {
      const end = source.indexOf('#}', start + 2);
      const stop = end === -1 ? source.length : end + 2;
      result += source.slice(start, stop);
      at = stop;
      continue;
    }
    const raw = rawBlockAt(source, start);
    if (raw !== null) {
      result += raw.text;
      at = raw.end;
      continue;
    }
    const tag = rewriteTag(source, start);
    result += tag.text;
    at = tag.end;
  }
}
