/**
 * Whether a question asks for its answer in a form, not only for a value:
 * "Factor …", "in simplest form", "in interval notation", "in the form
 * a\sqrt b", "Express your answer as a common fraction". Against such a
 * question an answer of the right value in another form (the expansion of
 * the asked factorisation, \frac24 for \frac12) may be wrong, which only a
 * reader of the question can decide; the grader then says `unsure`.
 */

/** Phrases that name a form, each with the name the grader reports. */
const FORM_PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  // "Factor x^2-1.", "Completely factor", "factor completely", "factorise",
  // "factored form", "prime factorization"; not the noun ("a prime factor of").
  [/(?:^|[.!?:]\s+|\n\s*)(?:completely\s+|fully\s+)?factor\b(?!\s+of\b)|\bfactor\s+(?:completely|fully)\b|\bfactori[sz](?:e|ed|ation)\b|\bfactored\b/i, 'factored'],
  [/(?:^|[.!?:]\s+|\n\s*)expand\b|\bexpanded\s+form\b/i, 'expanded'],
  [/\bsimplest\b|\blowest\s+terms\b|\bsimplif(?:y|ied)\b|\b(?:common|reduced|improper)\s+fraction\b|\bmixed\s+number\b/i, 'simplest'],
  [/\binterval\s+notation\b/i, 'interval notation'],
  [/\b(?:in|of)\s+the\s+form\b|\bin\s+(?:[a-z-]+\s+){1,2}form\b/i, 'named form'],
  [/\bexpress(?:ed)?\b[^.?!]{0,80}?\bas\b/i, 'named form'],
  [/\b(?:give|enter|write|leave|state)\s+(?:your|the)\s+answer\s+(?:as|in)\b/i, 'named form'],
  [/\bas\s+a\s+(?:decimal|percent(?:age)?|fraction)\b|\bto\s+the\s+nearest\b/i, 'named form'],
];

/**
 * The form a question asks its answer in ('factored', 'expanded', 'simplest',
 * 'interval notation', 'named form'), or null when it names none. Only the
 * question's own words are read, so a bare value question ("How many …?")
 * never asks for a form.
 *
 * @example askedForm('Factor $x^2 - 5x + 6$.') // 'factored'
 */
export function askedForm(question: string): string | null {
  for (const [pattern, name] of FORM_PHRASES) if (pattern.test(question)) return name;
  return null;
}
