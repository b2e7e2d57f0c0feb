/**
 * Answers with words, by rule: qualifiers that do not change the answer are
 * removed ("f(x) = x^2 - x for all x", "2 for all odd primes p", "P(x) =
 * 2x^2 + c for some constant c", "c \in \mathbb{R}"), answers by cases are
 * read case by case (cases.ts), and words that state a set are given one
 * spelling ("odd n", "n is odd", "n = 2k+1" and "n \equiv 1 \pmod 2" are all
 * the residue class 1 mod 2, residues.ts; "no solutions" is \emptyset and
 * "all powers of 2" is "n = 2^k, k \ge 0", named-sets.ts). Qualifiers that
 * carry the answer (an integer k, a bound on a constant) are kept, and what
 * is still prose afterwards is free text, compared as such.
 */
import { caseTexts, type CasesText } from './cases.ts';
import { namedSet } from './named-sets.ts';
import { expandCongruences, progressionClass, rangedResidue, residueItem, residueTexts, unionOf } from './residues.ts';
import { splitQuantity } from '../math/units.ts';
import { YES_OR_NO_FIRST } from '../extract/segments.ts';
import { splitTopLevel } from '../extract/scan.ts';
import { namedWinner, withoutLeadingThe } from './winner.ts';
import { wordedExtremes } from './worded-extremes.ts';
import { functionInWords } from './function-words.ts';

/** Where a constant may range without changing the answer: the reals or complex numbers. */
const ANY_REAL = String.raw`(?:\\in\s*\\mathbb\s*\{?\s*[RC]\s*\}?|(?:(?:is|are|being)\s+(?:an?\s+|any\s+)?|any\s+|an?\s+(?=arbitrary))(?:arbitrary\s+)?(?:real\s+)?(?:constants?|numbers?|reals?|parameters?))`;

/** One letter or a list of them ("c", "a, b"). */
const LETTERS = String.raw`[a-zA-Z](?:\s*,\s*[a-zA-Z])*`;

/** Words that say where a quantified variable ranges. */
const DOMAIN_WORDS = String.raw`(?:(?:real|positive|negative|non-?negative|non-?zero|complex|rational|odd|even|natural|primes?|integers?|numbers?|values?\s+of)\s+)*`;

/** A bound after the variable: "\in \mathbb{Z}", "\in \mathbb{R}^+", "\ne 0", "\ge 2". */
const DOMAIN_BOUND = String.raw`(?:\s*(?:\\in\s*\\mathbb\s*\{?\s*[RCQZN]\s*\}?(?:\^\s*\{?\+\}?|_\s*\{?\s*(?:>|\\ge)\s*0\s*\}?)?|(?:\\ne|>|<|\\ge|\\le)\s*-?\d+))?`;

/**
 * A universal qualifier at the end of an answer: it restates the question's
 * domain. "for n \ge 1" says it without "all", by a bound.
 */
const UNIVERSAL = new RegExp(
  String.raw`[,;]?\s*\(?\s*(?:(?:for\s+(?:all|every|any|each)|\\forall)\s+${DOMAIN_WORDS}${LETTERS}${DOMAIN_BOUND}|for\s+${LETTERS}${DOMAIN_BOUND.slice(0, -1)})\s*\)?\s*$`,
  'i',
);

/**
 * The domain a universal qualifier states, in one spelling ("for every odd
 * prime p" and "(for all odd primes q)" are "odd prime"); '' when it names
 * no restriction ("for all x", "for all real x").
 */
function domainOf(qualifier: string): string {
  return qualifier
    .toLowerCase()
    .replace(/\\mathbb\s*\{?\s*([a-z])\s*\}?/g, 'mathbb$1')
    .replace(/\\in\s*mathbb[rc](?![a-z^_])/g, ' ')
    .replace(/\\forall|\b(?:for|all|every|any|each|real|complex|numbers?|values?|of)\b|[(),;]/g, ' ')
    .replace(/\b([a-z]{3,})s\b/g, '$1')
    .replace(/(?<![a-z\\])[a-z](?![a-z])/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Trailing qualifiers that leave the answer unchanged. */
const QUALIFIERS: readonly RegExp[] = [
  // "for all x", "for all real x", "\forall x \in \mathbb{R}", "for every odd prime p", "for all n \ge 2": a domain, not a value.
  UNIVERSAL,
  // "for some constant c", "for some real c", "for any constant c".
  new RegExp(String.raw`\s*[,;]?\s*\(?\s*for\s+(?:some|any|an?\s+arbitrary|every|all)\s+(?:real\s+|complex\s+)?(?:constants?\s+|numbers?\s+|parameters?\s+)?${LETTERS}(?:\s*${ANY_REAL})?\s*\)?\s*$`, 'i'),
  // "(the only solution)", "is the unique solution", "only": a remark that the answer is complete.
  /\s*[,;]?\s*\(?\s*(?:(?:is|are)\s+)?(?:the\s+)?(?:only|unique)(?:\s+(?:solutions?|answers?|functions?|polynomials?|values?|possibility))?\s*\)?\s*$/i,
  // ", c \in \mathbb{R}", "where c is a constant", "(c \in \mathbb R)": after a separator, never inside the formula.
  new RegExp(String.raw`\s*(?:[,;]|\bwhere\b|\bwith\b|\()\s*${LETTERS}\s*${ANY_REAL}\s*\)?\s*$`, 'i'),
];

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

/** Words that are mathematics or list glue, not prose. */
const NOT_PROSE = /^(?:and|or|sin|cos|tan|sec|csc|cot|arcsin|arccos|arctan|sinh|cosh|tanh|log|ln|exp|sqrt|abs|floor|ceil|max|min|gcd|lcm|det|mod|pmod|bmod|pi|text|residue|choice)$/i;

/** Words that make an answer a case distinction or a condition: free text, whatever else it holds. */
const CONDITION_WORDS = /\b(?:if|otherwise|unless|when|which|where|such\s+that|iff)\b/i;

/** The result: the answer rewritten, and whether it is free text to compare as words. */
export interface Worded {
  tex: string;
  freeText: boolean;
  /** The restriction a removed universal qualifier stated ("odd prime"); '' for none. */
  domain: string;
  /** The answer's cases, when it is given by cases. */
  cases?: CasesText;
}

function plain(tex: string): string {
  return tex.replace(/\\text\s*\{([^{}]*)\}/g, ' $1 ').replace(/\s+/g, ' ').trim();
}

/**
 * "f \equiv 0", "P(x) \equiv -1": a function that is identically a constant, as
 * the equation "f(x) = 0" that other answers write. A congruence ("n \equiv 1
 * \pmod 2") is left alone.
 */
function identically(tex: string): string {
  return tex.replace(/(?<![a-zA-Z\\])([fghFGHPQRT])(\s*\([a-z]\))?\s*\\equiv\s*(?![^,;]*(?:\\pmod|\\bmod|\\mod|\bmod\b))/g, (_m: string, f: string, args: string | undefined) => `${f}${args?.trim() ?? '(x)'} = `);
}

/** "n = 2^k, k \ge 0": a formula with a parameter and its range, which may name a family. */
const FAMILY = /\^\s*\{?\s*[a-zA-Z]\s*\}?\s*(?:[,;(]|\\text)/;

/**
 * "n = 2^k for k \ge 0": a bare "for" and a bound on a letter the value's side alone uses ranges a parameter, as ", k \ge 0"
 * does. Read as a domain ("f(n) = 2n for n \ge 2") and dropped, the family was 2^k: different from "all powers of 2".
 */
const FREE_BOUND = /\s*[,;]?\s*\(?\s*for\s+([a-zA-Z])\s*((?:>|\\ge)\s*-?\d+)\s*\)?\s*$/i;

/**
 * Whether `letter` is a parameter of the formula `head`, not its argument: "n = 2^k" ranges k, while in "f(n) = 2n"
 * (n on the left) or "x^2" (no left side; a parameter is named j, k, l, m or t) the bound is a domain.
 */
function boundsParameter(head: string, letter: string): boolean {
  const sides = head.split('=');
  if (sides.length < 2) return /^[jklmt]$/.test(letter);
  return !(sides[0] ?? '').replace(/\\[a-zA-Z]+/g, ' ').includes(letter);
}

/** "(n+1, n^2), n \ge 1": a bound on a letter after a comma, at the end of an answer. */
const BOUND_AFTER_COMMA = /^(.*\S)\s*,\s*([a-zA-Z])\s*((?:>|\\geq?|\\geqslant)\s*-?\d+)\s*$/;

/**
 * "(n^2+3n+2, n^3-1), n \ge 1" as "… for n \ge 1": a bound after a comma on the letter of one formula (no equation, no
 * list) that is its argument, not a parameter (boundsParameter), says the domain as "for" does. Kept, it made the
 * answer a list of the formula and a condition, different from the same formula written with "for n \ge 1".
 */
function boundAsDomain(tex: string): string {
  const m = BOUND_AFTER_COMMA.exec(tex);
  const [head, letter, bound] = [m?.[1] ?? '', m?.[2] ?? '', m?.[3] ?? ''];
  if (m === null || /[=<>]|\\[lg]eq?(?![a-zA-Z])|\\ne(?![a-zA-Z])/.test(head) || /^\s*[a-zA-Z]\s*$/.test(head)) return tex;
  // "2^n, n \ge 0": an exponent's bound makes a family of powers (named-sets.ts), not a domain.
  const exponent = new RegExp(String.raw`\^\s*\{?\s*${letter}(?![a-zA-Z])`).test(head);
  if (exponent || splitTopLevel(head, [',', ';']).length > 1 || boundsParameter(head, letter)) return tex;
  return head.replace(/\\[a-zA-Z]+/g, ' ').includes(letter) ? `${head} \\text{ for } ${letter} ${bound}` : tex;
}

/** The ways of saying where a parameter ranges (an integer, of a sign; a bound), after the formula that uses it. */
const PARAMETER_RANGES: ReadonlyArray<readonly [RegExp, (letter: string, sign: string) => string]> = [
  [/\s*[,;]?\s*\(?\s*for\s+(?:some|any|an?\s+arbitrary|an?)\s+(positive\s+|non-?negative\s+)?integers?\s+([a-zA-Z])\s*\)?\s*$/i, (k, sign) => parameterIn(k, sign)],
  [/\s*[,;]?\s*\(?\s*(?:where|with)\s+([a-zA-Z])\s+(?:is\s+)?(?:an?\s+)?(?:arbitrary\s+)?(positive\s+|non-?negative\s+)?integer\s*\)?\s*$/i, (k, sign) => parameterIn(k, sign)],
  // "for some a > 0", "for some real c \ne 1": a bound on a constant, as ", a > 0".
  [/\s*[,;]?\s*\(?\s*for\s+(?:some|any|an?\s+arbitrary|an?)\s+(?:real\s+)?(?:constant\s+|number\s+)?([a-zA-Z])\s*((?:>|<|\\ge|\\le|\\ne)\s*-?\d+)\s*\)?\s*$/i, (k, rel) => `, ${k} ${rel}`],
  [FREE_BOUND, (k, rel) => `, ${k} ${rel}`],
];

/** One spelling of "k is an integer": ", k \in \mathbb{Z}" (with ^+ or _{\ge 0} for a sign). */
function parameterIn(letter: string, sign: string): string {
  const set = /pos/i.test(sign) ? '\\mathbb{Z}^+' : /neg/i.test(sign) ? '\\mathbb{Z}_{\\ge 0}' : '\\mathbb{Z}';
  return `, ${letter} \\in ${set}`;
}

/** "x = 2k\pi for some integer k", "where k is an integer", "for some a > 0": the parameter's range in one spelling. */
function parameterRange(text: string): string {
  for (const [pattern, spell] of PARAMETER_RANGES) {
    const m = pattern.exec(text);
    if (m === null || m.index === 0) continue;
    // The first pattern names the sign before the letter, the others after.
    const [letter, sign] = pattern === PARAMETER_RANGES[0]?.[0] ? [m[2] ?? '', m[1] ?? ''] : [m[1] ?? '', m[2] ?? ''];
    const head = text.slice(0, m.index).trim();
    if (pattern === FREE_BOUND && !boundsParameter(head, m[1] ?? '')) continue;
    // Only a letter the formula uses is its parameter; a product ("ax^2") uses
    // its letters too, a command name ("\alpha") or a word in \text does not.
    const symbols = head.replace(/\\text\s*\{[^{}]*\}|\\[a-zA-Z]+/g, ' ');
    if (symbols.includes(letter)) return head + spell(letter, sign);
  }
  return text;
}

/** Strips trailing qualifiers that leave the answer unchanged; returns the rest and the domain they stated. */
function withoutQualifiers(input: string): { text: string; domain: string } {
  let text = input;
  let domain = '';
  for (let guard = 0; guard < 3; guard += 1) {
    const before = text;
    for (const q of QUALIFIERS) {
      const m = q.exec(text);
      if (m === null || m.index === 0 || text.slice(0, m.index).trim() === '') continue;
      if (q === UNIVERSAL) domain = [domainOf(m[0]), domain].filter((d) => d !== '').join(' ');
      text = text.slice(0, m.index).trim();
    }
    if (text === before) break;
  }
  return { text, domain };
}

/**
 * "k \in \mathbb{Z}", "where k \in \mathbb{Z}": a parameter of a residue form ranging over all integers (not
 * \mathbb{N}, which would bound it).
 */
const INTEGER_PARAMETER = /^(?:where\s+|for\s+(?:some\s+|all\s+|any\s+)?)?[jklmt]\s*\\in\s*\\mathbb\s*\{?\s*Z\s*\}?$/;

/** "n = 2k+1 (k \in \mathbb{Z})": the same range in a parenthesis, read as the item after a comma. */
const PARENTHESIZED_PARAMETER = /\s*\(\s*([jklmt]\s*\\in\s*\\mathbb\s*\{?\s*Z\s*\}?)\s*\)\s*$/;

/** "\{2k+1 : k \in \mathbb{Z}\}", "\{2k \mid k \in \mathbb{Z}\}": a set built from a parameter ranging over every integer. */
const INTEGER_BUILDER = /^\\\{\s*(.+?)\s*(?::|\\mid|\|)\s*([jklmt]\s*\\in\s*\\mathbb\s*\{?\s*Z\s*\}?)\s*\\\}$/;

/** Items that are all residue classes, as one reduced set; null otherwise. */
function residueList(text: string): string | null {
  const listed = text.replace(INTEGER_BUILDER, '$1, $2').replace(PARENTHESIZED_PARAMETER, ', $1');
  const all = expandCongruences(listed.replace(/\s*,?\s+((?:where|for(?:\s+(?:some|all|any))?)\s+[jklmt]\s*\\in)/, ', $1')).split(/\s*(?:,|;|\band\b|\bor\b)\s*/);
  // "n = 2k+1, k \in \mathbb{Z}": the parameter ranging over every integer is what the class says already.
  const items = all.filter((item) => !INTEGER_PARAMETER.test(item));
  if (items.length === 0) return null;
  // Its letter makes "2k+1" a class, not an expression in k.
  const ranged = new Set(all.filter((item) => INTEGER_PARAMETER.test(item)).map((item) => /([jklmt])\s*\\in/.exec(item)?.[1] ?? ''));
  const sets = items.map((item) => residueItem(item) ?? rangedResidue(item, ranged));
  if (!sets.every((r) => r !== null)) return null;
  const union = unionOf(sets.filter((r) => r !== null));
  return union === null ? null : residueTexts(union).join(', ');
}

const NUMBER_WORDS = 'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(' ');
const TENS_WORDS = 'twenty thirty forty fifty sixty seventy eighty ninety'.split(' ');

/** Words that multiply what is said before them: "three hundred", "two thousand". */
const SCALE_WORDS: Readonly<Record<string, number>> = { hundred: 100, thousand: 1000, million: 1e6, billion: 1e9 };

/** Denominators in words, singular and plural: "one half", "two thirds" ("quarters" also counts coins: units.ts). */
const DENOMINATOR_WORDS: Readonly<Record<string, number>> = {
  half: 2, halves: 2, third: 3, thirds: 3, fourth: 4, fourths: 4, fifth: 5, fifths: 5,
  sixth: 6, sixths: 6, seventh: 7, sevenths: 7, eighth: 8, eighths: 8, ninth: 9, ninths: 9, tenth: 10, tenths: 10,
};

/** What a word of a number in words is, for the order the words may come in. */
type NumberWord = 'unit' | 'tens' | 'hundred' | 'scale' | 'and';

/** The words that may follow each kind of word ("twenty-one", "three hundred and five"; not "seven four"). */
const MAY_FOLLOW: Readonly<Record<NumberWord | 'start', readonly NumberWord[]>> = {
  start: ['unit', 'tens'],
  unit: ['hundred', 'scale'],
  tens: ['unit', 'hundred', 'scale'],
  hundred: ['unit', 'tens', 'scale', 'and'],
  scale: ['unit', 'tens', 'and'],
  and: ['unit', 'tens'],
};

/** A whole number in words ("three hundred and twelve", "twenty-one", "a million"), or null. */
function wholeInWords(words: readonly string[]): number | null {
  let total = 0;
  let current = 0;
  let last: NumberWord | 'start' = 'start';
  // "a hundred", "a million": "a" is one before a scale.
  const said = words[0] === 'a' && words.length > 1 ? ['one', ...words.slice(1)] : words;
  for (const word of said) {
    const unit = NUMBER_WORDS.indexOf(word);
    const tens = TENS_WORDS.indexOf(word);
    const scale = SCALE_WORDS[word];
    const kind: NumberWord | null = unit >= 0 ? 'unit' : tens >= 0 ? 'tens' : scale === 100 ? 'hundred' : scale !== undefined ? 'scale' : word === 'and' ? 'and' : null;
    if (kind === null || !MAY_FOLLOW[last].includes(kind) || (last === 'tens' && unit === 0)) return null;
    if (kind === 'unit') current += unit;
    else if (kind === 'tens') current += 20 + 10 * tens;
    else if (kind === 'hundred') current *= 100;
    else if (kind === 'scale') {
      total += current * (scale ?? 1);
      current = 0;
    }
    last = kind;
  }
  return last === 'start' || last === 'and' ? null : total + current;
}

/**
 * "twelve", "twenty-one", "three hundred", "exactly three", "exactly 3",
 * "one half", "two thirds": a whole answer that is a number stated in words,
 * as its numeral; null for anything else.
 */
function numberInWords(text: string): string | null {
  const m = /^(?:exactly\s+)?(?:(\d+)|([a-z]+(?:(?:\s+|-)[a-z]+){0,7}))$/i.exec(text.trim());
  if (m === null) return null;
  if (m[1] !== undefined) return m[1];
  const words = (m[2] ?? '').toLowerCase().split(/\s+|-/);
  const denominator = DENOMINATOR_WORDS[words[words.length - 1] ?? ''];
  if (denominator !== undefined && words.length > 1) {
    const numerator = words.length === 2 && words[0] === 'a' ? 1 : wholeInWords(words.slice(0, -1));
    return numerator === null ? null : `\\frac{${numerator}}{${denominator}}`;
  }
  const whole = wholeInWords(words);
  return whole === null ? null : String(whole);
}

/**
 * Words after a list that give the order of its values and no value of their own: "12 and 13, respectively", "1, 2 in
 * that order". Kept, "respectively" was a third item, a word, and the right pair was graded different from (12, 13).
 */
const IN_ORDER = /(?:\s*[,;]?\s*(?:\text\s*\{\s*)?(?:respectively|resp\.?|in\s+(?:that|this|the\s+given)\s+order)\s*\}?\s*\.?)+$/i;

/** `tex` without the words that give its list's order; as it is when no list is left before them. */
function withoutOrderWords(tex: string): string {
  const rest = tex.replace(IN_ORDER, '');
  return rest !== tex && /,|\band\b/.test(rest) ? rest : tex;
}

/** "all n \ge 3", "\text{every } n > 2": a quantifier before a condition on one letter, which says no more than it. */
const ALL_BEFORE_CONDITION = /^\s*(?:\\text\s*\{\s*)?(?:all|every|any)\s*\}?\s+(?=[a-zA-Z]\s*(?:\\(?:le|ge|leq|geq|ne|neq|in)(?![a-zA-Z])|[<>]))/i;

/** Applies the rules above to a cleaned answer. */
export function canonicalWords(cleaned: string): Worded {
  // "all n \ge 3" is "n \ge 3": read as words, the same condition was different from it, sure of it.
  let tex = withoutOrderWords(identically(boundAsDomain(cleaned.replace(ALL_BEFORE_CONDITION, ''))));
  // "2, 4, 6, \dots": the residue class the progression lists (residues.ts).
  const progression = progressionClass(tex);
  if (progression !== null) return { tex: progression, freeText: false, domain: '' };
  // Most answers have no words at all: leave them at once.
  const words = /[a-zA-Z]{2}|\([a-jA-J]\)|^[A-J](?:\s*,\s*[A-J])*$/.test(plain(tex).replace(/\\[a-zA-Z]+/g, '')) || /\\(?:equiv|forall|in|mathbb|begin|n?mid)(?![a-zA-Z])|^[a-zA-Z]\s*=\s*\d+\s*[a-zA-Z]/.test(tex) || FAMILY.test(tex);
  if (!words) return { tex, freeText: false, domain: '' };
  // "\text{twelve}" was a word, different from 12 and sure of it.
  const spelled = numberInWords(plain(tex));
  if (spelled !== null) return { tex: spelled, freeText: false, domain: '' };
  // "twelve (12)", "12 (twelve)": a number in words and in digits that agree is that number; read as text, a right 12 was
  // graded different, sure of it. "twelve (13)" says two numbers, and stays text.
  const twice = /^([^()]+?)\s*\(\s*([^()]+?)\s*\)$/.exec(plain(tex).trim());
  const said = twice === null ? null : numberInWords(twice[1] ?? '');
  if (said !== null && said === numberInWords(twice?.[2] ?? '')) return { tex: said, freeText: false, domain: '' };
  // "Yes, it is possible": the answer is the word; its reason is prose (readings.ts reads "No, there is no such n" too).
  const verdict = YES_OR_NO_FIRST.exec(plain(tex));
  if (verdict !== null) return { tex: `\\text{${verdict[1] ?? ''}}`, freeText: false, domain: '' };
  // "Alice wins", "Bob has a winning strategy": the winner named (winner.ts).
  const winner = namedWinner(plain(tex));
  if (winner !== null) tex = winner;
  // "the minimum is 4 and the maximum is 9": the parts \min = 4, \max = 9 (worded-extremes.ts).
  // "the identity function", "f is identically zero": the formula (function-words.ts).
  const inWords = functionInWords(plain(tex));
  if (inWords !== null) return { tex: inWords, freeText: false, domain: '' };
  const extremes = wordedExtremes(plain(tex));
  if (extremes !== null) return { tex: extremes, freeText: false, domain: '' };
  const cases = caseTexts(plain(tex));
  if (cases !== null) return { tex, freeText: false, domain: '', cases };
  const whole = plain(tex);
  const { text, domain } = withoutQualifiers(parameterRange(whole));
  if (text !== whole) tex = text;
  const named = namedSet(text);
  if (named !== null) return { tex: named, freeText: false, domain };
  const choice = choiceLetters(text);
  if (choice !== null) return { tex: choice, freeText: false, domain };
  // "2k+1 for k \in \mathbb{Z}": the qualifier taken off as a domain is the range that makes the formula a class.
  const residues = residueList(text) ?? (text === whole ? null : residueList(whole));
  if (residues !== null) return { tex: residues, freeText: false, domain };
  // Environment names, blackboard letters and a unit after a number ("12 \text{ square units}") are not prose.
  const counted = tex
    .replace(/\\(?:begin|end|operatorname|mathbb|mathrm|mathcal|mathfrak)\s*\{[^{}]*\}/g, ' ')
    .replace(/(\d\s*)\\text\s*\{[^{}]*\}\s*(?:\^\s*\{?\d\}?)?$/, '$1');
  const value = splitQuantity(counted).tex;
  const prose = (plain(value).replace(/\\[a-zA-Z]+/g, ' ').match(/[a-zA-Z]{3,}/g) ?? []).filter((w) => !NOT_PROSE.test(w));
  const freeText = CONDITION_WORDS.test(text.replace(/\\[a-zA-Z]+/g, ' ')) || prose.length >= 2;
  // "the first player" is "first player": an article is no part of a name in words (winner.ts).
  return { tex: freeText ? withoutLeadingThe(tex) : tex, freeText, domain };
}
