/**
 * Remarks after an unannounced answer. A reply that neither boxes nor
 * announces its answer often ends on the value it states and then a remark
 * that holds other mathematics: "The minimum value is $1$, attained at
 * $x = 0$.", "There are $8$ ways (we counted $4$ for each of $2$ cases).",
 * "The volume is $64$, where the side is $4$.", "The count is $9$. Indeed,
 * $n = 1$ gives $1$." Read as the last math of the paragraph, the remark's
 * value was taken for the answer: a wrong reference 0, 2 or 4 was graded
 * equal, the right one different. The remark is cut before the last math is
 * read; what a clause adds to the answer (a parameter's range, a case, an
 * alternative, a consequence: "so $x = 12$", "giving $2$") is not a remark.
 */
import { mathSegments, type Segment } from './segments.ts';
import { CASE_THEN_ANOTHER } from './joined-values.ts';
import { freeLetters, secondCoordinate } from './settled-value.ts';
import { mathLetters } from '../latex/math-letters.ts';
import { isCaveat, isValueCheck } from './value-check.ts';
import { REJECTS } from './denied.ts';
import { isCaseCheck } from './case-check.ts';
import { NOTATION_NEXT } from './in-notation.ts';

/**
 * ", about $16.7\%$", ", or approximately $1.414$", ", i.e. roughly …": the value again, rounded. Read as the last math,
 * the rounding was the answer (unsure against the exact reference), and in ", about $3$ per case" another value was.
 * A rounding states a value: ", approximately half, and the count is $4$" goes on to the answer (cut there, the 4
 * before it was read, a wrong value graded equal, sure of it).
 */
const APPROXIMATELY = String.raw`(?:(?:or|i\.\s?e\.,?|that\s+is,?)\s+)?(?:about|approximately|approx\.?|roughly|around|nearly|almost)`;

/**
 * Openers of a remark after a value, in its sentence: a reason, where the
 * value is reached, how it was found, an aside in a parenthesis or after a
 * dash, a clause after a semicolon. "where" and "with" open one only when
 * their mathematics names no letter of the value ("where the side is $4$",
 * not "where $k$ is an integer"): see {@link remarkAt}.
 */
const REMARK_AFTER_COMMA = new RegExp(
  String.raw`^\s*[,;，；]\s*(?:${APPROXIMATELY}(?=\s*(?:\$|\\\(|-?\d))|(?:(?:and\s+)?(?:indeed|as\s+a\s+check|checking)|where|with|given(?:\s+that)?|as(?!\s+(?:well|also)\b|\s+(?:is|are|does|do)\s+(?:\$|\\\(|-?\d))|since|because|(?:for|in|at)\s+which|using|obtained|attained|achieved|reached|realized|occurring|` +
    String.raw`which(?!\s+(?:gives?|yields?|equals?|simplifies|reduces|becomes|means|is\s+(?:equal|exactly|\$|\\\(|-?\d)))|` +
    String.raw`and\s+(?:it|this|equality|they)\s+(?:occurs?|holds?|is|are)\b|and\s+(?:is|are)\s+(?:attained|achieved|reached|obtained|realized)|equality\s+(?:holds|occurs)|the\s+\p{L}+\s+being|` +
    // ", not $7$": a value set against the answer (announced answers drop it as well: statement.ts).
    String.raw`not(?=\s*(?:\$|\\\(|-?\d))|when(?:ever)?|whereas|while|` +
    // The same remarks in the languages whose announcements are read: where the value is reached, and why.
    String.raw`atteinte?s?|obtenue?s?|puisque|car|alcanzad[oa]s?|obtenid[oa]s?|que\s+se\s+obtiene|ya\s+que|atingid[oa]s?|obtid[oa]s?|pois|` +
    String.raw`erreicht|angenommen|wobei|weil|raggiunt[oa]|ottenut[oa]|poiché|достигается|достигаемое|при|где|так\s+как|поскольку)(?![\p{L}])|` +
    String.raw`此时|这时|其中|因为|由于|当)`,
  'iu',
);

/** A dash set between spaces, or a semicolon followed by words: an aside or a new clause. */
const ASIDE = /^\s+(?:—|–|--)\s|^\s*;\s*(?![\s*]*(?:\$|\\[([]|and\b|or\b|et\b|ou\b))(?=[\s*]*\p{L})/u;

/**
 * Words that open a parenthesis belonging to the answer: a qualifier or an alternative ("(maybe $13$)": cut as a
 * remark, the hedged answer was graded sure). A restatement
 * ("(i.e. $0.5$)", "(about $1.414$)") is cut as well: the value before it is the answer either way. An exclusion
 * belongs to it when the excluded value follows its words ("(excluding $k = 11$)", exclusion.ts); "(excluding the
 * $2$ degenerate cases)" says in words what was left out, and kept, its 2 was graded as the answer.
 */
const OWN_PARENTHESIS =
  /^[(（]\s*(?:(?:or|perhaps|possibly|maybe|for|where|if|when|whenever|with|mod|provided|unless|\\?pmod|\\bmod)\b|(?:except(?:\s+for)?|excluding|other\s+than|apart\s+from|aside\s+from|save\s+for)\s*(?:\$|\\\())/i;

/** Sentences that check or illustrate the answer given before them: "Indeed, …", "Note: …", "For example, …". */
const REMARK_SENTENCE =
  /^[\s*]*(?:indeed|note|notice|check(?:ing)?|verification|verify(?:ing)?|to\s+verify|as\s+a\s+(?:check|sanity\s+check)|sanity\s+check|for\s+(?:example|instance)|e\.\s?g\.|remark|\(|this\s+(?:is\s+because|works|checks|holds|satisfies|agrees))/i;

/**
 * Sentences that put a value back into the problem: a check of the answer when their mathematics is arithmetic or
 * an equation it checks ("Substituting back, $2(5) - 3 = 7$."), a step to it when they state a new value under a letter
 * ("Substituting $x = 2$ into the second equation gives $y = 5$.": cut as a check, x = 2 was graded, not y).
 */
const SUBSTITUTION = /^[\s*]*(?:plugging|substituting)\b/i;

/** Whether a sentence that substitutes states no value under a letter that the text before it has not stated. */
function onlyChecks(sentence: string, before: string): boolean {
  const stated = new Set(mathSegments(before).map((s) => s.text.replace(/\s+/g, '')));
  const newValue = (tex: string): boolean => /^\s*[a-zA-Z](?:_\{?\w+\}?)?\s*=/.test(tex) && !stated.has(tex.replace(/\s+/g, ''));
  return !mathSegments(sentence).some((s) => newValue(s.text));
}

/** Words after a value that open a check of it: ", and indeed $5^2 = 25$", "; checking, …". */
const CHECK_OPENER = /^\s*[,;，；]\s*(?:and\s+)?(?:indeed|as\s+a\s+check|checking)\b/i;

/**
 * Sentences that leave the question for another: a generalisation ("In general, for $n$ people the count is
 * $n(n-1)$."), or a counterfactual ("If order mattered, it would be $24$.", "Without the restriction there would be
 * $24$."). Read as the last math, their value was the answer: a wrong reference 24 was graded equal, sure of it. A
 * sentence that opens on "If" without "would" or "could" is a case of the answer ("If $n$ is odd, it is $1$.").
 */
const GENERALISATION = /^[\s*(]*(?:in\s+general|more\s+generally|generally|generali[sz]ing|in\s+the\s+general\s+case)\b/i;
const COUNTERFACTUAL = /^[\s*(]*(?:if|without|had|were|otherwise|by\s+contrast)\b[^.!?]*\b(?:would|could)\b/i;

/**
 * Whether `before` ends on small cases that a generalisation after it completes: several values ("We compute
 * $a_1 = 1$, $a_2 = 3$, $a_3 = 7$.") or a case ("For $n = 3$ there are $6$ ways."). There "In general, $a_n = 2^n - 1$."
 * is the answer: cut as an aside, the last case was graded different from the right formula, sure of it.
 */
function endsOnCases(before: string): boolean {
  const trimmed = before.trimEnd();
  const sentence = trimmed.slice(Math.max(0, trimmed.slice(0, -1).search(/[^.!?\n]*$/)));
  return mathSegments(sentence).length >= 2 || /^[\s*]*(?:for|when|if|in\s+the\s+case)\b/i.test(sentence);
}

/**
 * Whether a sentence with "would" is the answer's own case, not a counterfactual: its condition sets a value ("If
 * $a = b = c = 1$, the expression would be $3$", "If we take $a = 1$, we would get exactly $3$."), or it concludes
 * after it ("…, so the minimum is $3$."). Cut as an aside, the equality case's value was lost: different, sure of it.
 */
function isOwnCase(sentence: string): boolean {
  const condition = sentence.slice(0, sentence.search(/\b(?:would|could)\b/i));
  return mathSegments(condition).some((s) => /(?<![<>\\!])=/.test(s.text)) || /\b(?:would|could)\b[^.!?]*\b(?:so|thus|hence|therefore)\b/i.test(sentence);
}

/** Whether `sentence`, after the answer `before` states, leaves the question for a general case or a counterfactual. */
function isAside(sentence: string, before: string): boolean {
  return (COUNTERFACTUAL.test(sentence) && !isOwnCase(sentence)) || (GENERALISATION.test(sentence) && !endsOnCases(before));
}

/** Whether `sentence` checks, illustrates or leaves the answer stated before it in `before`: a remark, not the answer. */
function isRemarkSentence(sentence: string, before: string): boolean {
  // "$5^2 = 25$ works.", "There is one subtlety: $n = 0$.": a check or a caveat after the answer (value-check.ts).
  // "Actually, when $n = 3$ this is easy to verify directly.": a case of it said to check (case-check.ts).
  const checkOrCaveat = isValueCheck(sentence) || isCaveat(sentence) || isCaseCheck(sentence);
  return checkOrCaveat || REMARK_SENTENCE.test(sentence) || (SUBSTITUTION.test(sentence) && onlyChecks(sentence, before)) || isAside(sentence, before);
}

/**
 * Whether a paragraph opens on a generalisation or a counterfactual of the answer in `before`, or is a check of it or
 * a caveat ("Thus $x = 5$.\n\n$5^2 = 25$ works."): an aside after it.
 */
export function isAsideParagraph(paragraph: string, before: string): boolean {
  return isAside(paragraph, before) || isValueCheck(paragraph) || isCaveat(paragraph);
}

/** Where a sentence ends outside mathematics: a line break, or ".", "!", "?" before a space or the end. */
// "i.e. $1$", "e.g. $2$": the period of an abbreviation ends no sentence.
const SENTENCE_END = /\n|(?<!\b(?:i\.e|e\.g))[.!?](?=\s|$)/g;

/** How far before the last math of a paragraph a remark may open: a remark is a clause, not a page. */
const REMARK_REACH = 300;

/** Letters of a text of mathematics, commands aside. */
function letters(math: string): Set<string> {
  return new Set(mathLetters(math));
}

/** Whether `at` lies inside one of `segments` (in order): a binary search, so that a long paragraph costs no more than its length. */
function insideMath(segments: readonly Segment[], at: number): boolean {
  let low = 0;
  let high = segments.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const s = segments[mid];
    if (s === undefined) return false;
    if (at < s.start) high = mid - 1;
    else if (at >= s.end) low = mid + 1;
    else return true;
  }
  return false;
}

/**
 * Whether a remark opens at the start of `rest` (the sentence from there on),
 * after the value whose letters are `named`; `later` is the math of `rest`.
 */
function remarkAt(rest: string, named: ReadonlySet<string>, later: readonly Segment[]): boolean {
  // "$12$; possibly $13$": a hedge after a semicolon offers another value (offered-alternative.ts), it is no aside.
  if (/^\s*;\s*(?:or\s+)?(?:perhaps|possibly|maybe)\b/i.test(rest)) return false;
  if (ASIDE.test(rest)) return true;
  if (/^\s*[(（]/.test(rest)) {
    const open = rest.trimStart();
    const lastMath = open.lastIndexOf('$') + 1;
    const close = open.slice(lastMath).search(/[)）]/);
    const aside = close < 0 ? open : open.slice(0, lastMath + close + 1);
    const words = aside.replace(/\$[^$]*\$/g, ' ').match(/\p{L}{2,}|\p{Script=Han}/gu) ?? [];
    // "(side $4$)", "(we reject $k = -2$)": an aside in words that holds mathematics of its own.
    return !OWN_PARENTHESIS.test(open) && aside.includes('$') && words.some((word) => !/^(?:and|or)$/i.test(word));
  }
  // "$x = -7$ rather than $7$": a value set against the answer.
  if (SET_AGAINST.test(rest)) return true;
  // "$\frac{1}{16}$, or $0.0625$ as a decimal": the value restated, which grade.ts checks (restatement-after.ts).
  if (NOTATION_NEXT.test(rest)) return true;
  // "$x = 5$, and $5^2 = 25$ works.": a clause that checks the value (value-check.ts).
  if (/^\s*[,;]/.test(rest) && isValueCheck(rest)) return true;
  // "the count is $4$ for $n = 3$": the case a constant is reached in; "$f(x) = 0$ for $x < 0$" ranges the value's letter.
  if (/^\s+for\s*(?:\$|\\\()/.test(rest)) return !CASE_THEN_ANOTHER.test(rest) && !later.some((s) => [...letters(s.text)].some((letter) => named.has(letter)));
  const opener = REMARK_AFTER_COMMA.exec(rest);
  if (opener === null) return false;
  // "when" ranges a letter of the value as "where" does ("$f(x) = 0$, when $x < 0$"), or says where it is reached.
  if (!/^\s*[,;]\s*(?:where|with|when(?:ever)?)\b/i.test(opener[0])) return true;
  // "where $k$ is an integer", "with $a > 0$": the range of a letter of the value belongs to it.
  return !later.some((s) => [...letters(s.text)].some((letter) => named.has(letter)));
}

/** The start of the sentence of `text` that goes on at `upTo` (ends inside math do not count). */
function sentenceStartBefore(text: string, segments: readonly Segment[], upTo: number): number {
  let start = 0;
  for (const m of text.slice(0, upTo).matchAll(SENTENCE_END)) {
    if (!insideMath(segments, m.index) && m.index + m[0].length < upTo) start = m.index + m[0].length;
  }
  // "$$\Delta p \Delta x \ge \frac{h}{4\pi}.$$ Dividing …": a display that closes on its full stop ends its sentence.
  for (const s of segments) if (s.end <= upTo && s.end > start && /\.$/.test(s.text) && /^(?:\$\$|\\\[)/.test(text.slice(s.start, s.start + 2))) start = s.end;
  return start;
}

/** `paragraph` without trailing sentences that only check or illustrate the answer stated before them. */
function withoutRemarkSentences(paragraph: string): string {
  let text = paragraph.trimEnd();
  for (let guard = 0; guard < 8; guard += 1) {
    const segments = mathSegments(text);
    const start = sentenceStartBefore(text, segments, text.length);
    if (start === 0 || !isRemarkSentence(text.slice(start), text.slice(0, start)) || !segments.some((s) => s.end <= start)) break;
    text = text.slice(0, start).trimEnd();
  }
  return text;
}

/**
 * Whether the words from a remark's opener to the last math lead on to a value of their own: an aside
 * closed before it ("(since $a=5$), that is $12$"), or a consequence ("where $s = 4$, so $V = 64$").
 */
function leadsOn(words: string): boolean {
  // ", i.e. about $1.414$": the value rounded leads on to nothing of its own.
  if (new RegExp(String.raw`^\s*[,;]\s*${APPROXIMATELY}\s*\$?\s*$`, 'i').test(words)) return false;
  // Inside an aside, "that is" restates the value the aside is about; after a comma it leads on.
  if (/^\s*[(（]/.test(words)) return /[)）]/.test(words);
  // "…, since the equation is symmetric, $x = -1$": a clause in words closed by its comma, the math after it the sentence's own.
  // "…; indeed, $5^2 = 25$": a check closed by its comma leads on to nothing.
  if (/^\s*(?:[,;，；]|(?:because|since)\s)[^$,，]*\p{L}[^$,，]*[,，]\s*$/u.test(words)) return !CHECK_OPENER.test(words);
  return (
    /\b(?:so|thus|hence|therefore|giving|gives|yields?|then|that\s+is|i\.\s?e\.|leaving|leaves)\b|所以|因此|于是/i.test(words) ||
    /\b(?:which\s+(?:is|equals)|namely|equal\s+to)\s*[:,]?\s*(?:\$\s*)?$/i.test(words)
  );
}

/** The text of `text` from `start` to `end` with each of `segments` in it reduced to one "$": its words, and where its math was. */
function wordsBetween(text: string, segments: readonly Segment[], start: number, end: number): string {
  let out = '';
  let at = start;
  for (const s of segments) {
    if (s.start < start || s.end > end) continue;
    out += `${text.slice(at, s.start)}$`;
    at = s.end;
  }
  return out + text.slice(at, end);
}

/**
 * Words with no comma before them that set another value against the answer, say where it is reached ("and it occurs
 * only if $a = 3$": read on, a = 3 was the answer), or why.
 */
const SET_AGAINST = /^\s*(?:rather\s+than|instead\s+of|(?:but|and)\s+not(?=\s*\$)|and\s+(?:is|are)\s+(?:attained|achieved|reached|obtained|realized)|and\s+(?:it|this|equality)\s+(?:occurs|holds)|because|since)\s/i;

/** Where a remark may open: a comma, a semicolon, a parenthesis, a dash between spaces, or {@link SET_AGAINST}. */
const REMARK_START = /[,;(，；（]|\s(?:—|–|--)\s|\s(?=for\s*(?:\$|\\\())|\s(?=(?:rather\s+than|instead\s+of|(?:but|and)\s+not|and\s+(?:is|are)\s+(?:attained|achieved|reached|obtained|realized)|and\s+(?:it|this|equality)\s+(?:occurs|holds)|because|since)\s)/gi;

/**
 * `paragraph` up to the value its last sentence states, when a remark
 * holding other mathematics follows that value: "The minimum value is $1$,
 * attained at $x = 0$." is "The minimum value is $1$.". A paragraph without
 * such a remark is returned as it is.
 */
export function withoutClosingRemarks(paragraph: string): string {
  const text = withoutRemarkSentences(paragraph);
  const segments = mathSegments(text);
  const lastMath = segments[segments.length - 1];
  if (lastMath === undefined) return text;
  const sentenceStart = sentenceStartBefore(text, segments, lastMath.start);
  const from = Math.max(sentenceStart, lastMath.start - REMARK_REACH);
  const near = segments.filter((s) => s.start >= from);
  REMARK_START.lastIndex = from;
  for (let m = REMARK_START.exec(text); m !== null && m.index < lastMath.start; m = REMARK_START.exec(text)) {
    if (insideMath(segments, m.index)) continue;
    const before = near.filter((s) => s.end <= m.index);
    if (before.length === 0) continue;
    // "$a+b=12$, where $a=5$": a value that states a constant leaves no letter for a clause to range (settled-value.ts).
    const named = new Set(before.flatMap((s) => [...freeLetters(s.text)]));
    const later = near.filter((s) => s.start > m.index);
    if (secondCoordinate(text, before[before.length - 1], later[0])) continue;
    // "$n = 12$ is too large; the largest valid $n$ is $11$": a clause that rejects its value ends there, and the clause
    // after the semicolon is the answer, no aside (cut as one, the rejected 12 was graded, sure of it).
    if (/^;/.test(m[0]) && REJECTS.test(text.slice(before[before.length - 1]?.end ?? 0, m.index))) continue;
    // Words with no comma before them open a remark only right after the value: "$4$ for $n = 3$", "$x = 2$ since …".
    // "for $x = 2$ and for $x = 3$" lists where the answer holds; "$x = 2$, and since $x > 0$, $y = 4$" leads on to y.
    if (/^\s$/.test(m[0]) && text.slice(before[before.length - 1]?.end ?? 0, m.index).trim() !== '') continue;
    if (leadsOn(wordsBetween(text, later, m.index, lastMath.start))) continue;
    if (remarkAt(text.slice(m.index, lastMath.end + REMARK_REACH), named, later)) return `${text.slice(0, m.index).trimEnd()}.`;
  }
  return text;
}
