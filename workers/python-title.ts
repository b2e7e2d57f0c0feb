/**
 * Title case as a user's template gets it from jinja2: the filter `title`
 * and Python's str.title() differ, and the library's both differed from
 * them. jinja2's filter raises the first character of each word, words
 * parted by whitespace, `-`, `(`, `{`, `[` or `<`, and lowers the rest (so
 * "it's" stays "It's"); Python's method raises each character that follows
 * one without case and lowers each that follows one with case (so "it's"
 * is "It'S", "x2y" is "X2Y"). The library raised after an apostrophe in
 * its filter, and left the rest of each word as it was in its method
 * ("hello wORLD".title() gave "Hello WORLD", Python "Hello World").
 */
import { titleCase } from './python-str.ts';

/** What starts a word for jinja2's filter: its pattern ([-\s({\[<]+), \s as Python's whitespace (JavaScript's takes U+FEFF, and not U+001C–U+001F or U+0085). */
const WORD_BREAK = /([-({[<\t\n\v\f\r \u001c-\u001f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+)/u;

/** jinja2's `title` filter: each word's first character in upper case, the others in lower case. */
export function jinja2Title(text: string): string {
  return text
    .split(WORD_BREAK)
    .filter((item) => item !== '')
    .map((item) => {
      const [first = '', ...rest] = Array.from(item);
      return first.toUpperCase() + rest.join('').toLowerCase();
    })
    .join('');
}

/** Whether Python counts a character as cased (upper, lower or title case): what decides the next one's case in str.title(). */
function isCased(char: string): boolean {
  return /\p{Cased}/u.test(char);
}

/**
 * A capital sigma lowered at `index` of `chars`: final (ς) where a cased letter comes before it and none after
 * it, ignoring case-ignorable characters between, as Python lowers it in context.
 */
function lowerSigma(chars: readonly string[], index: number): string {
  const casedFrom = (step: number): boolean => {
    for (let at = index + step; at >= 0 && at < chars.length; at += step) {
      const char = chars[at] as string;
      if (!/\p{Case_Ignorable}/u.test(char)) return isCased(char);
    }
    return false;
  };
  return casedFrom(-1) && !casedFrom(1) ? 'ς' : 'σ';
}

/** Python's str.title(): a character after one without case in title case, one after a cased character in lower case. */
export function pyTitle(text: string): string {
  const chars = Array.from(text);
  let previousCased = false;
  return chars
    .map((char, index) => {
      const lowered = char === 'Σ' ? lowerSigma(chars, index) : char.toLowerCase();
      const cased = previousCased ? lowered : titleCase(char);
      previousCased = isCased(char);
      return cased;
    })
    .join('');
}
