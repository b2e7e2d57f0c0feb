/**
 * Sets of tuples that one parameter runs through: "\{(x,y): x = y\}" (a
 * condition that gives one letter by the others), "\{(t, t) : t \in
 * \mathbb{R}\}" (the tuple as written, its letter over the reals), and,
 * against either, a tuple in one letter ("(x, x)", what is left of "all pairs
 * $(x, x)$"). Read as one tuple, a ratio or a set of one point, each was
 * different from the others, sure of it: a right family was marked wrong.
 * They are compared coordinate by coordinate once the parameter has one
 * name; two families that differ so are different only where both are graphs
 * over the same coordinate (that coordinate is the parameter itself), since
 * a family written with another parameter ("(2s, 2s)") may be the same set.
 * Two bare tuples each in a letter of its own ("(t, 2t)", "(s, 2s)") are two
 * families too: a reply names its parameter as it likes, unless the question
 * gives that letter ("Let $a$ and $b$ be …": "(b, 2b)" is not "(a, 2a)").
 */
import { isWrapped, splitTopLevel, splitTopLevelWith } from '../extract/scan.ts';
import { mathLetters, renameMathLetter } from '../latex/math-letters.ts';
import type { Verdict } from '../parse/types.ts';

/** A family of tuples: its coordinates, written in its parameter. `stated`: a set written as such, not a bare tuple. */
interface Family {
  coordinates: string[];
  parameter: string;
  stated: boolean;
  /** The letters of a set written "\{(x, y) : …\}", whose condition an equation in them may state alone. */
  letters?: string[];
}

/** "t \in \mathbb{R}", "t \in \mathbb{R}" with "\mathbb R": the parameter over the reals. */
const OVER_THE_REALS = /^([a-zA-Z])\s*\\in\s*\\mathbb\s*\{?\s*R\s*\}?$/;

/** The one letter of `texts`, or null for none or several. */
function soleLetter(texts: readonly string[]): string | null {
  const letters = new Set(texts.flatMap(mathLetters));
  return letters.size === 1 ? ([...letters][0] ?? null) : null;
}

/** The coordinates of a tuple written "(a, b, …)", two at least; null for anything else. */
function coordinatesOf(tex: string): string[] | null {
  const tuple = tex.trim();
  if (!tuple.startsWith('(') || !isWrapped(tuple)) return null;
  const parts = splitTopLevel(tuple.slice(1, -1), [',']).map((part) => part.trim());
  return parts.length >= 2 && parts.every((part) => part !== '') ? parts : null;
}

/** "\{(x,y): x = y\}": a tuple of letters and an equation that gives one of them by the other; null otherwise. */
function solvedFamily(letters: readonly string[], condition: string): Family | null {
  if (!letters.every((letter) => /^[a-zA-Z]$/.test(letter)) || new Set(letters).size !== letters.length || letters.length !== 2) return null;
  const { parts, found } = splitTopLevelWith(condition, ['=']);
  if (found.length !== 1) return null;
  const [left = '', right = ''] = parts.map((part) => part.trim());
  for (const [lone, by] of [
    [left, right],
    [right, left],
  ] as const) {
    const others = mathLetters(by);
    if (!letters.includes(lone) || others.includes(lone) || others.some((letter) => !letters.includes(letter))) continue;
    const parameter = letters.find((letter) => letter !== lone) ?? '';
    const value = /^[a-zA-Z]$/.test(by) ? by : `(${by})`;
    return { coordinates: letters.map((letter) => (letter === lone ? value : letter)), parameter, stated: true, letters: [...letters] };
  }
  return null;
}

/** The family `tex` states, or null when it states none. */
function familyOf(tex: string): Family | null {
  const text = tex.trim();
  const bare = coordinatesOf(text);
  if (bare !== null) {
    const parameter = soleLetter(bare);
    return parameter === null ? null : { coordinates: bare, parameter, stated: false };
  }
  if (!text.startsWith('\\{') || !text.endsWith('\\}')) return null;
  const { parts, found } = splitTopLevelWith(text.slice(2, -2), [':', '\\mid', '|']);
  if (found.length !== 1) return null;
  const coordinates = coordinatesOf(parts[0] ?? '');
  const condition = (parts[1] ?? '').trim();
  if (coordinates === null) return null;
  const over = OVER_THE_REALS.exec(condition);
  if (over?.[1] !== undefined) return soleLetter(coordinates) === over[1] ? { coordinates, parameter: over[1], stated: true } : null;
  return solvedFamily(coordinates, condition);
}

/**
 * The verdict on two answers of which one at least is a set of tuples one parameter runs through and the other such
 * a set or a tuple in one letter; null when they are not, and the other rules decide. `compare` grades two values.
 */
export function familyVerdict(gold: string, pred: string, compare: (gold: string, pred: string) => Verdict, given: ReadonlySet<string> = new Set()): Verdict | null {
  const stated = (tex: string, other: Family | null): Family | null => familyOf(tex) ?? (other?.letters === undefined ? null : solvedFamily(other.letters, tex));
  // "x = y" against "\{(x,y): x = y\}": an equation in the set's own letters is its condition.
  const listed = renamedFamilies(gold, pred, compare, given);
  if (listed !== null) return listed;
  const golden = stated(gold, familyOf(pred));
  const predicted = stated(pred, golden);
  // Two bare tuples in one letter each: in the same letter, they compare as tuples do; in two letters ("(t, 2t)" and
  // "(s, 2s)"), each letter is the parameter of its family (compared as tuples, t and s differed, sure of it), unless
  // the question gives either letter: then it is a constant of the problem, not a name the reply chose.
  if (golden === null || predicted === null) return null;
  if (!golden.stated && !predicted.stated && (golden.parameter === predicted.parameter || given.has(golden.parameter) || given.has(predicted.parameter))) return null;
  if (golden.coordinates.length !== predicted.coordinates.length) return 'different';
  // A letter no other coordinate uses names the parameter on both sides.
  const named = predicted.coordinates.map((c) => renameMathLetter(c, predicted.parameter, golden.parameter));
  const verdicts = golden.coordinates.map((c, k) => compare(c, named[k] ?? ''));
  if (verdicts.every((verdict) => verdict === 'equal')) return 'equal';
  const graphOver = golden.coordinates.findIndex((c, k) => c === golden.parameter && named[k] === golden.parameter);
  return graphOver >= 0 && verdicts.includes('different') ? 'different' : 'unsure';
}

/** The tuples of a list of two or more ("(t, 2t), (t, -2t)"), each in the list's one letter; null otherwise. */
function tuplesInOneLetter(tex: string): { tuples: string[]; letter: string } | null {
  const tuples = splitTopLevel(tex.trim(), [',']).map((item) => item.trim());
  if (tuples.length < 2 || tuples.some((tuple) => coordinatesOf(tuple) === null)) return null;
  const letter = soleLetter(tuples);
  return letter === null ? null : { tuples, letter };
}

/**
 * Two lists of families, each in a parameter of its own ("(t, 2t), (t, -2t)" and "(s, 2s), (s, -2s)"): equal when the
 * lists are once the parameter has one name; null otherwise, for the other rules (a near miss stays as they grade it).
 */
function renamedFamilies(gold: string, pred: string, compare: (gold: string, pred: string) => Verdict, given: ReadonlySet<string>): Verdict | null {
  const golden = tuplesInOneLetter(gold);
  const predicted = tuplesInOneLetter(pred);
  if (golden === null || predicted === null || golden.letter === predicted.letter || given.has(golden.letter) || given.has(predicted.letter)) return null;
  const renamed = predicted.tuples.map((tuple) => renameMathLetter(tuple, predicted.letter, golden.letter)).join(', ');
  return compare(gold, renamed) === 'equal' ? 'equal' : null;
}
