/**
 * The grader's entry points: `gradeAnswer` and `normalizeAnswer`. Both are
 * total (never throw) because they run on whatever a model produced, and
 * cache parsed answers because voting grades the same strings many times.
 */
import { askedForm } from './asked-form.ts';
import { asksForPercent, numberOfPercent } from './asked-percent.ts';
import { namedValuesOf } from './named-values.ts';
import { remember } from './math/bounded.ts';
import { cleanLatex } from './extract/clean.ts';
import { AnswerComparer } from './compare/compare.ts';
import { textKey } from './compare/text-key.ts';
import { endsInOpenBox, lastBoxInsideValue } from './extract/boxes.ts';
import { afterReasoning, finalAnswers } from './extract/extract.ts';
import { reopensAnswer } from './extract/reopened-answer.ts';
import { restatementAfterAnswer } from './extract/restatement-after.ts';
import { alternativeAfterLastBox } from './extract/offered-alternative.ts';
import { askedAnswer, asksHowMany } from './asked-answer.ts';
import { formKey } from './compare/form-key.ts';
import { countAndList } from './extract/count-and-list.ts';
import { familyVerdict } from './compare/tuple-families.ts';
import { renamedParameterVerdict } from './compare/renamed-parameter.ts';
import { mathSegments } from './extract/segments.ts';
import { mathLetters } from './latex/math-letters.ts';
import { declaredLetters } from './math/declared-letters.ts';
import { digitsWithBaseLeftOff, otherBaseThanAsked } from './compare/numeral-base.ts';
import { parseTop } from './parse/parse.ts';
import { otherReadings, type Reading } from './parse/readings.ts';
import { printAnswer } from './compare/print.ts';
import { restatedQuantity } from './extract/restated-quantity.ts';
import { toDecimal } from './math/decimals.ts';
import { canonicalWords, type Worded } from './parse/words.ts';
import { resolveOptions, type Answer, type Grade, type GradeContext, type GradeOptions, type Verdict } from './parse/types.ts';

/** Longer inputs are compared as cleaned text only, to bound the work per call. */
const MAX_PARSED_LENGTH = 4000;

interface Prepared {
  cleaned: string;
  answer: Answer;
  /** Other ways to read the same text ("1,22" with a decimal comma, "n = 2k+1" as a formula): readings.ts. */
  readings: Reading[];
  /** The restriction a removed "for all ..." stated ("odd prime"); '' for none. */
  domain: string;
  printed: string;
}

const prepared = new Map<string, Prepared>();

/** The parsed answer: its cases, its words as free text, or its parsed mathematics. */
function toAnswer(worded: Worded): Answer {
  if (worded.cases !== undefined) {
    return { kind: 'cases', label: worded.cases.label, items: worded.cases.items.map((c) => ({ when: c.when, value: parseTop(c.value) })) };
  }
  if (worded.freeText) return { kind: 'text', text: worded.tex.replace(/\\text\{([^{}]*)\}/g, '$1').replace(/\s+/g, ' ').trim() };
  return parseTop(worded.tex);
}

function prepare(raw: string): Prepared {
  const hit = prepared.get(raw);
  if (hit !== undefined) return hit;
  const restated = restatedPrepared(raw);
  if (restated !== null) return remember(prepared, raw, restated);
  const cleaned = cleanLatex(raw.length > MAX_PARSED_LENGTH * 4 ? raw.slice(-MAX_PARSED_LENGTH * 4) : raw);
  let answer: Answer;
  let readings: Reading[] = [];
  let printed: string;
  let domain = '';
  try {
    if (cleaned.length > MAX_PARSED_LENGTH) throw new RangeError('answer too long to parse');
    const worded = canonicalWords(cleaned);
    domain = worded.domain;
    answer = toAnswer(worded);
    readings = otherReadings(cleaned, answer);
    printed = printAnswer(answer);
  } catch {
    answer = { kind: 'text', text: cleaned };
    printed = cleaned;
  }
  const result: Prepared = { cleaned, answer, readings, domain, printed };
  return remember(prepared, raw, result);
}

/**
 * "7 hours, i.e., 420 minutes": the first quantity, with the restatement as a reading a reader accepts, where the two
 * are one quantity (restated-quantity.ts); null for any other answer, or two quantities that differ.
 */
function restatedPrepared(raw: string): Prepared | null {
  const restated = raw.length > MAX_PARSED_LENGTH ? null : restatedQuantity(cleanLatex(raw));
  if (restated === null || gradeAnswer(restated.second, restated.first).verdict !== 'equal') return null;
  const [first, second] = [prepare(restated.first), prepare(restated.second)];
  return { ...first, readings: [...first.readings, { answer: second.answer, onMatch: 'equal' }, ...second.readings] };
}

/**
 * Canonical printable form of an answer: two answers that grade equal usually
 * normalise to the same string (numbers by value, sets sorted, "x = 5" as "5",
 * units dropped, percent kept as "%"). Usually, not always, so a majority vote
 * compares answers with gradeAnswer (src/observers/answer-classes.ts), not by it.
 *
 * @example normalizeAnswer('\\dfrac{2}{4}') // '0.5'
 */
export function normalizeAnswer(answer: string): string {
  try {
    return prepare(answer).printed;
  } catch {
    return answer.trim();
  }
}

/**
 * Decides whether a predicted final answer (already extracted) is equivalent
 * to the reference. Never throws; a null or empty prediction is never equal.
 * `verdict` is `unsure` when either side could not be parsed or compared with
 * confidence; `equal` is true only for `equal`. With a `context`, what only a
 * reader can decide is `unsure` too: a match in value where the question asks
 * for a form the prediction is not written in, and a response that gives
 * several different final answers.
 *
 * @example gradeAnswer('0.5', '\\frac{1}{2}').verdict // 'equal'
 */
export function gradeAnswer(pred: string | null, gold: string, options?: GradeOptions, context?: GradeContext): Grade {
  const g = safePrepare(gold);
  if (pred === null) return { equal: false, verdict: 'different', pred: '', gold: g.printed, answer: null };
  // The response's answer to its question: the clause or the count it asks for (asked-answer.ts).
  const answer = askedAnswer(pred, context) ?? pred;
  const p = percentAsked(g, safePrepare(answer), context?.question, options);
  const graded =
    countOrListUnasked(pred, gold, options, context) ?? inContext(compareBoth(g, p, options, asksHowMany(context?.question), context?.question), g, p, options, context);
  const verdict = graded === 'different' && isOneNamedValue(g, answer, context, options) ? 'unsure' : graded;
  return { equal: verdict === 'equal', verdict, pred: p.printed, gold: g.printed, answer };
}

/**
 * Whether the reference is one of several values the reply gives under their names ("the minimum is $3$ and the
 * maximum is $8$" against 8): which of them the reference names only a reader can tell (named-values.ts).
 */
function isOneNamedValue(g: Prepared, answer: string, context: GradeContext | undefined, options: GradeOptions | undefined): boolean {
  const values = namedValuesOf(answer, context);
  return values !== null && values.some((value) => compareBoth(g, safePrepare(value), options) === 'equal');
}

/**
 * "25\%" where the question asks "What percent …?" and the reference is the number of percent, 25: that number (asked-percent.ts).
 * Read as the value 0.25, or as a guess at 25, the right answer was unsure.
 */
function percentAsked(g: Prepared, p: Prepared, question: string | undefined, options: GradeOptions | undefined): Prepared {
  const number = numberOfPercent(p.cleaned);
  if (number === null || !asksForPercent(question) || numberOfPercent(g.cleaned) !== null) return p;
  // Only the number the reference is: "25\%" against a reference 0.25 is its value, equal as it was.
  const asNumber = safePrepare(number);
  return compareBoth(g, asNumber, options) === 'equal' ? asNumber : p;
}

/**
 * A response whose last sentence gives a count and then its list ("There are $3$ such $n$: $1, 2, 5$."), graded
 * without its question (with one, asked-answer.ts takes the count or the list it asks for): `unsure` where only the
 * count meets the reference (which was asked, a reader decides); null otherwise.
 */
function countOrListUnasked(pred: string, gold: string, options: GradeOptions | undefined, context: GradeContext | undefined): Verdict | null {
  if (context?.response === undefined || context.question !== undefined) return null;
  const found = countAndList(afterReasoning(context.response));
  if (found === null || found.list.replace(/\s+/g, '') !== pred.replace(/\s+/g, '')) return null;
  if (gradeAnswer(pred, gold, options).verdict !== 'different' || gradeAnswer(found.count, gold, options).verdict !== 'equal') return null;
  return 'unsure';
}

/** The verdict once the question and the response are read: `unsure` where the values cannot settle it. */
function inContext(verdict: Verdict, g: Prepared, p: Prepared, options: GradeOptions | undefined, context: GradeContext | undefined): Verdict {
  if (context?.response !== undefined && givesSeveralAnswers(context.response, options)) return 'unsure';
  // A reply cut at the window inside its box ("\boxed{12": 12 may be the start of 120), or a box
  // that is only part of the value written around it ("$-\boxed{5}$", "$\boxed{5}\sqrt{2}$").
  const final = context?.response === undefined ? '' : afterReasoning(context.response);
  if (endsInOpenBox(final) || lastBoxInsideValue(final)) return 'unsure';
  // "$\boxed{12}$, or perhaps $13$": a hedge between the box and another value (offered-alternative.ts).
  if (alternativeAfterLastBox(final, (offered, box) => restatesValue(offered, box, options))) return 'unsure';
  // "So $\boxed{12}$. Wait, I made an error: the count is 14.": the answer given is not the last word.
  if (context?.response !== undefined && reopensAnswer(context.response)) return 'unsure';
  // "$\frac{1}{4}$, which is $20\%$": an answer restated as another value contradicts itself (restatement-after.ts).
  const restated = verdict === 'equal' ? restatementAfterAnswer(final) : null;
  // Checked against the answer as the reply writes it too: "$\frac{1}{16}$, or $0.06$ as a decimal" rounds 1/16, not 0.0625.
  if (restated !== null && !restatesValue(restated, g.cleaned, options) && !restatesValue(restated, p.cleaned, options)) return 'unsure';
  const asked = context?.question === undefined ? null : askedForm(context.question);
  if (verdict === 'equal' && asked !== null && !sameForm(g, p)) return 'unsure';
  return verdict;
}

/**
 * Whether `offered`, written after an answer, restates `value`: the same value, or a decimal that is it rounded at its
 * last written digit ("$\\frac{4}{9}$, which is $0.4444$"; the decimal policy grades that pair unsure, and read as
 * a second value it made a right answer unsure).
 */
function restatesValue(offered: string, value: string, options: GradeOptions | undefined): boolean {
  const verdict = gradeAnswer(offered, value, options).verdict;
  return verdict === 'equal' || (verdict === 'unsure' && toDecimal(cleanLatex(offered)) !== null);
}

/** More than one final answer, and not all the same value. */
function severalAnswers(answers: readonly string[], options: GradeOptions | undefined): boolean {
  const [first, ...rest] = answers;
  return first !== undefined && rest.some((answer) => gradeAnswer(answer, first, options).verdict !== 'equal');
}

/**
 * Whether a response gives several final answers that are not all the same
 * value ("(a) \boxed{No} … (c) \boxed{Yes}", or a box and then another):
 * its extracted answer, the last, does not say which one answers.
 */
export function givesSeveralAnswers(response: string, options?: GradeOptions): boolean {
  try {
    return severalAnswers(finalAnswers(response), options);
  } catch {
    // A response the extraction cannot walk states no answer of its own here.
    return false;
  }
}

/** Whether the prediction is written in the reference's form (form-key.ts), in any reading of either. */
function sameForm(g: Prepared, p: Prepared): boolean {
  const keys = (side: Prepared): string[] => [side.answer, ...side.readings.map((r) => r.answer)].map(formKey);
  try {
    const golds = keys(g);
    return keys(p).some((key) => golds.includes(key));
  } catch {
    // Too deep to walk: nothing shows the forms are the same.
    return false;
  }
}

/**
 * The letters a question's mathematics names: constants of its problem ("Let $a$ and $b$ be …"), no reply's to rename;
 * undefined without a question, where no letter is known to be free.
 */
function questionLetters(question: string | undefined): ReadonlySet<string> | undefined {
  return question === undefined ? undefined : new Set(mathSegments(question).flatMap((s) => mathLetters(s.text)));
}

/** How deep a rule may grade a pair it made from another (a renamed letter, a family's member) before it is `unsure`. */
const MAX_NESTED_GRADES = 8;
let nestedGrades = 0;

/**
 * `grade` run as a rule's grading of a pair it made: a rule whose pair comes out as it went in would grade it again
 * without end (renamed-parameter.ts once did, on words of \text{}), and the depth is bounded for every rule alike.
 */
function nestedGrade(grade: () => Verdict): Verdict {
  if (nestedGrades >= MAX_NESTED_GRADES) return 'unsure';
  nestedGrades++;
  try {
    return grade();
  } finally {
    nestedGrades--;
  }
}

/** The two sides compared as values, and as what the question (when known) says of its letters. */
function compareBoth(g: Prepared, p: Prepared, options: GradeOptions | undefined, howMany = false, question?: string): Verdict {
  // Nothing to compare against: a missing reference is no reason to call an answer wrong.
  if (g.cleaned === '') return 'unsure';
  if (p.cleaned === '') return 'different';
  const given = questionLetters(question);
  // "for real $x$": a letter the question declares is not taken for what its name suggests (declared-letters.ts).
  const comparer = new AnswerComparer(resolveOptions(options, declaredLetters(question)));
  const graded = (gold: string, pred: string): Verdict => nestedGrade(() => gradeAnswer(pred, gold, options).verdict);
  // "\{(x,y): x = y\}" against "\{(t, t) : t \in \mathbb{R}\}" or "(x, x)": one family of tuples (tuple-families.ts).
  const family = familyVerdict(g.cleaned, p.cleaned, graded, given);
  if (family !== null) return family;
  // "52" against "52_8": the numeral asked for, its base left off (numeral-base.ts).
  if (digitsWithBaseLeftOff(g.cleaned, p.cleaned)) return 'equal';
  const verdict = compareReadings(g, p, comparer, howMany);
  // "$x = 2n\pi$" against "$x = 2k\pi$": an integer parameter named as the reply likes (renamed-parameter.ts).
  return verdict === 'equal' ? verdict : renamedParameterVerdict(g.cleaned, p.cleaned, graded, given) ?? verdict;
}

/** The verdict of the two sides' readings: equal where a reading of each agrees (asked-answer.ts for the count of none). */
function compareReadings(g: Prepared, p: Prepared, comparer: AnswerComparer, howMany: boolean): Verdict {
  try {
    // "There are no such n" is the count 0 where the question asks how many (readings.ts).
    const asked = (r: Reading): Reading => (r.countOfNone === true && howMany ? { ...r, onMatch: 'equal' } : r);
    const readings = (side: Prepared): Reading[] => [{ answer: side.answer, onMatch: 'equal' }, ...side.readings.map(asked)];
    let guessed = false;
    for (const ga of readings(g)) {
      for (const pa of readings(p)) {
        // Two guesses ("2k+3" and "2k+1" both as classes) prove nothing: bare formulas compare as formulas.
        if ((ga.onMatch === 'unsure' && pa.onMatch === 'unsure') || !comparer.equal(ga.answer, pa.answer)) continue;
        if (ga.onMatch === 'unsure' || pa.onMatch === 'unsure') guessed = true;
        // "2 for all odd primes p" against "2 for all primes p": the values agree, the claims do not.
        // "54" against "204_5": the value, where the reference's base says the question asked for that base.
        else return (g.domain !== '' && p.domain !== '' && g.domain !== p.domain) || otherBaseThanAsked(g.cleaned, p.cleaned) ? 'unsure' : 'equal';
      }
    }
    return comparer.unsure || guessed ? 'unsure' : 'different';
  } catch {
    // Pathological input (deep nesting, huge numbers): only the same text is sure.
    return textKey(g.answer) === textKey(p.answer) ? 'equal' : 'unsure';
  }
}

function safePrepare(raw: string): Prepared {
  try {
    return prepare(raw);
  } catch {
    const text = String(raw);
    return { cleaned: text, answer: { kind: 'text', text }, readings: [], domain: '', printed: text };
  }
}
