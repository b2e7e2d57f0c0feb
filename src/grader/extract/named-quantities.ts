/**
 * An answer that names several quantities, each a number followed by its words: "5 units wide and 3 units tall",
 * "5 apples and 3 oranges left" (several-quantities.ts keeps such a last sentence whole). Which of them answers
 * depends on the question: "What is the width …" asks for the first, "How tall …" for the second, "What is the area
 * …" for neither, which a reader settles. Read as its last number, the height 3 was graded equal to a reference 3
 * where the width was asked, sure of it.
 */
import { askingSentence } from './labelled-clauses.ts';
import { unitScale } from '../math/unit-table.ts';
import { canonicalUnit } from '../math/units.ts';

/** One quantity: its value and the words that follow it. */
export interface NamedQuantity {
  value: string;
  words: string[];
}

/** One quantity of such an answer: a number and one to three words. */
const QUANTITY = String.raw`(-?\d+(?:\.\d+)?(?:\/\d+)?|\\[dt]?frac\{\d+\}\{\d+\})\s+(\p{L}+(?:\s+\p{L}+){0,2}?)`;

/** The whole answer: quantities joined by commas and "and". */
const QUANTITIES = new RegExp(String.raw`^${QUANTITY}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)${QUANTITY})+$`, 'u');
const EACH = new RegExp(String.raw`(?:^|,\s*(?:and\s+)?|\s+and\s+)${QUANTITY}(?=\s*,|\s+and\s|$)`, 'gu');

/** The quantities `answer` names, when it is only quantities joined by commas and "and"; null otherwise. */
export function namedQuantities(answer: string): NamedQuantity[] | null {
  const text = answer.replace(/[.!]\s*$/, '').trim();
  if (text.length > 200 || !QUANTITIES.test(text)) return null;
  const found = [...text.matchAll(EACH)].map((m) => ({ value: m[1] ?? '', words: (m[2] ?? '').toLowerCase().split(/\s+/) }));
  return found.length >= 2 && !oneMeasure(found) ? found : null;
}

/**
 * Whether two of the quantities are in different units of one dimension: "12 hours and 30 minutes", "5 feet and 3 inches" are one
 * length of time or of space, whose parts answer no question: read as two, "How many hours" took 12, graded equal to a
 * reference 12 where the trip took 12.5 hours.
 */
function oneMeasure(quantities: readonly NamedQuantity[]): boolean {
  // "4 cm long, 3 cm wide and 2 cm high" names three lengths in one unit: three measures, not one.
  const units = new Map<string, Set<string>>();
  for (const quantity of quantities) {
    const unit = quantity.words[0] ?? '';
    const dimension = unitScale(unit)?.dimension;
    if (dimension !== undefined) units.set(dimension, (units.get(dimension) ?? new Set()).add(canonicalUnit(unit)));
  }
  return [...units.values()].some((named) => named.size > 1);
}

/** Adjectives of measure and the nouns a question names them by: "wide" answers "the width". */
const MEASURE_NOUNS: Readonly<Record<string, readonly string[]>> = {
  wide: ['width', 'wide', 'breadth'],
  broad: ['breadth', 'broad', 'width'],
  tall: ['height', 'tall', 'high'],
  high: ['height', 'high', 'tall'],
  long: ['length', 'long'],
  deep: ['depth', 'deep'],
  thick: ['thickness', 'thick'],
  old: ['age', 'old'],
  far: ['distance', 'far'],
  heavy: ['weight', 'heavy'],
};

/** The words a question may name a quantity by: its own words that the other quantities do not share, and their nouns. */
function namesOf(quantity: NamedQuantity, all: readonly NamedQuantity[]): string[] {
  const own = quantity.words.filter((word) => all.every((other) => other === quantity || !other.words.includes(word)));
  return own.flatMap((word) => MEASURE_NOUNS[word] ?? [word, word.replace(/s$/, '')]).filter((word) => word.length >= 3);
}

/**
 * The value of the one quantity that the asking sentence of `question` names; null when it names none ("the area"),
 * or more than one ("the width and the height").
 */
export function askedQuantity(quantities: readonly NamedQuantity[], question: string): string | null {
  const asking = askingSentence(question).toLowerCase();
  const named = quantities.filter((quantity) => namesOf(quantity, quantities).some((name) => new RegExp(String.raw`\b${name}s?\b`).test(asking)));
  return named.length === 1 ? (named[0]?.value ?? null) : null;
}
