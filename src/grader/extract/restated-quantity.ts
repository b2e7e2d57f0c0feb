/**
 * An answer restated in other units: "7 hours, i.e., 420 minutes", "2 m (200 cm)", "7 h = 420 min". Graded as text,
 * a right 420 (or 7) was unsure, and read as its first number, a reference 420 was graded different, sure of it.
 * grade.ts reads such an answer as its first quantity, with the restatement as another reading, where the two are the
 * same quantity; where they are not ("7 hours, i.e., 400 minutes"), the text stays, which only a reader settles.
 */
import { splitQuantity } from '../math/units.ts';
import { unitScale } from '../math/unit-table.ts';

/** The two sides of such an answer: "A, i.e., B", "A, that is, B", "A, or B", "A (B)", "A (= B)", "A = B", "A, which is B". */
const RESTATED = /^([^,()=]{1,60}?)\s*(?:,\s*(?:i\.\s?e\.|that\s+is|or|which\s+is|namely)\s*,?\s*|\(\s*(?:=|i\.\s?e\.,?|that\s+is,?|or)?\s*|=\s*)([^,()=]{1,60}?)\s*\)?\s*\.?$/i;

/** A number and a unit the unit table knows: "7 hours", "420 \text{ minutes}", "2.5 km". */
function knownQuantity(side: string): { dimension: string } | null {
  const quantity = splitQuantity(side);
  const scale = unitScale(quantity.unit);
  return scale === null || !/^-?\d+(?:\.\d+)?$|^\\[dt]?frac\{\d+\}\{\d+\}$/.test(quantity.tex.trim()) ? null : scale;
}

/**
 * The two quantities of `answer` when it states one quantity and restates it in another unit of the same dimension;
 * null otherwise. Whether the two are the same value is for the grade to tell.
 */
export function restatedQuantity(answer: string): { first: string; second: string } | null {
  const sides = RESTATED.exec(answer.trim());
  const [first, second] = [sides?.[1]?.trim(), sides?.[2]?.trim()];
  if (first === undefined || second === undefined) return null;
  const [a, b] = [knownQuantity(first), knownQuantity(second)];
  return a !== null && b !== null && a.dimension === b.dimension ? { first, second } : null;
}

/**
 * The last box with the restatement the words after it give: "$\boxed{3}$ hours, which is $180$ minutes", "$\boxed{7
 * \text{ hours}}$, i.e., 420 minutes" are "3 hours, which is 180 minutes" and "7 \text{ hours}, i.e., 420 minutes".
 * Read as the box alone, the right 180 or 420 was graded different, sure of it. Null where the words after the box, to
 * the end of its sentence, restate nothing.
 */
export function boxRestated(text: string, boxEnd: number, boxed: string): string | null {
  const after = text.slice(boxEnd, boxEnd + RESTATEMENT_REACH).replace(/^\s*(?:\$\$?|\\[)\]])/, '');
  const sentence = (after.split(/\n|(?<!\b(?:i\.e|e\.g))\.(?=\s|$)/)[0] ?? '').replace(/\$|\\[()]/g, '').trim();
  if (sentence === '' || !/^(?:\p{L}+\s*)?[,(]/u.test(sentence)) return null;
  const candidate = `${boxed} ${sentence}`.replace(/\s+(?=[,)])/g, '');
  return restatedQuantity(candidate) === null ? null : candidate;
}

/** How far after a box its restatement is read: the rest of a short sentence. */
const RESTATEMENT_REACH = 200;
