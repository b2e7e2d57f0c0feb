/**
 * A value stated with a clause about it in the last sentence of a reply, read as one statement: the range of one
 * of its letters ("$x = 2k\pi$, where $k$ is an integer") or a proviso ("$2$ unless $n = 1$", "$x = 5$ whenever
 * $y = 3$"). Read alone, the clause's mathematics was the answer: a lone k, or n = 1 graded equal to a reference 1.
 */
import { statementAt } from './statement.ts';
import type { Segment } from './segments.ts';

/** Words between a value and a clause that ranges one of its letters: "where", "with", "for some integer". */
const QUALIFYING_GAP = /^\s*,?\s*(?:where|with|for(?:\s+(?:some|all|every|any|each)(?:\s+\p{L}+){0,2})?)\s*$/iu;

/**
 * The last two math segments as one statement when the last ranges a letter
 * of the one before ("$x = 2k\pi$, where $k$ is an integer", "$f(x) = cx$
 * for some real $c$"): read alone, the lone letter was the answer.
 */
export function rangedStatement(paragraph: string, math: readonly Segment[]): string | null {
  const lastMath = math[math.length - 1];
  const previous = math[math.length - 2];
  if (lastMath === undefined || previous === undefined || !QUALIFYING_GAP.test(paragraph.slice(previous.end, lastMath.start))) return null;
  const letters = (tex: string): string[] => tex.replace(/\\[a-zA-Z]+/g, ' ').match(/[a-zA-Z]/g) ?? [];
  const own = new Set(letters(previous.text));
  return letters(lastMath.text).some((letter) => own.has(letter)) ? statementAt(paragraph, previous.start) : null;
}

/** Words between a value and a proviso on it: "unless", "provided (that)", "as long as", "only if", "except when". */
const PROVISO_GAP = /^\s*,?\s*(?:unless|whenever|provided(?:\s+that)?|as\s+long\s+as|only\s+if|if\s+and\s+only\s+if|except\s+(?:when|if))\s*$/i;

/** "if and only if", "only if": an equivalence, whose last side solves the one before when that side has letters. */
const EQUIVALENCE_GAP = /^\s*,?\s*(?:if\s+and\s+)?only\s+if\s*$/i;

/**
 * The last two math segments as one statement when the last is a proviso on the one before ("$2$ unless $n = 1$").
 * "$f(x) = 0$ if and only if $x = 3$" states no value before its "only if": it says what solves it, x = 3 (read as a
 * proviso, a right 3 was graded unsure); "$10$ only if $a = 3$" is a value with its proviso.
 */
export function provisoStatement(paragraph: string, math: readonly Segment[]): string | null {
  const lastMath = math[math.length - 1];
  const previous = math[math.length - 2];
  if (lastMath === undefined || previous === undefined) return null;
  const gap = paragraph.slice(previous.end, lastMath.start);
  if (!PROVISO_GAP.test(gap) || (EQUIVALENCE_GAP.test(gap) && /[a-zA-Z]/.test(previous.text.replace(/\\[a-zA-Z]+/g, '')))) return null;
  return statementAt(paragraph, previous.start);
}

