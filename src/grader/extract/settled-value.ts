/**
 * A value that settles the letters it names. "So $a+b=12$, where $a=5$ and
 * $b=7$." and "So $x = 3$, with $x > 0$." end on a clause about letters of the
 * value, but the value is a constant: the clause says how it was reached or
 * checks it, and is a remark. Kept as a range of the value's letters, it was
 * read as the answer ("a = 5, b = 7": different from 12, sure of it). A clause
 * about a letter the value leaves free ("$x = 2k\pi$, where $k$ is an
 * integer") still belongs to it. "$x=2$, with $y=3$" gives a second
 * coordinate rather than a remark: cut, 2 was graded equal, (2, 3) different.
 */
import type { Segment } from './segments.ts';
import { mathLetters } from '../latex/math-letters.ts';


/** Whether `math` states a constant for what stands before its last "=": "a+b=12", "x = \frac{3}{2}". */
function constantValue(math: string): boolean {
  const parts = math.split(/(?<![<>!\\])=/);
  const value = parts[parts.length - 1] ?? '';
  // "f(x) = 0" defines a function: its argument stays free ("f(x) = 0, when x < 0" is a case of it).
  const applied = /[a-zA-Z]\s*\(/.test(parts[0] ?? '');
  return parts.length > 1 && !applied && /\d/.test(value) && mathLetters(value).length === 0 && !/[<>]|\\(?:le|ge|ne|neq|leq|geq|lt|gt)\b/.test(math);
}

/** The letters of `math` that a clause after it may range: none when it states a constant. */
export function freeLetters(math: string): Set<string> {
  return new Set(constantValue(math) ? [] : mathLetters(math));
}

/** One letter given a constant: "x = 2", "y=-\frac{1}{2}". */
const ASSIGNMENT = /^\s*([a-zA-Z])\s*=\s*[^=<>]+$/;

/** Whether `second` gives another letter a constant after `first` did, "with" alone between them. */
export function secondCoordinate(text: string, first: Segment | undefined, second: Segment | undefined): boolean {
  if (first === undefined || second === undefined) return false;
  const a = ASSIGNMENT.exec(first.text);
  const b = ASSIGNMENT.exec(second.text);
  if (a === null || b === null || a[1] === b[1] || !constantValue(first.text) || !constantValue(second.text)) return false;
  return /^\s*,?\s*with\s*$/i.test(text.slice(first.end, second.start));
}

/** "x=2, y=3" for a paragraph whose last two segments are "$x=2$, with $y=3$"; null otherwise. */
export function coordinatesAtEnd(text: string, math: readonly Segment[]): string | null {
  const first = math[math.length - 2];
  const second = math[math.length - 1];
  return first !== undefined && second !== undefined && secondCoordinate(text, first, second) ? `${first.text}, ${second.text}` : null;
}

/**
 * Whether the clause from `end` to `clauseEnd` only speaks of letters that the value ending at `end` settles:
 * "$a+b=12$, where $a=5$ and $b=7$" after an announcement is 12, not the clause (which was unsure).
 */
export function settlingClause(segments: readonly Segment[], end: number, clauseEnd: number): boolean {
  const value = segments.find((s) => s.end === end);
  const clause = segments.filter((s) => s.start >= end && s.end <= clauseEnd);
  if (value === undefined || clause.length === 0 || !constantValue(value.text)) return false;
  const own = new Set(mathLetters(value.text));
  return clause.every((s) => mathLetters(s.text).every((letter) => own.has(letter)));
}
