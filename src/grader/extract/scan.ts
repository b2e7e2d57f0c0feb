/**
 * Bracket-aware string scanning shared by extraction, cleaning and the answer
 * parser. LaTeX answers are short, so plain index loops beat a full tokenizer
 * here and keep every helper total (no throws on unbalanced input).
 */

const OPENERS = new Set(['(', '[', '{']);
const CLOSERS = new Set([')', ']', '}']);

/**
 * Reads a `{...}` group starting at `open` (the index of `{`); returns the
 * inner text and the index just past the closing brace. An unclosed group
 * runs to the end of the string, because truncated model output still
 * carries a usable answer.
 */
export function readBraced(text: string, open: number): { inner: string; end: number } {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '\\') {
      i += 1; // an escaped brace (\{ \}) does not count
      continue;
    }
    if (ch === '{') depth += 1;
    else if (ch === '}') {
      depth -= 1;
      if (depth === 0) return { inner: text.slice(open + 1, i), end: i + 1 };
    }
  }
  return { inner: text.slice(open + 1), end: text.length };
}

/**
 * Where each `{` of `text` at an index of `wanted` is closed (its index to the index of its closing brace; -1 for one
 * never closed), read as `readBraced` reads it, in one pass: reading each of many unclosed groups to the end of a long
 * response would cost time quadratic in its length. Only the wanted braces are kept: a map of every brace of a text
 * of a hundred thousand braces took most of a second, for the few a caller asks about.
 */
export function braceCloses(text: string, wanted: ReadonlySet<number>): Map<number, number> {
  const ends = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '\\') i += 1;
    else if (ch === '{') open.push(i);
    else if (ch === '}') {
      const start = open.pop();
      if (start !== undefined && wanted.has(start)) ends.set(start, i);
    }
  }
  for (const start of open) if (wanted.has(start)) ends.set(start, -1);
  return ends;
}

/**
 * Bracket depth change of the character at `i`. Round and square brackets are
 * interchangeable because intervals mix them ("[0,1)"); `\{ \}` count too.
 */
function depthDelta(text: string, i: number): { delta: number; width: number } {
  const ch = text[i];
  if (ch === '\\') {
    const next = text[i + 1];
    if (next === '{') return { delta: 1, width: 2 };
    if (next === '}') return { delta: -1, width: 2 };
    return { delta: 0, width: 2 };
  }
  if (ch !== undefined && OPENERS.has(ch)) return { delta: 1, width: 1 };
  if (ch !== undefined && CLOSERS.has(ch)) return { delta: -1, width: 1 };
  return { delta: 0, width: 1 };
}

/**
 * Splits `text` at top-level occurrences of any of `separators` (bracket depth
 * zero), also returning which separator ended each part. A separator that is
 * a word ("and") only matches on word boundaries.
 */
export function splitTopLevelWith(
  text: string,
  separators: readonly string[],
): { parts: string[]; found: string[] } {
  const parts: string[] = [];
  const found: string[] = [];
  let depth = 0;
  let start = 0;
  let i = 0;
  while (i < text.length) {
    if (depth <= 0) {
      const sep = separators.find((s) => matchesAt(text, i, s));
      if (sep !== undefined) {
        parts.push(text.slice(start, i));
        found.push(sep);
        i += sep.length;
        start = i;
        continue;
      }
    }
    const { delta, width } = depthDelta(text, i);
    depth = Math.max(0, depth + delta);
    i += width;
  }
  parts.push(text.slice(start));
  return { parts, found };
}

/** Splits `text` at top-level occurrences of any of `separators`. */
export function splitTopLevel(text: string, separators: readonly string[]): string[] {
  return splitTopLevelWith(text, separators).parts;
}

function matchesAt(text: string, i: number, sep: string): boolean {
  if (!text.startsWith(sep, i)) return false;
  if (/^[a-z]/i.test(sep)) {
    // Word separators ("and", "or") must not be part of a longer word or a
    // command name ("\lor", "floor").
    const before = text[i - 1];
    const after = text[i + sep.length];
    if (before !== undefined && /[a-z\\]/.test(before)) return false;
    if (after !== undefined && /[a-z]/.test(after)) return false;
  }
  if (sep.startsWith('\\') && /^\\[a-z]+$/i.test(sep)) {
    const after = text[i + sep.length];
    if (after !== undefined && /[a-z]/i.test(after)) return false;
  }
  return true;
}

/**
 * Index of the bracket that closes the one at `open`, counting round and
 * square brackets alike; -1 when it is never closed.
 */
export function matchingClose(text: string, open: number): number {
  let depth = 0;
  let i = open;
  while (i < text.length) {
    const { delta, width } = depthDelta(text, i);
    depth += delta;
    if (depth === 0) return i + width - 1;
    i += width;
  }
  return -1;
}

/** True when the bracket opening at index 0 is closed by the last character. */
export function isWrapped(text: string): boolean {
  if (text.length < 2) return false;
  return matchingClose(text, 0) === text.length - 1;
}
