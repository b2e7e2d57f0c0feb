/**
 * What a question declares its letters to be: "Let $n$ be a positive
 * integer", "for real $x$", "$k$ is a real number", "$x, y \in \mathbb{R}$".
 * The comparison sweeps formulas with a floor or a ceiling over the integers
 * where their letters are integers (expr-equal.ts): by convention n, m, k, j,
 * i and N, and any letter the question declares an integer, but never one it
 * declares real, rational or complex, however it is named.
 */

/** Letters conventionally an integer in a formula with a floor or a ceiling: n, m, k, j, i, N (compiled: "v_n"). */
const INTEGER_LETTER = /^v_[nmkjiN]$/;

/**
 * Whether the compiled variable `name` ("v_n") is an integer: a letter the question declares one, or one
 * conventionally so that it does not declare real, rational or complex ("for real $k$").
 */
export function isIntegerLetter(name: string, declared: DeclaredLetters): boolean {
  const letter = name.startsWith('v_') ? name.slice(2) : name;
  if (declared.real.has(letter)) return false;
  return INTEGER_LETTER.test(name) || declared.integer.has(letter);
}

/** Letters declared integers and letters declared otherwise (real, rational, complex). */
export interface DeclaredLetters {
  integer: ReadonlySet<string>;
  real: ReadonlySet<string>;
}

export const NONE_DECLARED: DeclaredLetters = { integer: new Set(), real: new Set() };

/** Only the start of a longer question is read: declarations come first, and the work stays bounded. */
const MOST_READ = 8_000;

/**
 * One letter, maybe in its own math ("$x$"), not the start of a word, a command's name, a function ("f(x)"), nor
 * the base of a power or a subscript ("an integer $x^2 + y$" says nothing of x).
 */
const LETTER = String.raw`\$?\s*[a-zA-Z](?![a-zA-Z(^_])\s*\$?`;
/** Letters listed: "$x, y$", "$a$, $b$ and $c$", "x and y". */
const LETTERS = String.raw`${LETTER}(?:\s*(?:,|\band\b|,\s*and\b)\s*${LETTER}){0,5}`;
const ADJECTIVES = String.raw`(?:(?:positive|negative|nonnegative|non-negative|nonzero|non-zero|fixed|given|arbitrary|distinct|odd|even)\s+){0,3}`;
const KIND = String.raw`(integers?|natural\s+numbers?|primes?|prime\s+numbers?|reals?|real\s+numbers?|rationals?|rational\s+numbers?|complex\s+numbers?)`;

/** "positive integer $n$", "for real $x$", "real numbers $a, b$": the kind, then its letters. */
const KIND_THEN_LETTERS = new RegExp(String.raw`\b${ADJECTIVES}${KIND}\s+(${LETTERS})`, 'gi');
/** "$k$ is a real number", "$x, y$ are integers", "Let $n$ be a positive integer". */
const LETTERS_THEN_KIND = new RegExp(String.raw`(?<![a-zA-Z\\])(${LETTERS})\s+(?:is|are|be)\s+(?:(?:a|an|any|some|two|three)\s+)?${ADJECTIVES}${KIND}`, 'gi');
/** "x, y \in \mathbb{R}", "n \in \mathbb{Z}_{>0}". */
const LETTERS_IN_SET = /(?<![a-zA-Z\\])([a-zA-Z](?:\s*,\s*[a-zA-Z]){0,8})\s*\\in\s*\\mathbb\s*\{?\s*([RQCZN])/g;

/**
 * Whether a match at `index` starts a formula or stands in prose: "$2x$ is an integer", "$x + y \in \mathbb{Z}$"
 * say what a formula is, not its letter (inside a formula, only a letter right after its opening "$" is declared).
 */
function standsAlone(text: string, index: number, match: string): boolean {
  if (match.startsWith('$')) return true;
  const before = text.slice(0, index);
  const insideMath = (before.replace(/\\\$/g, '').match(/\$/g) ?? []).length % 2 === 1;
  return !insideMath || /\$\s*$/.test(before);
}

/** Whether a kind's name or a set's letter is of the integers. */
function isIntegerKind(kind: string): boolean {
  return /^(?:integer|natural|prime|[ZN]$)/i.test(kind);
}

/** The letters of a matched list, in order. */
function lettersOf(list: string): string[] {
  return list.replace(/\$/g, ' ').replace(/\band\b/g, ',').split(',').map((s) => s.trim()).filter((s) => /^[a-zA-Z]$/.test(s));
}

/**
 * The letters a question declares integers, and those it declares real,
 * rational or complex; a letter declared both ways counts as real, so a
 * formula in it is never swept over the integers alone.
 */
export function declaredLetters(question: string | undefined): DeclaredLetters {
  if (question === undefined || question === '') return NONE_DECLARED;
  const text = question.slice(0, MOST_READ);
  const integer = new Set<string>();
  const real = new Set<string>();
  const declare = (list: string, kind: string): void => {
    for (const letter of lettersOf(list)) (isIntegerKind(kind.trim()) ? integer : real).add(letter);
  };
  for (const m of text.matchAll(KIND_THEN_LETTERS)) declare(m[2] ?? '', m[1] ?? '');
  for (const m of text.matchAll(LETTERS_THEN_KIND)) if (standsAlone(text, m.index, m[0])) declare(m[1] ?? '', m[2] ?? '');
  for (const m of text.matchAll(LETTERS_IN_SET)) if (standsAlone(text, m.index, m[0])) declare(m[1] ?? '', m[2] ?? '');
  for (const letter of real) integer.delete(letter);
  return { integer, real };
}
