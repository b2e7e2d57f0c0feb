/**
 * Other readings of an answer's text, beside the one the parser gives it.
 * Some spellings mean two things and only the other side can say which:
 * "1000,99" may be a decimal comma; "n = 4k+3" is a residue class and also
 * the formula 4k+3 under a label; a bare "4k+3" is a formula, or the class
 * of numbers of that form; "(C) 12" is the choice C and its value 12; "No,
 * there is no such n" is the no and the empty set; "A(1, 2)" is a point,
 * and "C(5, 2)" a point or a binomial coefficient. A reading that a reader
 * would accept counts as `equal`; one that is a guess can only make a match
 * `unsure`.
 */
import { YES_OR_NO_FIRST } from '../extract/segments.ts';
import { namedSet } from './named-sets.ts';
import { canonicalWords } from './words.ts';
import { parseTop } from './parse.ts';
import type { Answer } from './types.ts';

/** Another way to read an answer, and what a match under it is worth. */
export interface Reading {
  answer: Answer;
  onMatch: 'equal' | 'unsure';
  /** The count 0 that "there are no such n" also states: `equal` where the question asks how many (grade.ts). */
  countOfNone?: true;
}

/** "1000,99" and "0,111": a comma between digits that is not a thousands separator. */
const DECIMAL_COMMA = /^-?(?:0,\d+|\d+,\d{2,})$/;

/** "1,5": one digit after a comma between digits. */
const SHORT_DECIMAL_COMMA = /^-?\d+,\d$/;

/** "n = 4k + 3": a letter named by a multiple of a conventional integer parameter. */
const LABELLED_FORM = /^[a-wA-W]\s*=\s*\d+\s*[jklmt]\s*(?:[+-]\s*\d+)?$/;

/**
 * "(C) 12", "C) 12": a choice letter in parentheses, then the value of that choice. Not a clause after a comma or a
 * semicolon: "(E), though (D) might also work" hedges between two choices, and read as the choice E with a value,
 * it was graded equal to a reference (E), sure of it.
 */
const CHOICE_AND_VALUE = /^\(?([A-J])\)\s*([^\s(,;].*)$/;

/** "4k + 3" alone. */
const BARE_FORM = /^\d+\s*[jklmt]\s*(?:[+-]\s*\d+)?$/;

/** "2^k", "n = 2^{k}": a power of a number with a letter for its exponent, and no range for it. */
const BARE_POWER = /^(?:[a-zA-Z]\s*=\s*)?(\d+)\s*\^\s*\{?\s*[a-zA-Z]\s*\}?$/;

/** "C(5, 2)", "A(1, -2)": a capital letter before numbers in parentheses. */
const NAMED_PAIR = /^([A-Z])\s*\(([^()]*,[^()]*)\)$/;

/**
 * "A(1, -2)" (any capital, numbers only) is the point A at those
 * coordinates; "C(5, 2)" may be that point or the binomial coefficient as
 * combinatorics writes it, which only the question says, so a match under
 * either reading of it is `unsure`. Read as a function's value, each was
 * different from its answer, and sure of it.
 */
function namedPairReadings(cleaned: string): Reading[] {
  const m = NAMED_PAIR.exec(cleaned);
  if (m?.[1] === undefined || m[2] === undefined) return [];
  const args = m[2].split(',').map((arg) => arg.trim());
  const binomial = m[1] === 'C' && args.length === 2;
  const out: Reading[] = [];
  if (binomial) out.push({ answer: parseTop(`\\binom{${args[0] ?? ''}}{${args[1] ?? ''}}`), onMatch: 'unsure' });
  if (!/[a-zA-Z]/.test(m[2].replace(/\\[a-zA-Z]+/g, ''))) out.push({ answer: parseTop(`(${m[2]})`), onMatch: binomial ? 'unsure' : 'equal' });
  return out;
}

/** A subscript or a superscript: "_{6}", "^3". */
const INDEX = String.raw`\s*\{?\s*(\d+)\s*\}?\s*`;

/** "{}^6C_3", "^6C_3", "_6C_3": the count of choices with the number to choose from before the C. */
const PREFIXED_C = new RegExp(String.raw`^(?:\{\s*\})?[\^_]${INDEX}C\s*_${INDEX}$`);

/** "C_6^3", "C^3_6": the count of choices as Chinese texts write it, or a power of a variable C_6. */
const INDEXED_C = new RegExp(String.raw`^C\s*(?:_${INDEX}\^${INDEX}|\^${INDEX}_${INDEX})$`);

/**
 * The binomial coefficient in the notations of other school systems:
 * "{}^6C_3" is \binom{6}{3}; "C_6^3" is too, or a power of C_6, so a match
 * under it is `unsure`.
 */
function combinationReadings(cleaned: string): Reading[] {
  const prefixed = PREFIXED_C.exec(cleaned);
  if (prefixed !== null) return [{ answer: parseTop(`\\binom{${prefixed[1] ?? ''}}{${prefixed[2] ?? ''}}`), onMatch: 'equal' }];
  const indexed = INDEXED_C.exec(cleaned);
  if (indexed === null) return [];
  const [n, k] = indexed[1] !== undefined ? [indexed[1], indexed[2]] : [indexed[4], indexed[3]];
  return [{ answer: parseTop(`\\binom{${n ?? ''}}{${k ?? ''}}`), onMatch: 'unsure' }];
}

/** Words that say no object of a kind exists: "no such $n$", "none", "there are no solutions". */
const NO_OBJECTS = /\b(?:no|none)\b/i;

/** Words that say a value does not exist, which is no count: "DNE", "does not exist", "undefined". */
const NO_VALUE = /\bdne\b|\b(?:does|do)\s+not\s+exist\b|\bundefined\b/i;

/**
 * "There are no such $n$", "none", "No, there is no such n": the empty set,
 * and also the count 0, which is the answer when the question asks how many.
 * Which of the two the question asks only it says, so a match as the count
 * is `unsure` here; with a question that asks how many, grade.ts makes it
 * `equal`. "DNE" and "does not exist" say a value (a limit) is missing, and
 * count nothing: against 0 they stay different.
 */
function countOfNone(cleaned: string, readings: readonly Answer[]): Reading[] {
  const empty = readings.some((r) => r.kind === 'set' && r.items.length === 0);
  if (!empty || !NO_OBJECTS.test(cleaned) || NO_VALUE.test(cleaned)) return [];
  return [{ answer: parseTop('0'), onMatch: 'unsure', countOfNone: true }];
}

/** A whole answer that says a value does not exist: "DNE", "does not exist" (named-sets.ts spells it `\text{DNE}`). */
const MISSING_VALUE = /^\s*(?:\\text\s*\{\s*)?(?:dne|does\s+not\s+exist)\s*\}?\s*\.?\s*$/i;

/**
 * "DNE" against the empty set: a value that does not exist (a limit) or a set of solutions with nothing in it
 * ("find all n"); the words say the first, a reply may mean the second. Which the question asked a reader decides.
 */
function missingValueAsEmptySet(cleaned: string): Reading[] {
  return MISSING_VALUE.test(cleaned) ? [{ answer: parseTop('\\emptyset'), onMatch: 'unsure' }] : [];
}

/**
 * The readings of `cleaned` other than `answer`, its parsed reading. "1,2"
 * is a list, and the decimal 1.2 only as a guess: one digit after the comma
 * is too likely a list.
 */
export function otherReadings(cleaned: string, answer: Answer): Reading[] {
  const out: Reading[] = [];
  if (DECIMAL_COMMA.test(cleaned)) out.push({ answer: parseTop(cleaned.replace(',', '.')), onMatch: 'equal' });
  // "1,5": a list, or one and a half as French, German or Russian write it; a match as the decimal is a guess.
  else if (SHORT_DECIMAL_COMMA.test(cleaned)) out.push({ answer: parseTop(cleaned.replace(',', '.')), onMatch: 'unsure' });
  // "(C) 12", "\textbf{(C)}\ 12": the choice, and the value it stands for.
  const choice = CHOICE_AND_VALUE.exec(cleaned.replace(/\\text\s*\{([^{}]*)\}/g, ' $1 ').trim());
  if (choice?.[1] !== undefined && choice[2] !== undefined) {
    const value = canonicalWords(choice[2]);
    out.push({ answer: parseTop(canonicalWords(`(${choice[1]})`).tex), onMatch: 'equal' });
    if (!value.freeText && value.cases === undefined) out.push({ answer: parseTop(value.tex), onMatch: 'equal' });
  }
  // "No, there is no such n": the no, and the empty set its reason names.
  const verdict = YES_OR_NO_FIRST.exec(cleaned);
  const reason = verdict === null ? null : namedSet(cleaned.slice(verdict[0].length).replace(/\\text\s*\{([^{}]*)\}/g, '$1').trim());
  if (reason !== null) out.push({ answer: parseTop(reason), onMatch: 'equal' });
  out.push(...namedPairReadings(cleaned), ...combinationReadings(cleaned), ...missingValueAsEmptySet(cleaned), ...countOfNone(cleaned, [answer, ...out.map((r) => r.answer)]));
  const residue = answer.kind === 'text' && answer.text.startsWith('residue_');
  const residueList = answer.kind === 'list' && answer.items.every((item) => item.kind === 'text' && item.text.startsWith('residue_'));
  // "m = 2k - 1" states the formula 2k - 1 as much as the odd numbers.
  if ((residue || residueList) && LABELLED_FORM.test(cleaned)) out.push({ answer: parseTop(cleaned), onMatch: 'equal' });
  // "n = 2^k" may be all powers of 2, or a value in a k of the question's, whose range it does not say: a guess.
  const power = BARE_POWER.exec(cleaned);
  if (power !== null) out.push({ answer: parseTop(canonicalWords(`all powers of ${power[1] ?? ''}`).tex), onMatch: 'unsure' });
  // "2k - 1" may be the odd numbers, or a value in a k of the question's: a guess.
  if (BARE_FORM.test(cleaned)) {
    const worded = canonicalWords(`n = ${cleaned}`);
    const asClass = parseTop(worded.tex);
    if (!worded.freeText && asClass.kind !== 'expr' && asClass.kind !== 'relation') out.push({ answer: asClass, onMatch: 'unsure' });
  }
  return out;
}
