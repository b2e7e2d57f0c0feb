/**
 * Answers with words, by rule: qualifiers that do not change the answer are
 * removed ("f(x) = x^2 - x for all x", "P(x) = 2x^2 + c for some constant
 * c", "c \in \mathbb{R}"), and words that state a set are given one spelling
 * ("odd n", "n is odd", "n = 2k+1" and "n \equiv 1 \pmod 2" are all the
 * residue class 1 mod 2; "no solutions" is \emptyset). Qualifiers that carry
 * the answer (an integer k, a bound on a constant) are kept, and what is
 * still prose afterwards is free text, compared as such.
 */
import { splitQuantity } from './units.ts';

/** Where a constant may range without changing the answer: the reals or complex numbers. */
const ANY_REAL = String.raw`(?:\\in\s*\\mathbb\s*\{?\s*[RC]\s*\}?|(?:is|are)\s+(?:an?\s+)?(?:arbitrary\s+)?(?:real\s+)?(?:constants?|numbers?|reals?|parameters?))`;

/** One letter or a list of them ("c", "a, b"). */
const LETTERS = String.raw`[a-zA-Z](?:\s*,\s*[a-zA-Z])*`;

/** Trailing qualifiers that leave the answer unchanged. */
const QUALIFIERS: readonly RegExp[] = [
  // "for all x", "for all real x", "\forall x \in \mathbb{R}", "for every x \ne 0" (a domain, not a value).
  new RegExp(String.raw`[,;]?\s*\(?\s*(?:for\s+(?:all|every|any|each)|\\forall)\s+(?:real\s+|positive\s+|nonzero\s+|complex\s+)?(?:numbers?\s+|values?\s+(?:of\s+)?)?[a-zA-Z](?:\s*(?:\\in\s*\\mathbb\s*\{?\s*[RCQ]\s*\}?(?:\^\+|_\{?\s*>\s*0\s*\}?)?|\\ne\s*-?\d+|>\s*0))?\s*\)?\s*$`, 'i'),
  // "for some constant c", "for some real c", "for any constant c".
  new RegExp(String.raw`\s*[,;]?\s*\(?\s*for\s+(?:some|any|an?\s+arbitrary|every|all)\s+(?:real\s+|complex\s+)?(?:constants?\s+|numbers?\s+|parameters?\s+)?${LETTERS}(?:\s*${ANY_REAL})?\s*\)?\s*$`, 'i'),
  // ", c \in \mathbb{R}", "where c is a constant", "(c \in \mathbb R)": after a separator, never inside the formula.
  new RegExp(String.raw`\s*(?:[,;]|\bwhere\b|\bwith\b|\()\s*${LETTERS}\s*${ANY_REAL}\s*\)?\s*$`, 'i'),
];

/** The residue class of "n = 4k + 3", "n \equiv 3 \pmod 4", "odd n": a text that names it once. */
function residue(r: bigint, m: bigint): string {
  const rr = ((r % m) + m) % m;
  // One word, so that two different classes are different words, not free text.
  return `\\text{residue_${rr}_mod_${m}}`;
}

const MOD = String.raw`(?:\\pmod\s*\{?\s*(\d+)\s*\}?|\(?\s*(?:\\bmod|\\mod|mod)\s*\{?\s*(\d+)\s*\}?\s*\)?)`;

/** One item written as a residue class or a parity, as its canonical text; null otherwise. */
function residueItem(item: string): string | null {
  const t = item.trim();
  const congruence = new RegExp(String.raw`^(?:[a-zA-Z]\s*\\equiv\s*)?(-?\d+)\s*${MOD}$`).exec(t);
  if (congruence !== null && /\\equiv/.test(t)) return residue(BigInt(congruence[1] ?? '0'), BigInt(congruence[2] ?? congruence[3] ?? '1'));
  // "n = 4k + 3", "4k+3", "n = 2k": the variable on the left differs from the parameter.
  // The parameter is a letter conventionally an integer; "y = 2x" is a line, not a residue class.
  const form = /^(?:(?:all\s+(?:numbers|integers)\s+of\s+the\s+form\s+)|([a-wA-W])\s*=\s*)?(\d+)\s*([jklmt])\s*(?:([+-])\s*(\d+))?$/i.exec(t);
  if (form !== null && form[1] !== form[3] && (form[1] !== undefined || /form/i.test(t))) {
    const r = BigInt(form[5] ?? '0') * (form[4] === '-' ? -1n : 1n);
    const m = BigInt(form[2] ?? '1');
    if (m >= 2n) return residue(r, m);
  }
  const parity = /^(?:all\s+)?(?:(odd|even)\s+(?:positive\s+)?(?:integers?|numbers?|values?\s+of\s+[a-zA-Z]|[a-zA-Z])?|([a-zA-Z])\s+(?:is\s+)?(odd|even))$/i.exec(t);
  if (parity !== null) return residue((parity[1] ?? parity[3] ?? '').toLowerCase() === 'odd' ? 1n : 0n, 2n);
  return null;
}

/**
 * Multiple-choice letters as one spelling: "BD", "B, D", "(B) and (D)",
 * "(b)" are the choices B and D, or B. A bare lowercase letter stays a
 * variable.
 */
function choiceLetters(text: string): string | null {
  const t = text.trim();
  let letters: string[] | null = null;
  if (/^[A-J]{1,5}$/.test(t)) letters = [...t];
  else if (/^\(?[A-J]\)?(?:\s*(?:,|and|or|\s)\s*\(?[A-J]\)?)+$/.test(t) || /^\([a-jA-J]\)$/.test(t)) letters = t.replace(/\b(?:and|or)\b/g, ' ').match(/[A-Ja-j]/g) ?? [];
  if (letters === null || letters.length === 0) return null;
  const distinct = [...new Set(letters.map((l) => l.toUpperCase()))].sort();
  if (distinct.length !== letters.length) return null;
  return `\\text{choice_${distinct.join('')}}`;
}

/** Whole answers that state a named set. */
const NAMED_SETS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:there\s+(?:are|is)\s+)?(?:no\s+(?:such\s+)?(?:real\s+|positive\s+|integer\s+)*(?:solutions?|integers?|numbers?|values?|pairs?|triples?|functions?|polynomials?)(?:\s+[a-zA-Z])?(?:\s+exists?)?|none|no\s+such\s+[a-zA-Z]+(?:\s+exists?)?|does\s+not\s+exist)$/i, '\\emptyset'],
  [/^(?:all\s+)?(?:primes|prime\s+numbers|prime\s+[a-zA-Z]|[a-zA-Z]\s+is\s+(?:a\s+)?prime)$/i, '\\text{prime}'],
  [/^(?:all|every)\s+positive\s+integers?(?:\s+[a-zA-Z])?$|^\\mathbb\s*\{?\s*Z\s*\}?\s*(?:\^\s*\{?\+\}?|_\s*\{\s*>\s*0\s*\})$/i, '\\text{all positive integers}'],
  [/^(?:all|every)\s+integers?(?:\s+[a-zA-Z])?$/i, '\\mathbb{Z}'],
  [/^(?:all|every)\s+real\s+numbers?(?:\s+[a-zA-Z])?$|^all\s+reals$/i, '\\mathbb{R}'],
];

/** Words that are mathematics or list glue, not prose. */
const NOT_PROSE = /^(?:and|or|sin|cos|tan|sec|csc|cot|arcsin|arccos|arctan|sinh|cosh|tanh|log|ln|exp|sqrt|abs|floor|ceil|max|min|gcd|lcm|det|mod|pmod|bmod|pi|text|residue|choice)$/i;

/** Words that make an answer a case distinction or a condition: free text, whatever else it holds. */
const CONDITION_WORDS = /\b(?:if|otherwise|unless|when|which|where|such\s+that|iff)\b/i;

/** The result: the answer rewritten, and whether it is free text to compare as words. */
export interface Worded {
  tex: string;
  freeText: boolean;
}

function plain(tex: string): string {
  return tex.replace(/\\text\s*\{([^{}]*)\}/g, ' $1 ').replace(/\s+/g, ' ').trim();
}

/** Applies the rules above to a cleaned answer. */
export function canonicalWords(cleaned: string): Worded {
  let tex = cleaned;
  // Most answers have no words at all: leave them at once.
  const words = /[a-zA-Z]{2}|\([a-jA-J]\)|^[A-J](?:\s*,\s*[A-J])*$/.test(plain(tex).replace(/\\[a-zA-Z]+/g, '')) || /\\(?:equiv|forall|in|mathbb)(?![a-zA-Z])|^[a-zA-Z]\s*=\s*\d+\s*[a-zA-Z]/.test(tex);
  if (!words) return { tex, freeText: false };
  let text = plain(tex);
  for (let guard = 0; guard < 3; guard += 1) {
    const before = text;
    for (const q of QUALIFIERS) {
      const m = q.exec(text);
      if (m !== null && m.index > 0 && text.slice(0, m.index).trim() !== '') text = text.slice(0, m.index).trim();
    }
    if (text === before) break;
  }
  if (text !== plain(tex)) tex = text;
  for (const [pattern, replacement] of NAMED_SETS) if (pattern.test(text)) return { tex: replacement, freeText: false };
  const choice = choiceLetters(text);
  if (choice !== null) return { tex: choice, freeText: false };
  const items = text.split(/\s*(?:,|;|\band\b|\bor\b)\s*/);
  const residues = items.map(residueItem);
  if (residues.every((r) => r !== null)) return { tex: residues.join(', '), freeText: false };
  // Environment names, blackboard letters and a unit after a number ("12 \text{ square units}") are not prose.
  const counted = tex
    .replace(/\\(?:begin|end|operatorname|mathbb|mathrm|mathcal|mathfrak)\s*\{[^{}]*\}/g, ' ')
    .replace(/(\d\s*)\\text\s*\{[^{}]*\}\s*(?:\^\s*\{?\d\}?)?$/, '$1');
  const value = splitQuantity(counted).tex;
  const prose = (plain(value).replace(/\\[a-zA-Z]+/g, ' ').match(/[a-zA-Z]{3,}/g) ?? []).filter((w) => !NOT_PROSE.test(w));
  const freeText = CONDITION_WORDS.test(text.replace(/\\[a-zA-Z]+/g, ' ')) || prose.length >= 2;
  return { tex, freeText };
}
