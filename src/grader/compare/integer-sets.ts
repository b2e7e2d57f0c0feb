/**
 * Conditions on an integer letter: "n \ge 2" and "n > 1" name other sets of
 * reals but the same integers, which is all an integer n takes. Where the
 * question declares the letter an integer ("Find all positive integers $n$")
 * they are one answer; where only its name suggests one (n, m, k, …), a
 * reader must say (`unsure`); a letter declared real keeps them apart
 * (declared-letters.ts).
 */
import { isIntegerLetter, type DeclaredLetters } from '../math/declared-letters.ts';
import { compiled } from '../math/expr-equal.ts';
import type { Answer } from '../parse/types.ts';
import type { RealSet } from './real-sets.ts';

type Relation = Extract<Answer, { kind: 'relation' }>;

/** More boundaries than this are not read: a runaway condition, not an answer. */
const MOST_BOUNDARIES = 256;
/** Beyond this an integer next to a boundary is not told apart in floating point. */
const LARGEST_BOUNDARY = 2 ** 40;

/** The one letter (compiled name, "v_n") a relation's sides speak of; null for none or several. */
function relationLetter(r: Relation): string | null {
  const names = new Set<string>();
  for (const part of r.parts) {
    if (part.kind !== 'expr') return null;
    const c = compiled(part.tex);
    if (c === null || c.funcs.length > 0) return null;
    c.vars.forEach((v) => names.add(v));
  }
  const [only, ...rest] = names;
  return rest.length === 0 ? only ?? null : null;
}

/**
 * The integers at which membership of a set bounded by `marks` may change, and one in each stretch between:
 * the integers on either side of every boundary, one in each gap, and one past each end.
 */
function integerProbes(marks: readonly number[]): number[] | null {
  if (marks.length > MOST_BOUNDARIES || marks.some((m) => Math.abs(m) > LARGEST_BOUNDARY)) return null;
  const sorted = [...new Set(marks)].sort((x, y) => x - y);
  const probes = new Set<number>([-1, 0, 1]);
  sorted.forEach((m, k) => {
    for (let i = Math.floor(m) - 1; i <= Math.ceil(m) + 1; i += 1) probes.add(i);
    const next = sorted[k + 1];
    if (next !== undefined) probes.add(Math.floor((m + next) / 2));
  });
  if (sorted.length > 0) probes.add(Math.floor(sorted[0] ?? 0) - 2).add(Math.ceil(sorted[sorted.length - 1] ?? 0) + 2);
  return [...probes];
}

/** Whether two sets of reals hold the same integers; null when some membership cannot be read. */
function sameIntegers(a: RealSet, b: RealSet): boolean | null {
  const probes = integerProbes([...a.boundaries, ...b.boundaries].filter(Number.isFinite));
  if (probes === null) return null;
  for (const x of probes) {
    const u = a.has(x);
    const v = b.has(x);
    if (u === null || v === null) return null;
    if (u !== v) return false;
  }
  return true;
}

/**
 * The verdict of two conditions on one letter whose sets of reals differ: `equal` where they hold the same
 * integers and the question declares the letter an integer, `unsure` where only its name suggests one;
 * null otherwise (they stay apart).
 */
export function integerConditionsVerdict(a: Relation, b: Relation, setA: RealSet, setB: RealSet, declared: DeclaredLetters): 'equal' | 'unsure' | null {
  const letter = relationLetter(a);
  if (letter === null || relationLetter(b) !== letter || !isIntegerLetter(letter, declared)) return null;
  if (sameIntegers(setA, setB) !== true) return null;
  return declared.integer.has(letter.replace(/^v_/, '')) ? 'equal' : 'unsure';
}
