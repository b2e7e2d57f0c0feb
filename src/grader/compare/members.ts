/**
 * The items of two lists against each other: in order, as members, and with
 * the repeats a reference may count.
 */
import type { Answer } from '../parse/types.ts';

type Equal = (x: Answer, y: Answer) => boolean;

/** Unordered equality with duplicates ignored: each item has a partner on the other side. */
export function sameMembers(a: readonly Answer[], b: readonly Answer[], eq: Equal): boolean {
  if (a.length === 0 || b.length === 0) return a.length === b.length;
  return a.every((x) => b.some((y) => eq(x, y))) && b.every((y) => a.some((x) => eq(x, y)));
}

/** Ordered equality: as many items, each equal to the one in its place. */
export function samePositions(a: readonly Answer[], b: readonly Answer[], eq: Equal): boolean {
  return a.length === b.length && a.every((x, k) => {
    const y = b[k];
    return y !== undefined && eq(x, y);
  });
}

/** Longest lists whose repeats are counted: counting compares every pair of items. */
const MAX_COUNTED = 24;

/**
 * A reference list that repeats an item ("1, 2, 2": roots counted with their
 * multiplicity) against one with the same members repeated otherwise ("1,
 * 2", "1, 1, 2"): whether the repeats count only the question says.
 */
export function repeatsDiffer(gold: readonly Answer[], pred: readonly Answer[], eq: Equal): boolean {
  if (gold.length > MAX_COUNTED || pred.length > MAX_COUNTED) return false;
  const count = (list: readonly Answer[], x: Answer): number => list.filter((y) => eq(x, y)).length;
  return gold.some((x) => count(gold, x) > 1) && gold.some((x) => count(gold, x) !== count(pred, x));
}
