/**
 * Whole answers that name a set of numbers in words or by a formula with a
 * parameter: "none" and "no such n exists" are the empty set; "all powers
 * of 2", "n = 2^k, k \ge 0" and "2^k for some nonnegative integer k" are one
 * family; "infinitely many" (solutions), "infinity" and "infinite" are the
 * count \infty, and "DNE" and "does not exist" one missing value. Each gets one
 * spelling, so that the comparison sees one text.
 */

/** Whole answers that state a named set. */
const NAMED_SETS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:there\s+(?:are|is|exists?)\s+)?(?:no\s+(?:such\s+)?(?:real\s+|positive\s+|integer\s+)*(?:solutions?|integers?|numbers?|values?|pairs?|triples?|functions?|polynomials?)(?:\s+[a-zA-Z])?(?:\s+exists?)?|none|no\s+such\s+[a-zA-Z]+(?:\s+exists?)?|no\s+[a-zA-Z]\s+exists?)$/i, '\\emptyset'],
  // "the empty set" names \emptyset: as words, with its "the" dropped (winner.ts), it was different from it, sure of it.
  [/^(?:the\s+)?empty\s+set$/i, '\\emptyset'],
  // "DNE" says a value (a limit, a maximum) is missing, not that a set of solutions is empty: against \emptyset a reader
  // decides (readings.ts), and read as \emptyset a "find all n" reference was matched by it, sure of it.
  [/^(?:does\s+not\s+exist|dne)$/i, '\\text{DNE}'],
  // "all primes n", "the prime numbers p", "n is a prime number", "p prime": not "odd primes", a part of them.
  [/^(?:(?:all|every)\s+(?:the\s+)?|the\s+)?(?:(?:primes|prime\s+numbers?)(?:\s+[a-zA-Z])?|prime\s+[a-zA-Z]|[a-zA-Z]\s+(?:is\s+)?(?:a\s+)?prime(?:\s+number)?)$/i, '\\text{prime}'],
  [/^(?:all|every)\s+positive\s+integers?(?:\s+[a-zA-Z])?$|^\\mathbb\s*\{?\s*Z\s*\}?\s*(?:\^\s*\{?\+\}?|_\s*\{\s*>\s*0\s*\})$/i, '\\text{all positive integers}'],
  [/^(?:all|every)\s+integers?(?:\s+[a-zA-Z])?$/i, '\\mathbb{Z}'],
  [/^(?:all|every)\s+real\s+numbers?(?:\s+[a-zA-Z])?$|^all\s+reals$/i, '\\mathbb{R}'],
  // "How many solutions?" "Infinitely many": a count, the reference's \infty.
  [/^(?:(?:there\s+(?:are|exist)\s+)?infinitely\s+many(?:\s+such)?(?:\s+[a-zA-Z]+)?|infinity|infinite)$/i, '\\infty'],
];

/** Bases of families of powers written in words. */
const BASE_IN_WORDS: Readonly<Record<string, string>> = { two: '2', three: '3', five: '5', seven: '7', ten: '10' };

/** A family b^k: the base and the least exponent. */
function powerText(base: string, from: number): string {
  return `\\text{powers_of_${base}_from_${from}}`;
}

/** Where the exponent k starts, from its qualifier: a number, 'open' for "k \in \mathbb{N}", null when no qualifier reads so. */
function exponentStart(qualifier: string, k: string): number | 'open' | null {
  const q = qualifier.trim().replace(/^[,;(]\s*|\s*\)$/g, '').replace(/^(?:for|where|with)\s+/i, '').trim();
  if (q === '') return null;
  const bound = new RegExp(String.raw`^${k}\s*(\\ge|>)\s*(-?\d+)$`).exec(q);
  if (bound !== null) return Number(bound[2]) + (bound[1] === '>' ? 1 : 0);
  if (new RegExp(String.raw`^${k}\s*=\s*0\s*,\s*1\s*,\s*2\s*,\s*\\dots$`).test(q)) return 0;
  if (new RegExp(String.raw`^${k}\s*=\s*1\s*,\s*2\s*,\s*3\s*,\s*\\dots$`).test(q)) return 1;
  if (new RegExp(String.raw`^${k}\s*\\in\s*\\mathbb\s*\{?\s*(?:N\s*\}?\s*_\s*\{?\s*0|Z\s*\}?\s*_\s*\{\s*\\ge\s*0)\s*\}?$`).test(q)) return 0;
  if (new RegExp(String.raw`^${k}\s*\\in\s*\\mathbb\s*\{?\s*Z\s*\}?\s*(?:\^\s*\{?\+\}?|_\s*\{\s*>\s*0\s*\})$`).test(q)) return 1;
  // Whether \mathbb{N} holds 0 is a convention the answer does not state.
  if (new RegExp(String.raw`^${k}\s*\\in\s*\\mathbb\s*\{?\s*N\s*\}?$`).test(q)) return 'open';
  const words = new RegExp(String.raw`^(?:some|any|an?)\s+(non-?negative|positive)\s+integers?\s+${k}$`, 'i').exec(q);
  if (words !== null) return /pos/i.test(words[1] ?? '') ? 1 : 0;
  const bounded = new RegExp(String.raw`^(?:some|any|an?)\s+integers?\s+${k}\s*(\\ge|>)\s*(-?\d+)$`, 'i').exec(q);
  if (bounded !== null) return Number(bounded[2]) + (bounded[1] === '>' ? 1 : 0);
  return null;
}

/**
 * "all powers of 2", "n is a power of 2" (from 2^0 = 1), "n = 2^k, k \ge 1",
 * "2^k for some nonnegative integer k": the family's one spelling; null
 * when `text` is not such a family or its exponent's range is unclear.
 */
function powerFamily(text: string): string | null {
  const words = /^(?:all\s+(?:the\s+)?|[a-zA-Z]\s+is\s+a\s+)?powers?\s+of\s+(\d+|two|three|five|seven|ten)$/i.exec(text);
  // "powers of two": the base in words is its numeral.
  if (words?.[1] !== undefined) return powerText(BASE_IN_WORDS[words[1].toLowerCase()] ?? words[1], 0);
  const formula = /^(?:[a-zA-Z]\s*=\s*)?(\d+)\s*\^\s*\{?\s*([a-zA-Z])\s*\}?(.*)$/.exec(text);
  if (formula?.[1] === undefined || formula[2] === undefined || formula[3] === undefined) return null;
  const from = exponentStart(formula[3], formula[2]);
  // Free text: equal only to the same words, unsure against the rest.
  if (from === 'open') return `\\text{powers of ${formula[1]} from an exponent of 0 or 1}`;
  return from === null || from < 0 ? null : powerText(formula[1], from);
}

/** The one spelling of a whole answer that names a set; null for any other answer. */
export function namedSet(text: string): string | null {
  // "n \in \mathbb{Z}^+" names the set after its member.
  const set = text.replace(/^[a-zA-Z]\s*\\in\s*(?=\\mathbb)/, '');
  for (const [pattern, replacement] of NAMED_SETS) if (pattern.test(set)) return replacement;
  return powerFamily(text.trim());
}
