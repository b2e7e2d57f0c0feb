/**
 * Patterns of a tokenizer.json that V8 would backtrack through without
 * bound. A tokenizer cuts every text with the regular expressions its file
 * gives (a `Split` pre-tokenizer, a `Replace` normalizer), and V8 runs them by
 * backtracking: a repetition of a repetition, `(a+)+$` or `(.+)*x`, tries
 * every way of sharing a run among its passes, 2^n of them for a run of n
 * characters that ends without a match. One line of 40 letters then holds a
 * pool thread for hours, and every count waits on it: the run hangs without a
 * word. No real tokenizer's pattern nests repetitions (GPT-2's, Llama 3's,
 * Qwen's, DeepSeek's repeat single characters or classes; a right-to-left
 * digit split repeats a fixed count of them, which shares a run one way), so
 * such a pattern is refused when the file is loaded, naming it.
 */

/** Upper bound of a quantifier, `Infinity` for `*`, `+` and `{n,}`. */
type Repeat = number;

/** How often a quantifier at `pattern[at]` repeats its atom, whether that count is fixed (`{3}`), and where it ends; null where none begins. */
function quantifierAt(pattern: string, at: number): { max: Repeat; fixed: boolean; end: number } | null {
  const char = pattern[at];
  let max: Repeat;
  let fixed = false;
  let end = at + 1;
  if (char === '*' || char === '+') max = Infinity;
  else if (char === '?') max = 1;
  else if (char === '{') {
    const bounds = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(at));
    if (bounds === null) return null;
    max = bounds[2] === undefined ? Number(bounds[1]) : bounds[3] === '' ? Infinity : Number(bounds[3]);
    fixed = bounds[2] === undefined || Number(bounds[3]) === Number(bounds[1]);
    end = at + bounds[0].length;
  } else return null;
  // A lazy or possessive mark repeats as much.
  if (pattern[end] === '?' || pattern[end] === '+') end++;
  return { max, fixed, end };
}

/** The index just past the escape that starts at `at` (a backslash): `\p{L}`, `\u{1F600}` and `\x41` whole. */
function escapeEnd(pattern: string, at: number): number {
  const next = pattern[at + 1];
  if ((next === 'p' || next === 'P' || next === 'u') && pattern[at + 2] === '{') {
    const close = pattern.indexOf('}', at + 3);
    return close === -1 ? pattern.length : close + 1;
  }
  return at + 2;
}

/** The index just past the character class that starts at `at` (a `[`). */
function classEnd(pattern: string, at: number): number {
  let i = at + 1;
  if (pattern[i] === '^') i++;
  // A `]` first in the class is a character of it in Rust's syntax, which tokenizer files are written in.
  if (pattern[i] === ']') i++;
  while (i < pattern.length && pattern[i] !== ']') i = pattern[i] === '\\' ? escapeEnd(pattern, i) : pattern[i] === '[' ? classEnd(pattern, i) : i + 1;
  return i + 1;
}

/** The index just past a group's opening: `(`, `(?:`, `(?i:`, `(?=`, `(?<!`, `(?<name>`. */
function groupOpeningEnd(pattern: string, at: number): number {
  if (pattern[at + 1] !== '?') return at + 1;
  let i = at + 2;
  while (i < pattern.length && !':=!>'.includes(pattern[i] as string)) i++;
  return i + 1;
}

/**
 * Why `pattern` backtracks without bound on some texts, or null: the first
 * group repeated whose inside repeats too, one of the two without an upper
 * bound (`(a+)+`, `(a{1,3})*`, `(a*){50}`; `(ab){2}`, `(a{3})+` and `(a+)?` are fine).
 */
export function nestedRepetition(pattern: string): string | null {
  // Per open group: where it opens, and the most its inside repeats anything.
  const groups: Array<{ start: number; inner: Repeat }> = [{ start: 0, inner: 1 }];
  // The last atom: where it starts and how much its inside repeats (1 for a character or a class).
  let atom: { start: number; inner: Repeat } | null = null;
  for (let i = 0; i < pattern.length; ) {
    const char = pattern[i] as string;
    const quantifier = atom === null ? null : quantifierAt(pattern, i);
    if (quantifier !== null && atom !== null) {
      const { max, fixed, end } = quantifier;
      if (max > 1 && atom.inner > 1 && (max === Infinity || atom.inner === Infinity)) return pattern.slice(atom.start, end);
      const group = groups[groups.length - 1] as { inner: Repeat };
      // A fixed count (`\p{N}{3}`) matches one length only, so a repetition of it has one way to share a run:
      // `(?:\p{N}{3})*`, a right-to-left digit split's lookahead, is linear. `{0}` repeats nothing (and 0 * Infinity is NaN).
      group.inner = Math.max(group.inner, fixed ? atom.inner : max === 0 ? 0 : max * atom.inner, atom.inner);
      atom = null;
      i = end;
      continue;
    }
    if (char === '(') {
      groups.push({ start: i, inner: 1 });
      atom = null;
      i = groupOpeningEnd(pattern, i);
    } else if (char === ')' && groups.length > 1) {
      const closed = groups.pop() as { start: number; inner: Repeat };
      const parent = groups[groups.length - 1] as { inner: Repeat };
      parent.inner = Math.max(parent.inner, closed.inner);
      atom = { start: closed.start, inner: closed.inner };
      i++;
    } else {
      const end = char === '\\' ? escapeEnd(pattern, i) : char === '[' ? classEnd(pattern, i) : i + 1;
      atom = char === '|' || char === '^' || char === '$' ? null : { start: i, inner: 1 };
      i = end;
    }
  }
  return null;
}

/** The `Regex` patterns of a tokenizer.json's part (a normalizer or pre-tokenizer, sequences included), with where each is. */
export function regexPatterns(part: unknown, where: string): Array<{ pattern: string; where: string }> {
  if (typeof part !== 'object' || part === null) return [];
  const found: Array<{ pattern: string; where: string }> = [];
  const regex = (part as { pattern?: { Regex?: unknown } }).pattern?.Regex;
  if (typeof regex === 'string') found.push({ pattern: regex, where });
  for (const value of Object.values(part)) {
    if (Array.isArray(value)) value.forEach((child) => found.push(...regexPatterns(child, where)));
  }
  return found;
}
