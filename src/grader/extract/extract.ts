/**
 * Final-answer extraction from a model response: boxed answer first, then an
 * announced answer ("The final answer is X"), then a trailing choice letter,
 * then unannounced mathematics. One extraction for runs and `tmas grade`.
 */
import { statedValueCjk } from './stated-cjk.ts';
import { respectiveValues } from './respective-values.ts';
import { boxedRuns, lastBoxEnd, lastBoxedAnswer, statesNoValue } from './boxes.ts';
import { isAsideParagraph, withoutClosingRemarks } from './remarks.ts';
import { endWindow } from './end-window.ts';
import { withoutEndMark } from './end-mark.ts';
import { severalQuantitiesAtEnd } from './several-quantities.ts';
import { describesLetter, LONE_SYMBOL, mathSegments, numbers, proseWordCount, reduceMath, reduceProse } from './segments.ts';
import { offeredAlternative } from './offered-alternative.ts';
import { REJECTED_OTHER, withoutDeniedValues, withoutRejections } from './denied.ts';
import { exclusionAtEnd } from './exclusion.ts';
import { addedSolution, concludedAfter, CONCLUDING } from './after-answer.ts';
import { coordinatesAtEnd } from './settled-value.ts';
import { casesAtEnd, CORRECTED_TO, listAt, statementAt } from './statement.ts';
import { joinedUpTo } from './joined-values.ts';
import { closingCases, conditionFirstCases } from './condition-cases.ts';
import { closingList } from './closing-list.ts';
import { ownTurn } from './turns.ts';
import { withoutStruck } from './struck.ts';
import { revisedFrom } from './revised-answer.ts';
import { afterReasoning } from './reasoning-end.ts';

export { afterReasoning };
import { boxRestated } from './restated-quantity.ts';
import { provisoStatement, rangedStatement } from './qualified-statement.ts';

/**
 * "**Final Answer**", "### Answer" on a line of its own: a heading that
 * announces the answer on the lines below it, with no colon.
 */
function headingOf(words: string): string {
  // One run of spaces between marks, never two side by side: "[ \t]*(?:\*\*)?[ \t]*" split a reply of 20,000 spaces
  // every way there is, a second for each search.
  return String.raw`(?:^|\n)[ \t]*(?:#{1,6}[ \t]*)?(?:(?:\*\*|__)[ \t]*)?${words}[ \t]*(?:(?:\*\*|__)[ \t]*)?(?=\n|$)`;
}

const FINAL_ANSWER_HEADING = headingOf(String.raw`final[ \t]+answers?`);

/**
 * Phrases that announce an answer, in several languages. The last match in a
 * response wins, so "Final Answer: The final answer is $5$" reads "$5$".
 */
const ANSWER_MARKER = new RegExp(
  // "**Answer**: 42": the bold may close before the colon. "答案不是5" ("the answer is not 5") announces none.
  // "Final answer = 7" states it as well as "Final answer: 7".
  // Korean "답은 $5$입니다", "정답: 5": not "대답은" ("the reply is"), a longer word that ends in 답; only where a number or
  // math follows before the sentence ends, as "답은 다음과 같습니다." ("the answer is as follows.") announces none.
  String.raw`(?:final\s+answer|the\s+answer|answer)\s*(?:\*\*|__)?\s*(?:is\b|:|：|=)\s*:?|réponse\s*(?:finale)?\s*(?:est|:|：)\s*:?|答案(?![^。，,\n:：]{0,6}?[不非没未])\s*(?:是|为)?\s*[:：]?|(?<!解)答\s*[:：]|答え\s*(?:は)?\s*[:：]?|(?<![\uAC00-\uD7A3])(?:정답|답)\s*(?:은|는|[:：])\s*[:：]?(?=[^.。\n]{0,160}?[$\d\\])|الإجابة\s*(?:هي|:)?|उत्तर\s*:?|` +
    // German, Spanish, Italian, Portuguese and Russian: a reply in one of them was read as a labelled pair
    // ("Ответ: 110" as the tuple (Ответ, 110)), which the rule graded wrong and sure of it.
    String.raw`\b(?:antwort|endergebnis)\s*(?:lautet|ist|:|：)\s*:?|\brespuesta\s*(?:final)?\s*(?:es|:|：)\s*:?|` +
    String.raw`\brisposta\s*(?:finale)?\s*(?:è|:|：)\s*:?|\bresposta\s*(?:final)?\s*(?:é|:|：)\s*:?|ответ\s*(?:[:：]|—|(?:равен|равн[аоы]|будет|составляет)(?![а-яё]))\s*|` +
    headingOf(String.raw`(?:final[ \t]+)?answers?`) +
    // "**Answer.** $12$", "Answer. 12": a paragraph that opens on the word and a full stop, as solutions write it.
    String.raw`|(?:^|\n)[ \t]*(?:(?:\*\*|__)[ \t]*)?(?:final[ \t]+)?answer[ \t]*\.[ \t]*(?:\*\*|__)?(?=[ \t])` +
    // "| **Answer** | $36$ |": the row of a Markdown table that a reply sums its work up in, labelled as its answer;
    // not a header row ("| Answer | Explanation |" over "|---|---|"), whose next cell names a column.
    String.raw`|(?:^|\n)[ \t]*\|[ \t]*(?:(?:\*\*|__)[ \t]*)?(?:final[ \t]+)?answers?[ \t]*(?:(?:\*\*|__)[ \t]*)?\|(?![^\n]*\n[ \t]*\|?[ \t]*:?-+:?[ \t]*\|)`,
  'gi',
);

/** How many announcements, counted from the last, may hold the answer. */
const MARKERS_READ = 64;

/**
 * Whether words announced after a box hold a value of their own: mathematics,
 * a number or a choice letter. "This confirms that the answer is correct.",
 * "Note the answer is an integer", "Let me double-check the answer: yes" judge
 * the box, and read as a second answer they made a right box unsure.
 */
function holdsValue(text: string): boolean {
  return /\d|\\[a-zA-Z]|^\(?[A-J]\)?$/.test(text);
}

/** A trailing multiple-choice letter: "(B)", "B)", "**(C)**". */
const CHOICE_AT_END = /(?:^|[\s:*])\(?([A-J])\)[\s.*]*$/;

/** Looks like a stated answer: mathematics, a choice letter, or a word or two. */
function isAnswerLike(text: string): boolean {
  if (/^(?:not|neither)\b/i.test(text)) return false;
  return /\d|\\[a-zA-Z]|^\(?[A-J]\)?$/.test(text) || text.split(/\s+/).length <= 2;
}

/**
 * Words before an announcement, in its sentence, that say it is not the
 * reply's own answer: "One might think the answer is 5", "It is tempting to
 * say the answer is 5", "Suppose the answer is 5", "a naive count gives the answer: 5", "A common wrong answer is 41".
 */
const HEDGE_BEFORE = /\b(?:might|may|could|would)\s+(?:\w+\s+)?(?:think|guess|say|expect|assume|believe|conclude|claim)|\b(?:suppose|supposing|assume|assuming)\b|\btempting\b|\bnaive(?:ly)?\b|\bat\s+first\b|\binitially\b|\bmistakenly\b|\bwrongly\b|\bincorrectly\b|\bnot\s+(?:that\s+)?$|\b(?:wrong|incorrect|false|mistaken|erroneous)\s*$/i;

/**
 * Words after an announcement, in its sentence, that take it back: "the answer is 5, but that misses a case" (not "but
 * only if"). "…, but I'm not sure" and "…, but I could be wrong" doubt the answer without giving another: the
 * reply's answer is still 5 (read as taken back, the reply had none, and a right 5 was graded different). A doubt
 * that names another value in its sentence ("…, but I'm not sure it is minimal; it could be $3$") still takes the
 * answer back: kept, 5 was graded equal, sure of it. "…, but $6$ fails" rejects another value and takes nothing back.
 */
const HEDGE_AFTER = new RegExp(
  String.raw`^[^.\n]{0,60}?[,;—–]\s*(?:but(?!\s+(?:only|also)\b|\s+${REJECTED_OTHER}|\s+I(?:'m|\s+am)\s+not\s+(?:\w+\s+)?(?:sure|certain|confident)\b(?![^.\n]*?[$\d])|\s+I\s+(?:could|might|may)\s+be\s+wrong\b(?![^.\n]*?[$\d]))|however|wait)\b`,
  'i',
);

/** How far before and after a marker its sentence is read for a hedge. */
const HEDGE_WINDOW = 120;

/** Whether the announcement between `start` and `end` is hedged: said to be wrong, or supposed. */
function hedged(response: string, start: number, end: number): boolean {
  const before = response.slice(Math.max(0, start - HEDGE_WINDOW), start).split(/[.!?。\n](?:\s|$)|\n/).pop() ?? '';
  const after = response.slice(end, end + HEDGE_WINDOW);
  // "the answer is not 6, but rather 7": its "but" corrects the value, it takes nothing back (statement.ts).
  return HEDGE_BEFORE.test(before) || (HEDGE_AFTER.test(after) && !CORRECTED_TO.test(after.trimStart()));
}

/** Whether the text at `at` is what a hedged announcement in its sentence states ("Suppose the answer is $5$"). */
function statedByHedge(text: string, at: number): boolean {
  const sentenceStart = Math.max(0, ...[...text.slice(0, at).matchAll(/[.!?。\n](?:\s|$)/g)].map((m) => m.index + 1));
  const markers = [...text.slice(sentenceStart, at).matchAll(ANSWER_MARKER)];
  return markers.some((m) => hedged(text, sentenceStart + m.index, sentenceStart + m.index + m[0].length));
}

/**
 * The answer announced last, with where its marker ends. A later marker
 * that states no answer ("note that the answer is independent of n") gives
 * way to an earlier one that does.
 */
export function announcedAnswer(response: string): { text: string; end: number } | null {
  const markers = [...response.matchAll(ANSWER_MARKER)];
  let fallback: { text: string; end: number } | null = null;
  // The final word is among the last few announcements; reading every one of
  // a response that repeats "the answer is" thousands of times costs time.
  for (let k = markers.length - 1; k >= Math.max(0, markers.length - MARKERS_READ); k -= 1) {
    const marker = markers[k];
    if (marker === undefined || hedged(response, marker.index, marker.index + marker[0].length)) continue;
    const end = marker.index + marker[0].length;
    const text = statementAt(response, end);
    if (text === null || text === '') continue;
    if (isAnswerLike(text)) return { text, end };
    fallback ??= { text, end };
  }
  return fallback;
}

/**
 * Final answer from a model response: content of the LAST `\boxed{...}`
 * (nested braces, also `\fbox` and `\boxed 5`; boxes separated only by "," or
 * "and" are joined into one list), else the statement after "final answer:" /
 * "the answer is", else a lone multiple-choice letter "(B)" / "B)" at the end,
 * else the whole response when it is bare mathematics ("x = 3"), else the
 * last math segment of its last paragraph ("The result is $3$."); null if none.
 *
 * @example extractAnswer('so $x = \\boxed{\\frac{1}{2}}$.') // '\\frac{1}{2}'
 */
export function extractAnswer(response: string): string | null {
  // "… $x = 17$. $\blacksquare$": the mark that closes a proof or a check is no answer (end-mark.ts).
  // "The answer is ~~12~~ 14.": what the reply strikes through it takes back (struck.ts).
  const own = withoutEndMark(withoutStruck(ownTurn(response)));
  const final = withoutEndMark(afterReasoning(own));
  const answer = declaredAnswer(final) ?? unannouncedAnswer(final);
  // A reply that stops at the end of its reasoning has only the reasoning to read.
  return answer !== null || final === own ? answer : declaredAnswer(own) ?? unannouncedAnswer(own);
}

/** Where the final answers of a reply start once the answers it took back are left out (revised-answer.ts). */
function revisionStart(text: string): number {
  return revisedFrom(text, () => [...text.matchAll(FINAL_ANSWER_MARKER)].map((m) => m.index));
}

/** Boxed, announced, or a trailing choice letter: what a response declares its answer. */
export function declaredAnswer(response: string): string | null {
  // "$\boxed{0}$ overcounts. Correcting for it, the final answer is odd $n$.": a box taken back is no answer of the reply.
  const boxed = lastBoxEnd(response) > revisionStart(response) ? lastBoxedAnswer(response) : null;
  const announced = announcedAnswer(response);
  // "If $n$ is even, the answer is $0$. If $n$ is odd, the answer is $1$.": the last answer given is one case of several.
  const cases = closingCases(response);
  if (cases !== null && Math.max(announced?.end ?? -1, boxed === null ? -1 : lastBoxEnd(response)) > cases.start) return cases.answer;
  // "\boxed{200} ... The final answer is $10,455$": a statement after the
  // last box is the later, and final, word, if it states mathematics ("the
  // answer is not 7" or "... is different" do not).
  if (boxed !== null && boxed !== '') {
    const mathematical = announced !== null && /\d|\\[a-zA-Z]|^\(?[A-J]\)?$/.test(announced.text) && isAnswerLike(announced.text);
    if (mathematical && announced.end > lastBoxEnd(response)) return announced.text;
    // "$\boxed{3}$ hours, which is $180$ minutes": the box and its restatement in other units (restated-quantity.ts).
    return boxRestated(response, lastBoxEnd(response), boxed) ?? boxed;
  }
  if (announced !== null) return announced.text;
  const choice = CHOICE_AT_END.exec(response.trimEnd().slice(-40));
  return choice?.[1] ?? null;
}

/** Longest response read whole as a bare answer ("x = 3", "$\\frac{1}{2}$"). */
const BARE_ANSWER_LENGTH = 300;

/**
 * A response that neither boxes nor announces: the response itself when it
 * is bare mathematics (no prose), else the last math segment of its last
 * paragraph ("The result is $3$."), with those that only separators join
 * to it. Numbers in prose are not read here: a run's responses that state
 * no answer must not be given one.
 */
function unannouncedAnswer(response: string): string | null {
  const trimmed = response.trim();
  if (trimmed === '') return null;
  if (trimmed.length <= BARE_ANSWER_LENGTH && proseWordCount(trimmed) < 2 && !trimmed.includes('\n')) {
    // "计划的比例为13/28": one short line in Chinese, a word to the counting above, states its value.
    const stated = statedValueCjk(trimmed, true);
    if (stated !== null) return stated;
    const whole = mathSegments(trimmed);
    // "Therefore, $x = 7$.": a word leading into the mathematics is not part of the answer; "odd $n$", "prime $p$":
    // a word that says what the letter is, is (the letter alone was graded different from "odd $n$" itself).
    const leading = whole[0] === undefined ? '' : trimmed.slice(0, whole[0].start);
    const lead = whole[0] !== undefined && /^[\p{L}\s,:]+$/u.test(leading) && !describesLetter(leading, whole[0].text) ? whole[0].start : 0;
    const only = whole.length === 1 ? whole[0] : undefined;
    const spansAll = only !== undefined && only.start === lead && /^[\s.,;:?]*$/.test(trimmed.slice(only.end));
    return spansAll ? only.text : trimmed.slice(lead);
  }
  // "The solutions are:\n- $1$\n- $2$": a closing list of values is all of them; a summary restates what came before.
  // A summary with no answer before it ("Adding up:\n- Case A: $5$\n- …") is read as any ending is, below.
  const list = closingList(trimmed);
  const listed = list === null ? null : list.kind === 'values' ? list.answer : unannouncedAnswer(list.before);
  if (listed !== null) return listed;
  const all = trimmed.split(/\n\s*\n/);
  // "So there are $12$ ways.\n\nIn general, … $n(n-1)$.": a last paragraph that generalises is an aside (remarks.ts).
  const kept = all.length > 1 && isAsideParagraph(all[all.length - 1] ?? '', all[all.length - 2] ?? '') ? all.slice(0, -1) : all;
  // A paragraph of one clause looped until the window was full is read at its end only (end-window.ts).
  const paragraphs = [...kept.slice(0, -1), endWindow(kept[kept.length - 1] ?? '')];
  // "If $n$ is even, the answer is $0$. If $n$ is odd, it is $1$.": cases whose conditions come first (condition-cases.ts).
  const lastParagraph = paragraphs[paragraphs.length - 1] ?? '';
  const byCases = conditionFirstCases(lastParagraph);
  // "Thus $n = 7$.\n\nIf $n = 6$, the sum is $21$; …": cases at points after an answer check it.
  const checked = byCases?.pointsOnly === true ? [...paragraphs.slice(0, -1), lastParagraph.slice(0, byCases.start)].join('\n\n').trim() : '';
  if (byCases !== null) return (checked === '' ? null : unannouncedAnswer(checked)) ?? byCases.answer;
  // "So $x = 1$. Also $x = 2$ works.": a sentence that adds a solution joins it to the answer before (after-answer.ts).
  const added = addedSolution(paragraphs[paragraphs.length - 1] ?? '');
  const earlier = added === null ? null : unannouncedAnswer(added.before);
  if (added !== null) return earlier === null ? added.added : `${earlier}, ${added.added}`;
  // "The minimum value is $1$, attained at $x = 0$.": a remark after the value is not the answer.
  // "The sum is $10$. It is not $4$.": a value the reply denies is none it gives (denied.ts).
  const last = withoutClosingRemarks(withoutDeniedValues(withoutRejections(paragraphs[paragraphs.length - 1] ?? '')));
  const math = mathSegments(last);
  const afterMath = last.slice(math[math.length - 1]?.end ?? 0);
  // "所以他们一共赚了8722美元。": a value a Chinese sentence states (stated-cjk.ts).
  const cjk = statedValueCjk(afterMath);
  if (cjk !== null) return statedByHedge(last, last.length - afterMath.length) ? null : cjk;
  // "The smallest and largest values are 12 and 13, respectively.": the values in their order (respective-values.ts).
  const respective = respectiveValues(afterMath);
  if (respective !== null) return statedByHedge(last, last.length - afterMath.length + respective.at) ? null : respective.values;
  // "So the total cost is \$18.90.": an escaped dollar is a currency sign in prose, no delimiter of math; blanked to
  // the same length, so that places found in it are places in `afterMath`. Read as math, it left the reply no answer.
  // "-\$5": the minus moves up to the number, or blanking parted them and read 5.
  const currencyBlanked = afterMath.replace(/(-?)\\\$/g, (escaped: string, minus: string) => ' '.repeat(escaped.length - minus.length) + minus);
  const value = STATED_VALUE.exec(currencyBlanked) ?? BOLD_NUMBER_AT_END.exec(afterMath);
  // "the smallest such $n$ is 3.": the math names the answer, the words after it give it.
  // "A common wrong answer is 41.": not what a hedged announcement gives, as for math below.
  if (value !== null) return statedByHedge(last, last.length - afterMath.length + value.index + value[0].search(/[\d*]/)) ? null : (value[1] ?? value[2] ?? '').trim();
  const lastMath = math[math.length - 1];
  // "Assume the answer is $5$. Then we get a contradiction.": what a hedged announcement states is no answer either.
  // Its sentence is read whole: cut at its remark ("…, but I could be wrong; it might be $5$"), a doubt that names
  // another value read as one that does not, and 4, doubted for 5, was graded equal to a reference 4, sure of it.
  const uncut = paragraphs[paragraphs.length - 1] ?? '';
  if (lastMath === undefined || statedByHedge(last, lastMath.start)) return null;
  if (uncut.startsWith(last.slice(0, lastMath.end)) && statedByHedge(uncut, lastMath.start)) return null;
  const later = concludedLater(last.slice(lastMath.end), lastMath.text);
  if (later !== null) return later;
  // "Thus $x = 2k\pi$, where $k$ is an integer.": the range of a letter of the math before belongs to that math.
  // "So the count is $2$ unless $n = 1$.": so does a proviso; read alone, its n = 1 was the answer.
  const ranged = rangedStatement(last, math) ?? provisoStatement(last, math);
  if (ranged !== null) return ranged;
  // "Hence $n$ must be a power of 2.": a lone letter that words go on to describe is the subject, not the answer.
  const describedAfter = last.slice(lastMath.end).split(/[.!?](?:\s|$)|\n/)[0] ?? '';
  if (LONE_SYMBOL.test(lastMath.text) && proseWordCount(describedAfter) >= 2) return `${lastMath.text} ${describedAfter.trim()}`;
  // "All odd $n$.", "$n$ is a power of $2$.": words that describe the last math make the sentence the answer.
  const sentence = last.slice(0, lastMath.end).split(/[.!?](?:\s|$)|\n/).pop() ?? '';
  const before = sentence.slice(0, sentence.length - (lastMath.end - lastMath.start));
  if (describesLetter(before, lastMath.text)) return reduceProse(`${sentence}${describedAfter}`, 'last');
  if (DESCRIPTION_OF_NUMBER.test(before)) return `${sentence}${describedAfter}`.trim();
  // "The solutions are $x = 2$ and $x = -3$.": the segments that only separators join are one answer.
  return casesAtEnd(last, math) ?? severalQuantitiesAtEnd(last, math) ?? exclusionAtEnd(last, math) ?? offeredAlternative(last, math) ?? coordinatesAtEnd(last, math) ?? reduceMath(joinedUpTo(last, math, math.length - 1));
}

/** "there are 12 distinct sequences": a count stated in words. */
const THERE_ARE = /\bthere\s+(?:are|is|exist)\s+(?:exactly\s+)?(\d+(?:,\d{3})*)\b/i;

/**
 * What a concluding sentence after the last math states, when it states a
 * number the math does not hold: "… $d = \frac{90}{n}$ … Therefore, there are 12
 * distinct sequences." is 12, and "Therefore, the error increases by 100%."
 * is that sentence (free text) rather than the formula before it. Null when
 * no such sentence follows, or when it restates the math's own value.
 */
function concludedLater(afterLastMath: string, lastMath: string): string | null {
  const sentences = afterLastMath.split(/(?<=[.!?])\s+|\n/).map((sentence) => sentence.trim());
  const concluding = sentences.filter((sentence) => CONCLUDING.test(sentence) && /\d/.test(sentence)).pop();
  if (concluding === undefined) return null;
  const value = lastMath.split('=').pop()?.trim() ?? '';
  if (numbers(concluding).some((n) => n.text.replace(/,/g, '') === value)) return null;
  const sentence = concluding.replace(/[.!]\s*$/, '');
  // "So the sum is $45$. Hence there are 2 cases where it fails.": a math that states a value of its own may be the
  // answer as much as the count after it; read as the count, 45 was graded wrong and sure of it.
  if (!/[a-zA-Z]/.test(value.replace(/\\[a-zA-Z]+/g, ''))) return sentence;
  return THERE_ARE.exec(concluding)?.[1] ?? sentence;
}

/** Words that make the number after them the argument of a description or a bound: "a power of $2$", "greater than $5$". */
const DESCRIPTION_OF_NUMBER = /\b(?:(?:powers?|multiples?|divisors?|factors?)\s+of|than|at\s+(?:least|most))\s*$/i;

/**
 * The end of a paragraph that gives a value in words after its last math:
 * "is 3.", "equals **17**.", "is therefore **$\frac{1}{2}$**". Only a number
 * or a bold answer that closes the paragraph, on the line of a verb that
 * states it, is read: a number in passing ("for $k = 3$ we get 17 cases") is
 * not, nor a number without its full stop (a reply cut at the window).
 */
const STATED_VALUE = new RegExp(
  String.raw`(?:^|\n)[^\n$]*?\b(?:is|are|was|equals?|becomes)\b[^\n$*\d]{0,30}?` +
    // "is all powers of 2.": a number a description takes ("of 2", "than 5") is not the value.
    // "is \frac43.", "is \frac 59.", "is f(x)=x+1.", "is .35.": digits a command, an operator, a letter or a decimal
    // point takes are part of what the sentence states, no number of their own (read, 43, 59, 1 or 35).
    String.raw`(?:\*\*\$?([^*\n]{1,60}?)\$?\*\*[\s.!]*|(?<!\b(?:of|than|by|modulo|mod)\s*|\\[a-zA-Z]+|\\[dt]?(?:frac|sqrt|binom)\s*|[=+\-*/^_({.]\s*|[A-Za-z])(-?\d+(?:,(?:\\!)?\d{3})*(?:\.\d+)?(?:\/\d+)?%?)\s*[.!]\s*)$`,
);


/**
 * "… 多 **3页**。", "… هو **92**.", "… est de **25%**.": a number set in bold, with its counter or
 * unit, that closes the paragraph is the answer in any language, whatever verb leads to it.
 */
const BOLD_NUMBER_AT_END = /\*\*\s*\$?(-?\d+(?:[.,]\d+)*(?:\/\d+)?\s*%?\s*\p{L}{0,4})\$?\s*\*\*\s*[.!。]?\s*$/u;

/**
 * The answer a text states, for grading saved outputs: a model response is
 * reduced by {@link extractAnswer}, the same extraction a run uses; a text
 * from which it extracts nothing is taken as an answer already ("n is odd").
 */
export function statedAnswer(text: string): string {
  return extractAnswer(text) ?? text.trim();
}

/** "Final answer:", "The final answer is", "Final answer (b):", a "Final Answer" heading: a response's own final word. */
const FINAL_ANSWER_MARKER = new RegExp(String.raw`\bfinal\s+answers?\b[^\n:：=]{0,30}?(?:\bis\b[ \t]*[:：]?|:|：|=)|` + FINAL_ANSWER_HEADING, 'gi');

/**
 * Every final answer a response gives after its reasoning, in order: each
 * run of adjacent boxes, then each statement after "final answer" that
 * follows the last box (all of them when it boxes nothing). A reply to a
 * question in several parts ("(a) \boxed{No} ... (c) \boxed{Yes}"), one
 * that boxes a first answer and then another, or one that boxes a step and
 * then announces a final answer gives several; {@link extractAnswer} reads
 * only the last.
 */
export function finalAnswers(response: string): string[] {
  const whole = afterReasoning(response);
  // "$\boxed{5}$. Wait, I made an error … $\boxed{7}$": what the reply took back is no final answer (revised-answer.ts).
  const text = whole.slice(revisionStart(whole));
  // An empty box or a placeholder (`\boxed{?}`) gives no answer to tell apart from the one boxed after it.
  const boxed = boxedRuns(text).filter((answer) => answer !== '' && !statesNoValue(answer));
  const afterBoxes = lastBoxEnd(text);
  // After a box, "Therefore the answer is 13." gives another answer as much as "Final answer: 13" does.
  const announced = boxed.length > 0 ? [...text.matchAll(ANSWER_MARKER)].filter((m) => !hedged(text, m.index, m.index + m[0].length)) : [];
  const finalMarked = [...text.matchAll(FINAL_ANSWER_MARKER)];
  // Each place once (a "final answer" is an announcement too), by a set: a search of all markers for each was
  // quadratic in a reply that repeats "Final answer:" thousands of times.
  const places = new Set<number>();
  const markers = [...finalMarked, ...announced]
    .filter((m) => {
      if (m.index < afterBoxes || places.has(m.index)) return false;
      places.add(m.index);
      return true;
    })
    .sort((a, b) => a.index - b.index)
    .slice(-MARKERS_READ);
  const saysFinal = new Set(finalMarked.map((m) => m.index));
  // "Final Answer: The final answer is 5": a marker right before another states nothing of its own.
  const stated = markers
    .filter((m, k) => {
      const next = markers[k + 1];
      return next === undefined || !/^[\s*]*(?:the\s+)?$/i.test(text.slice(m.index + m[0].length, next.index));
    })
    .flatMap((m) => (listAt(text, m.index + m[0].length) ?? [statementAt(text, m.index + m[0].length)]).map((answer) => ({ answer, final: saysFinal.has(m.index) })))
    .filter((s): s is { answer: string; final: boolean } => s.answer !== null && s.answer !== '' && isAnswerLike(s.answer) && (s.final || holdsValue(s.answer)))
    .map((s) => s.answer);
  // "$\boxed{12}$. So there are $13$ ways in total.": a conclusion after the last box states an answer too.
  return [...boxed, ...stated, ...concludedAfter(text, afterBoxes, extractAnswer)];
}
