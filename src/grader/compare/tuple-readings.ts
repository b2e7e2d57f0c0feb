/**
 * A tuple against an answer of another shape: "(-1, 2)" is the vector a
 * column or a row `\begin{pmatrix}` writes, and "3:4" (a ratio) has the
 * value 3/4, which it states only if the question asks for one.
 */
import { exprEqual } from '../math/expr-equal.ts';
import type { Answer } from '../parse/types.ts';

type Tuple = Extract<Answer, { kind: 'tuple' }>;

/** A matrix that may be a vector: a row or a column is known only once its entries are read. */
export function isVector(tex: string): boolean {
  return /^\\begin\{[pbB]?matrix\}[\s\S]*\\end\{[pbB]?matrix\}$/.test(tex.trim());
}

/** "(-1, 2)" against a column or a row `\begin{pmatrix}`: the same entries in the same order. */
export function vectorVerdict(tuple: Tuple, matrix: string, precision: number): 'equal' | 'different' | 'unsure' {
  const entries = tuple.items.map((item) => (item.kind === 'expr' && item.unit === null && !item.percent ? item.tex : null));
  if (entries.some((entry) => entry === null)) return 'different';
  let unsure = false;
  for (const separator of [' \\\\ ', ' & ']) {
    const verdict = exprEqual(matrix, `\\begin{pmatrix} ${entries.join(separator)} \\end{pmatrix}`, { precision });
    if (verdict === 'equal') return 'equal';
    if (verdict === 'unsure') unsure = true;
  }
  return unsure ? 'unsure' : 'different';
}

/** The two terms of a ratio written as bare expressions; null for anything else. */
export function ratioTerms(ratio: Tuple): [string, string] | null {
  const [a, b] = ratio.items;
  if (ratio.items.length !== 2 || a?.kind !== 'expr' || b?.kind !== 'expr' || a.unit !== null || b.unit !== null || a.percent || b.percent) return null;
  return [a.tex, b.tex];
}

/** Whether the ratio "a:b", neither term zero (a time of day, "12:00", is no ratio), has the value `value`. */
export function ratioIs(ratio: Tuple, value: string, precision: number): boolean {
  const terms = ratio.ratio === true ? ratioTerms(ratio) : null;
  if (terms === null) return false;
  const [a, b] = terms;
  if (exprEqual(a, '0', { precision }) !== 'different' || exprEqual(b, '0', { precision }) !== 'different') return false;
  return exprEqual(`\\frac{${a}}{${b}}`, value, { precision }) === 'equal';
}

/** The letter an assignment item names ("y = 2" names y), or null. */
function assignedLetter(item: Answer): string | null {
  if (item.kind !== 'relation' || item.ops.length !== 1 || item.ops[0] !== '=') return null;
  const left = item.parts[0];
  return left?.kind === 'expr' && /^[a-zA-Z]$/.test(left.tex.trim()) ? left.tex.trim() : null;
}

/**
 * Assignments to distinct letters in alphabetical order ("y = 2, x = 1" as
 * "x = 1, y = 2"), the order a tuple of them is usually written in; any
 * other list as it is.
 */
export function byLetter(items: readonly Answer[]): readonly Answer[] {
  const letters = items.map(assignedLetter);
  if (letters.some((l) => l === null) || new Set(letters).size !== letters.length) return items;
  return items.map((item, k) => ({ item, letter: letters[k] ?? '' })).sort((a, b) => a.letter.localeCompare(b.letter)).map((x) => x.item);
}
