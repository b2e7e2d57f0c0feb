/**
 * The statement after an answer marker ("The final answer is: …"), reduced to
 * its answer. An answer set in mathematics may take several math segments
 * ("$a=s+t$, $b=s-t$", "$g(x)=ax^2$ for some $a>0$"): the answer is the run of
 * segments that only separators join, with a qualifying clause that ends the
 * sentence; a reason after it ("since …", "which …") is not the answer. A
 * list or a table right after the marker gives one answer per item or row.
 */
import { withoutClosingRemarks } from './remarks.ts';
import { IN_NOTATION_AFTER, NOTATION_NEXT } from './in-notation.ts';
import { restatedQuantity } from './restated-quantity.ts';
import { REJECTED_OTHER } from './denied.ts';
import { settlingClause } from './settled-value.ts';
import { exclusionAtEnd } from './exclusion.ts';
import { LONE_SYMBOL, mathSegments, proseWordCount, reduceProse, type Segment } from './segments.ts';
import { CASE_THEN_ANOTHER, JOINER } from './joined-values.ts';

/** How far after a marker its statement is looked for: a statement is one sentence. */
const STATEMENT_WINDOW = 2000;

/**
 * A clause that narrows the answer before it and belongs to it: a parameter's
 * range ("for some $a>0$", "where $k$ is an integer"), a domain ("for all
 * $x$"), a case ("if $n$ is odd"; for {@link CASE_THEN_ANOTHER}), an exception or a proviso ("unless $n = 1$",
 * "provided $y = 3$"). The grader reads these by its own rules.
 */
const QUALIFIER = /^[\s*]*,?\s*(?:for\s+(?:some|all|every|any|each)|where|with|whenever|when|if|provided|unless|as\s+long\s+as|only\s+if|except\s+(?:when|if))\b/i;


/**
 * Words that offer another value after the answer: "or possibly $13$", "(perhaps $13$)",
 * "for $n \ge 3$, or $0$ otherwise", "though it could be $13$", "although $13$ also seems plausible": right after it, or
 * after a comma, a parenthesis or a dash close by ("$12$ — or $13$ if we include zero"; without the dash, 12 was graded
 * equal to a reference 12, sure of it).
 * "or approximately $0.866$", "(or equivalently $\frac{24}{2}$)" restate the answer rather than
 * offer another: read as an alternative, a right \frac{\sqrt3}{2} was graded different, sure of it.
 */
export const ALTERNATIVE = new RegExp(
  String.raw`^(?:[\s(*—–]*|[^.\n]{0,40}?[,;(—–]\s*)(?:or(?![\s,]*(?:equivalently|approximately|approx\b|about|roughly|around|nearly|almost|in\s+decimal|as\s+a\s+decimal|\$?\s*\\approx|≈)|\s*${IN_NOTATION_AFTER})|perhaps|possibly|maybe|(?:though|although|but)\s+it\s+(?:could|might|may)\s+(?:also\s+)?be|(?:though|although|but)(?=\s+(?:\$[^$\n]{1,40}\$|\d[\d.,]*)\s+(?:also\s+|too\s+)?(?:seems|looks|might|could|may|would|is\s+(?:also|possible|plausible)|remains\s+possible)\b))\b[^.\n]*?(?:\$|\\[([]|\d)`,
  'i',
);

/**
 * Words after the answer that give another value in the other case: "12 (if rotations count as distinct; otherwise 3)",
 * "$12$, or else $3$ if …", "$12$; if not, $3$". Reduced to its first value, 12 was graded equal to a reference 12, sure
 * of it, where the reply left the case to the reader. "since otherwise two of the $3$ sides coincide" gives a reason; "(not … otherwise …)" sets another answer aside.
 */
/**
 * Words after a value that make it a bound: "12 or more", "$12$ or fewer", "12 or so", "12+". Reduced to its number,
 * "The answer: 12 or more." was graded equal to a reference 12, sure of it. "so", "up", "above" end their clause:
 * "12 and up to symmetry …", "12 or so I believe" bound nothing.
 */
export const BOUND_AFTER = /^(?:\+(?=\s*(?:$|[.,;:!)]))|\s*or\s+(?:(?:more|less)(?!\s+(?:precisely|exactly|simply|accurately|formally|concisely|compactly|explicitly|generally))|fewer|greater|higher|lower|larger|smaller|above|below)\b|\s*(?:or\s+(?:so|thereabouts)|(?:and|or)\s+(?:up|above|over|beyond))(?=\s*(?:$|[.,;:!)])))/i;

export const OTHERWISE_ANOTHER =
  /^(?![\s(]*not\b)[^.\n]{0,120}?(?<!\b(?:since|as|because|for|or)\s+)\b(?:otherwise|else|if\s+not)\b\s*,?\s*(?:(?:it|this|that|the\s+(?:answer|count|number|result|total|value))\s+(?:is|would\s+be|becomes)\s+)?(?:\$|\\[([]|-?\d)/i;

/** Words after the answer that add another value to it: "; moreover $x = 2$ …", ", and also $x = 2$ works". */
const ADDS_ANOTHER = /^[\s*]*[,;]\s*(?:moreover|furthermore|additionally|in\s+addition|and\s+also|also)\b[^.\n]*?(?:\$|\\[([]|\d)/i;

/** Longest qualifying clause kept: a longer one is a sentence of its own that never ends. */
const QUALIFIER_LENGTH = 160;

/**
 * A sentence ends at a line break, a period followed by a space or the end, or "。"; a period before the bold that
 * closes it ("**The answer is $x = 1$, $y = 2$.**") too: read on past it, the sentence kept only $x = 1$.
 */
const SENTENCE_END = /\n|(?<!\b(?:i\.e|e\.g))\.(?=(?:\*\*|__)?(?:\s|$))|。/g;

/** Where the sentence that goes on at `from` ends, skipping ends inside math segments. */
function sentenceEnd(text: string, from: number, segments: readonly Segment[]): number {
  SENTENCE_END.lastIndex = from;
  for (let m = SENTENCE_END.exec(text); m !== null; m = SENTENCE_END.exec(text)) {
    const inside = segments.find((s) => s.start <= m.index && m.index < s.end);
    if (inside === undefined) return m.index;
    SENTENCE_END.lastIndex = inside.end;
  }
  return text.length;
}

/** `text` from `start` to `end` with each math segment in it replaced by its content. */
function withoutDelimiters(text: string, start: number, end: number, segments: readonly Segment[]): string {
  let out = '';
  let at = start;
  for (const s of segments) {
    if (s.start < start || s.end > end) continue;
    // Between segments, "ou" and "或" are read as "or", and "et" and "和" as "and"; inside them, letters stay.
    out += (at > start ? inEnglish(text.slice(at, s.start)) : text.slice(at, s.start)) + s.text;
    at = s.end;
  }
  return (out + text.slice(at, end)).replace(/\*\*/g, '').replace(/\s+/g, ' ').trim();
}

/** A gap between two segments with its "and" or "or" in English. */
function inEnglish(gap: string): string {
  // "as well as", "together with": read by JOINER as "and", they are "and" to the parser too.
  return gap.replace(ADDITIVE_JOINER, ' and ').replace(FOREIGN_JOINER, (_, spaced: string | undefined, han: string | undefined) => {
    const word = spaced ?? han ?? '';
    return ` ${JOINER_WORDS[word.toLowerCase()] ?? word} `;
  });
}

const ADDITIVE_JOINER = /\b(?:as\s+well\s+as|and\s+also|but\s+also|(?:together|along)\s+with)\b/gi;

/** "$n=2$ 或 $n=3$", "$x = 3$ ou $x = 5$": "and" and "or" in the other languages read, between segments. */
const FOREIGN_JOINER = /(?<=^|\s)(et|ou|und|oder|y|o|или|и|或|和|与|及)(?=\s|$)|(或|和|与|及)/gi;
const JOINER_WORDS: Readonly<Record<string, string>> = { et: 'and', ou: 'or', und: 'and', oder: 'or', y: 'and', o: 'or', или: 'or', и: 'and', 或: 'or', 和: 'and', 与: 'and', 及: 'and' };

/**
 * What may follow an answer to the end of its sentence: nothing, or a reason
 * ("since …", "which …"). Anything else ("$12 = 3 \cdot 4$ checks out") says the
 * last segment was a remark, not part of the answer.
 */
const CLOSING = /^[\s*]*(?:[,;:]?\s*(?:since|because|as|which|so|hence|thus|giving|i\.\s?e\.?|that\s+is|by|from|using)\b[\s\S]*)?$/i;

/**
 * The answer set in mathematics at the start of `rest`: the first segment,
 * the segments that only separators join to it as far as the sentence can
 * end there, and a qualifying clause to the end of its sentence.
 */
function mathStatement(rest: string, segments: readonly Segment[]): string {
  const first = segments[0];
  if (first === undefined) return '';
  const ends = [first.end];
  for (const next of segments.slice(1)) {
    const gap = rest.slice(ends[ends.length - 1], next.start);
    // "$\frac{1}{16}$, or $0.0625$ as a decimal": the answer restated, checked by grade.ts, not a second value.
    if (!JOINER.test(gap) || /\n\s*\n/.test(gap) || NOTATION_NEXT.test(rest.slice(ends[ends.length - 1] ?? 0))) break;
    ends.push(next.end);
  }
  const closes = (at: number): boolean => {
    const tail = rest.slice(at, sentenceEnd(rest, at, segments));
    return QUALIFIER.test(tail) || CLOSING.test(tail);
  };
  let end = first.end;
  for (let k = ends.length - 1; k > 0; k -= 1) {
    const at = ends[k] ?? first.end;
    if (closes(at)) {
      end = at;
      break;
    }
  }
  // "$n$ is odd", "$n$ must be a power of $2$": a letter the sentence goes on to describe is its subject.
  if (end === first.end && LONE_SYMBOL.test(first.text) && !closes(end) && proseWordCount(rest.slice(end, sentenceEnd(rest, end, segments))) >= 1) {
    end = sentenceEnd(rest, end, segments);
  }
  const clauseEnd = sentenceEnd(rest, end, segments);
  // "$1 \le k \le 20$, excluding $k = 11$": the value the sentence excludes is taken out of the answer (exclusion.ts).
  const inClause = segments.filter((s) => s.end <= clauseEnd);
  const excluding = (inClause[inClause.length - 1]?.start ?? 0) >= end ? exclusionAtEnd(rest.slice(0, clauseEnd), inClause) : null;
  if (excluding !== null) return excluding;
  // "$12$ (or possibly $13$)", "$12$, or perhaps $13$": an alternative the sentence offers is part of what it answers.
  // "$x=1$; moreover $x=2$ is also a solution": another value the sentence adds is part of what it answers.
  const offersAnother = [ALTERNATIVE, ADDS_ANOTHER, OTHERWISE_ANOTHER, BOUND_AFTER].some((words) => words.test(rest.slice(end, clauseEnd)));
  // "$a+b=12$, where $a=5$ and $b=7$": a clause about the letters a constant settles is a remark, not a qualifier.
  const qualifies = (QUALIFIER.test(rest.slice(end, end + 40)) || CASE_THEN_ANOTHER.test(rest.slice(end, clauseEnd))) && !settlingClause(segments, end, clauseEnd);
  if ((qualifies || offersAnother) && clauseEnd - end <= QUALIFIER_LENGTH) end = clauseEnd;
  return withoutDelimiters(rest, first.start, end, segments);
}

/**
 * The answer by cases that the last sentence of an unannounced `paragraph` states ("Hence the count is $4$ for
 * $n \ge 2$ and $1$ for $n = 1$."), read as an announced one is; null when it states none. Read as its last math,
 * the last case's value was the answer, equal to a reference 1, sure of it.
 */
export function casesAtEnd(paragraph: string, math: readonly Segment[]): string | null {
  const sentenceStart = paragraph.trimEnd().slice(0, -1).search(/[^.!?\n]*$/);
  const value = math.find((s) => s.start >= sentenceStart && CASE_THEN_ANOTHER.test(paragraph.slice(s.end, sentenceEnd(paragraph, s.end, math))));
  return value === undefined ? null : statementAt(paragraph, value.start);
}

/** A list item's bullet or number and its part label: "- ", "2. ", "* (b) ", "- **Part (c):** ". */
export const LIST_ITEM = /^[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+(?:\**\s*(?:part\s+)?\(?[a-z0-9]\)\s*:?\s*\**\s*)?/i;

/**
 * The items of a list (or the rows of a table) right after an answer marker
 * ending at `end`, each reduced to its answer ("Final answers:\n- (a) $3$\n-
 * (b) $5$" is 3 and 5); null when no list of two or more items, and no
 * table, follows.
 */
export function listAt(response: string, end: number): string[] | null {
  const lines = response.slice(end, end + STATEMENT_WINDOW).replace(/^[ \t*:]*\n\s*/, '').split('\n');
  // A table of one row is an answer already; a list of one item may be the first line of a sentence.
  if (/^\s*\|/.test(lines[0] ?? '')) {
    const rows = tableItems(lines);
    return rows.length > 0 ? rows : null;
  }
  const items: string[] = [];
  for (const line of lines) {
    const item = LIST_ITEM.exec(line);
    if (item === null) break;
    const answer = statementOf(line.slice(item[0].length));
    if (answer !== null) items.push(answer);
  }
  return items.length >= 2 ? items : null;
}

/**
 * The answers of a markdown table's rows: the last cell of each row under
 * its header ("| (a) | $3$ |" is 3), as a table of parts and their answers
 * puts them.
 */
function tableItems(lines: readonly string[]): string[] {
  const rows: string[] = [];
  for (const line of lines) {
    if (!/^\s*\|/.test(line)) break;
    rows.push(line);
  }
  const body = /^[\s|:-]+$/.test(rows[1] ?? '') && (rows[1] ?? '').includes('-') ? rows.slice(2) : rows;
  const items: string[] = [];
  for (const row of body) {
    const cells = row.split(/(?<!\\)\|/).map((cell) => cell.trim()).filter((cell) => cell !== '');
    const answer = statementOf(cells[cells.length - 1] ?? '');
    if (answer !== null) items.push(answer);
  }
  return items;
}

/** The statement right after an answer marker ending at `end`, reduced to its answer; a list's items joined. */
export function statementAt(response: string, end: number): string | null {
  const items = listAt(response, end)?.filter((item, index, all) => all.indexOf(item) === index);
  return items?.join(', ') ?? statementOf(response.slice(end, end + STATEMENT_WINDOW));
}

/**
 * A reason or remark after an answer, to the end of its sentence: ", which is odd", ", since 3 divides it", "(since
 * 2^3 = 8)", ": plugging in gives …", ", not 15", "(and not 13, a common mistake)", ", but 8 does not work", ".
 */
const REASON_AFTER = new RegExp(
  String.raw`,\s*(?:which|since|because|as|where|that\s+is|i\.\s?e\.)\b[\s\S]*$|\s*\(\s*(?:since|because|(?:and\s+|but\s+)?not(?=\s+[-\d$\\]))\b[^()]*\)\s*$|:\s[\s\S]*$|(?:,|\s+and)\s*not\s+(?=[-\d$\\])[\s\S]*$|` +
    String.raw`,\s*(?:but|though|although|while|whereas)\s+${REJECTED_OTHER}[\s\S]*$|,\s*а\s+не\s[\s\S]*$|[,，]\s*不是[\s\S]*$`,
  'i',
);

/** "probably", "most likely", "presumably", "I think", "certainly" before a stated value. */
const BELIEF_ADVERB = /^(?:(?:most|very|quite)\s+)?(?:probably|likely|presumably|perhaps|maybe|possibly|certainly|definitely|surely|clearly|I\s+(?:think|believe|guess))\s*,?\s+(?=not\b|neither\b|[-$\\\d(]|\*\*)/i;

/**
 * "not $6$ but $7$", "not 6, but rather 7", "not $6$; it is $7$": a value set aside and the one the statement corrects
 * to, up to where that one starts. Not "not only $6$ but also $7$", which gives both.
 */
export const CORRECTED_TO = /^not\s+(?!only\b)(?:\$[^$\n]{1,40}\$|\d[\d.,/]*|[^\s.,;$]{1,20})\s*(?:,\s*|;\s*)?(?:but(?:\s+(?:rather|instead))?|(?:it\s+is|it's|rather))\s+(?=[$\\\d(-]|\*\*)/i;

/** "12, or approximately 12.0", "14/3 (about 4.67)": the value again in decimals, after the value it rounds. */
const APPROXIMATION_AFTER = /\s*(?:,\s*(?:or\s+)?|\(\s*)(?:approximately|approx\.?|about|roughly|around|nearly|≈|~)\s*(-?\d+(?:\.\d+)?)\s*\)?\s*$/i;

/**
 * `sentence` without an approximation after its leading number that rounds it: read as a second value, a right 12 of
 * "12, or approximately 12.0" was graded different, sure of it. "12, or about 13" rounds nothing, and stays.
 */
function withoutApproximation(sentence: string): string {
  const approximation = APPROXIMATION_AFTER.exec(sentence);
  const lead = /^(-?\d+(?:\.\d+)?)(?:\/(\d+))?$/.exec(sentence.slice(0, approximation?.index ?? 0).trim());
  if (approximation === null || lead === null) return sentence;
  const value = Number(lead[1]) / Number(lead[2] ?? 1);
  const rounded = Number(approximation[1]);
  return Math.abs(value - rounded) <= Math.max(0.01 * Math.abs(value), 0.005) ? sentence.slice(0, approximation.index) : sentence;
}

/** A number that opens a statement in words: "40", "-3.5", "1,024", "2/3", "25%". */
const LEADING_NUMBER = /^-?\d[\d,]*(?:\.\d+)?(?:\/\d+)?%?(?![\d.,]*\d)/;

/**
 * The copula that closes a statement in Japanese ("です", "である", "となります") or Korean ("입니다", "이다", "예요"),
 * glued to the value or not, where a sentence ends after it. Left on, "odd $n$ です" was a text graded unsure against "odd $n$", and "36입니다" a
 * text beside 36.
 */
const COPULA = /(?<=\S)[ \t]*(?:です|でした|である|であります|となります|になります|입니다|이다|이에요|예요|임)(?=[ \t]*(?:[.!。]|\n|$))/gu;

/** The bar that closes a table row, after a space: "| Answer | $36$ |" (not the bar of "|x|"). */
const CELL_END = /[ \t]+\|[ \t]*(?=\n|$)/g;

/** The answer a statement starts with. */
function statementOf(text: string): string | null {
  // A marker set in a command ("\\textbf{Final Answer:} 3", "\\text{Answer: } 3") leaves that command's brace behind.
  // "The answer is probably $4$": an adverb of belief before the value qualifies the claim, not the value; "probably
  // not $4$" keeps its "not". Kept, "probably $4$" was a text graded different from a right 4, and "probably not $4$"
  // was read as 4.
  // "答えは odd $n$ です。", "답은 $5$입니다.": the copula that closes a Japanese or Korean sentence is no part of the value.
  // "| Answer | odd $n$ |": the bar that closes the last cell of a table row is no part of it.
  const rest = text.replace(/^[\s*]*(?:\}[\s*]*)?/, '').replace(BELIEF_ADVERB, '').replace(COPULA, '').replace(CELL_END, '');
  // "The answer is not $6$ but $7$.": the value it corrects to is the statement; read whole, it was unsure either way.
  const corrected = CORRECTED_TO.exec(rest);
  if (corrected !== null) return statementOf(rest.slice(corrected[0].length));
  const segments = mathSegments(rest);
  if (segments[0]?.start === 0) return mathStatement(rest, segments);
  // The sentence ends at a line break or at a period followed by a space or
  // the end (a period between digits is a decimal point).
  // "7, which is odd", "12, since …": a reason after the answer is not part of it.
  // "the minimum is $1$, attained at $x = 0$": a remark after the value is no part of it (remarks.ts).
  const whole = withoutClosingRemarks(rest.split(/\n|(?<!\b(?:i\.e|e\.g))\.(?=\s|$)|。/)[0] ?? '').replace(/\.$/, '');
  // "7 hours, that is, 420 minutes", "7 hours (420 minutes)": an answer restated in other units is both, for the grade
  // to read (restated-quantity.ts); cut at its "that is" or reduced to its first number, a right 420 was different.
  if (restatedQuantity(whole.replace(/\*\*/g, '')) !== null) return whole.replace(/\*\*/g, '').trim();
  const sentence = withoutApproximation(whole.replace(REASON_AFTER, ''));
  // "12 (twelve)", "7 (in total)": a remark in words after a number is not part of it.
  const cleaned = sentence.replace(/\*\*/g, '').replace(/(\d)\s*\([\p{L}\s,'-]*\p{L}{2}[\p{L}\s,'-]*\)\s*$/u, '$1').trim();
  // "neither 12 nor 15", "not 7": a number it names is not the answer.
  if (/^(?:neither|not)\b/i.test(cleaned)) return cleaned;
  // "40 (not 41), or perhaps 42", "40; possibly 42": a value the sentence offers after the first hedges it, as after math
  // (mathStatement); reduced to its first number, 40 was graded equal to a reference 40, sure of it.
  const lead = LEADING_NUMBER.exec(cleaned);
  if (lead !== null && [ALTERNATIVE, OTHERWISE_ANOTHER, BOUND_AFTER].some((words) => words.test(whole.slice(lead[0].length)))) return whole.replace(/\*\*/g, '').trim();
  return cleaned === '' ? null : reduceProse(cleaned, 'first');
}
