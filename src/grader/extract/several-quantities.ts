/**
 * A last sentence that gives two quantities, each a number with its own noun, and concludes neither: "So she has $5$
 * apples and $3$ oranges left." Read as its last math, the oranges' 3 was the answer, graded equal to a reference 3,
 * sure of it, where the question may have asked for the apples. As in prose ("5 apples and 6 oranges" is no one
 * value), the sentence is the answer, for a reader; "…, so the total is $8$" concludes, and is not read here.
 */
import type { Segment } from './segments.ts';

/** A number as a quantity states it: "5", "-3", "2.5", "\frac{1}{2}". */
const NUMBER = /^\s*-?(?:\d+(?:\.\d+)?|\\[dt]?frac\{\d+\}\{\d+\})\s*$/;

/** Between the two numbers: the first one's noun and "and" ("apples and "). */
const NOUN_AND = /^\s+(\p{L}{3,})\s+and\s+$/u;

/** After the last number: its noun, and the rest of the sentence without another value. */
const NOUN_AFTER = /^\s+(\p{L}{3,})\b[^$\d]*$/u;

/** The sentence from the first of two such quantities to its end, as text; null when the paragraph ends otherwise. */
export function severalQuantitiesAtEnd(paragraph: string, math: readonly Segment[]): string | null {
  const last = math[math.length - 1];
  const previous = math[math.length - 2];
  if (last === undefined || previous === undefined || !NUMBER.test(last.text) || !NUMBER.test(previous.text)) return null;
  const between = NOUN_AND.exec(paragraph.slice(previous.end, last.start));
  const after = NOUN_AFTER.exec(paragraph.slice(last.end));
  if (between?.[1] === undefined || after?.[1] === undefined || between[1].toLowerCase() === after[1].toLowerCase()) return null;
  return paragraph.slice(previous.start).replace(/\$/g, '').replace(/[.!]\s*$/, '').replace(/\s+/g, ' ').trim();
}
