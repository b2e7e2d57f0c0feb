/**
 * A last sentence that gives two quantities, each a number with its own noun, and concludes neither: "So she has $5$
 * apples and $3$ oranges left.", "So the rectangle is $5$ units wide and $3$ units tall." Read as its last math, the
 * second value was the answer, graded equal to a reference 3, sure of it, where the question may have asked for the
 * first (the width) or for neither (the area). As in prose ("5 apples and 6 oranges" is no one value), the sentence is
 * the answer, for a reader; asked-quantity.ts takes the value the question names. "…, so the total is $8$" concludes,
 * and is not read here.
 */
import type { Segment } from './segments.ts';

/** A number as a quantity states it: "5", "-3", "2.5", "\frac{1}{2}". */
const NUMBER = /^\s*-?(?:\d+(?:\.\d+)?|\\[dt]?frac\{\d+\}\{\d+\})\s*$/;

/**
 * Between two numbers: the first one's noun, with a unit or a word before it, and "and" or a comma ("units wide and "),
 * or words that restate it ("hours, i.e., ", "hours (").
 */
const NOUN_AND = /^\s+(\p{L}+\s+\p{L}{3,}|\p{L}{3,})\s*(?:,\s*(?:and\s+)?|\s+and\s+|,?\s*(?:i\.\s?e\.,?|that\s+is,?|or)\s+|\(\s*)$/u;

/**
 * After the last number: its noun, with a unit or a word before it, and the rest of the sentence without another value.
 * "$7$ hours, i.e., $420$ minutes" restates one quantity in another unit: kept whole, restated-quantity.ts reads it.
 */
const NOUN_AFTER = /^\s+(\p{L}+\s+\p{L}{3,}|\p{L}{3,})\b[^$\d]*$/u;

/** The sentence from the first of two or more such quantities to its end, as text; null when the paragraph ends otherwise. */
export function severalQuantitiesAtEnd(paragraph: string, math: readonly Segment[]): string | null {
  const last = math[math.length - 1];
  const after = last === undefined || !NUMBER.test(last.text) ? undefined : NOUN_AFTER.exec(paragraph.slice(last.end))?.[1];
  if (after === undefined) return null;
  // "$4$ cm long, $3$ cm wide and $2$ cm high": each quantity before the last, back to the first, with its own words.
  const nouns = [after];
  let first = math.length - 1;
  for (let k = math.length - 2; k >= 0; k -= 1) {
    const quantity = math[k];
    const noun = quantity !== undefined && NUMBER.test(quantity.text) ? NOUN_AND.exec(paragraph.slice(quantity.end, math[k + 1]?.start))?.[1] : undefined;
    if (noun === undefined) break;
    nouns.push(noun);
    first = k;
  }
  const start = math[first];
  if (start === undefined || nouns.length < 2 || !nouns.some((noun) => differentNouns(noun, after))) return null;
  return paragraph.slice(start.start).replace(/\$/g, '').replace(/[.!]\s*$/, '').replace(/\s+/g, ' ').trim();
}

/**
 * Whether two quantities' words name different things: "apples" and "oranges", "units wide" and "units tall" (a unit
 * both share, then what each measures). "$5$ cm and $3$ cm long" names one kind twice.
 */
function differentNouns(first: string, second: string): boolean {
  const words = (text: string): string[] => text.toLowerCase().split(/\s+/);
  const [a, b] = [words(first), words(second)];
  return a[0] !== b[0] || (a[1] !== undefined && b[1] !== undefined && a[1] !== b[1]);
}
