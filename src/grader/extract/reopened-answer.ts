/**
 * Whether a response takes its answer back after giving it: words that reopen
 * it ("Wait, I made an error: the count is 14."), or a sentence that adds
 * another solution after a box or an announcement (after-answer.ts), where
 * only a reader can tell which of the two the reply settled on. The grade of
 * such a response is unsure (grade.ts). Apart from after-answer.ts because it
 * reads the answer as extract.ts does, and extract.ts reads added solutions
 * from after-answer.ts.
 */
import { lastBoxedAnswer, lastBoxEnd } from './boxes.ts';
import { afterReasoning, announcedAnswer } from './extract.ts';
import { addsSolution, ANOTHER, restates, tailAfter } from './after-answer.ts';
import { sentencesOf } from './segments.ts';
import { offersOtherValue } from './offered-alternative.ts';
import { checksOnlyItsCases } from './case-check.ts';

/**
 * A fault found in the working, not the words alone: "I realize this counts each pair twice", "we forgot to count",
 * "I overlooked one case". Alone, "I realize the approach was roundabout, but it is correct", "I forgot to mention
 * that …" and "I overlooked nothing" reopened right answers.
 */
const FAULT_FOUND = String.raw`realiz(?:e|ed)\s+(?:that\s+)?(?:this|it|we|I)\s+(?:counts?|counted|miss(?:ed|es)?|overcounts?|double|(?:is|was)\s+(?:wrong|incorrect|off))|forgot\s+(?:to\s+(?:count|include|add|subtract|consider|exclude)|(?:the|a|one|two|some)\s+cases?)|overlooked\s+(?:the|a|one|two|some)\s+(?:cases?|solutions?|possibilit(?:y|ies))`;

/**
 * Words that reopen an answer already given: "Wait, I made an error", "Actually, we missed two cases", "Hmm, let me
 * recheck", "But I realize this counts each pair twice, so it is 6"; not when denied ("We never overcounted: …").
 */
const REOPENS = new RegExp(
  String.raw`\b(?:wait|actually|hmm+|oops|mistake|error|wrong|incorrect|re-?check|reconsider|correction|on\s+second\s+thought|(?<!(?:\bnever|\bnot|n't|\bno|\bwithout)\s+)(?:miscount(?:ed)?|overcount(?:ed|s)?|double[-\s]count(?:ed|s)?|${FAULT_FOUND}))\b`,
  'i',
);

/**
 * Whether a response reopens its answer, or adds another, after giving it: after its last box or announcement,
 * words that reopen it and then a number or mathematics, or a sentence that adds a solution.
 */
export function reopensAnswer(response: string): boolean {
  const final = afterReasoning(response);
  const end = Math.max(lastBoxEnd(final), announcedAnswer(final)?.end ?? -1);
  if (end < 0) return reopensOnCondition(final);
  const after = tailAfter(final, end);
  const reopened = REOPENS.exec(after);
  if (reopened !== null && /\d|\$|\\[(\[]/.test(after.slice(reopened.index)) && !onlyRemarksOnCases(after, reopened.index)) return true;
  const answer = lastBoxEnd(final) === end ? lastBoxedAnswer(final) : announcedAnswer(final)?.text;
  // "Yes. For instance, $n = 6$ works, and $n = 10$ works as well.": values after a yes or a no are its examples.
  if (YES_OR_NO.test(answer ?? '')) return false;
  // "Note: if the problem meant ordered pairs, the answer would be $24$.": another value offered for the answer.
  const offers = (sentence: string): boolean => offersOtherValue(sentence, answer ?? '') || (addsSolution(sentence) && !restates(sentence, answer ?? '') && !ranksBelowOrAbove(sentence));
  return sentencesOf(after).some((sentence) => offers(sentence.text));
}

/** Words that find a fault or doubt the answer ("let me double-check"), unlike "actually", "wait" or "hmm", which may only lead into a remark. */
const FINDS_FAULT = /\b(?:mistake|error|wrong|incorrect|miscount|overcount|double[-\s]c(?:ount|heck)|check\w*\s+(?:\w+\s+)?again|not\s+(?:sure|certain)|unsure|doubt|correction|re-?check|reconsider|forgot|overlooked|missed|fail|contradict|invalid|impossible|(?:does|do|did)\s*(?:not|n't)\s+(?:work|hold|satisfy))/i;

/**
 * Whether the sentences of `after` from the one at `at` on only remark on cases of the answer: "Actually, when $n = 3$
 * this is also easy to verify directly." states no value beyond its case and finds no fault (case-check.ts). Read as a
 * reopening, it made a boxed right answer unsure, and a wrong one unsure rather than different.
 */
function onlyRemarksOnCases(after: string, at: number): boolean {
  // From the start of the sentence the word is in: before it, a dollar that closes the answer may have lost its mate.
  const before = after.slice(0, at);
  const start = Math.max(...['. ', '! ', '? ', '\n'].map((end) => before.lastIndexOf(end) + 1));
  const rest = sentencesOf(after.slice(start)).map((sentence) => sentence.text);
  return rest.every((sentence) => !FINDS_FAULT.test(sentence) && checksOnlyItsCases(sentence));
}

/** A sentence that opens on words that reopen what came before: "Hmm, but wait:", "Actually,", "Oops —". */
const OPENS_REOPENED = /^[\s*_]*(?:(?:but|and|so)\s*,?\s*)?(?:hmm+|wait|actually|oops|on\s+second\s+thought|but\s+wait)\b/i;

/** Words that make what a sentence states hold only in a case: "if $n = 0$ is allowed", "unless …", "assuming …". */
const ON_CONDITION = /\b(?:if|unless|when|whenever|assuming|provided)\b/i;

/** How much of the end of a reply is read for an answer and the sentence that reopens it. */
const REOPEN_TAIL = 2000;

/**
 * Whether an unannounced answer ends on a sentence that reopens the one before it on a condition: "We conclude $12$.
 * Hmm, but wait: if $n = 0$ is allowed, it is $13$." Read as the last math, the conditional 13 was graded equal to a
 * reference 13, sure of it; which case the question means only a reader can tell. "Wait, actually it is $13$." (no
 * condition) corrects the answer, and its value is read as the answer.
 */
function reopensOnCondition(final: string): boolean {
  // The end of the reply, across paragraphs: "We conclude $12$.\n\nWait, if …" reopens it as well.
  const paragraph = final.trim().slice(-REOPEN_TAIL);
  const sentences = sentencesOf(paragraph);
  const last = sentences[sentences.length - 1];
  if (last === undefined || sentences.length < 2 || !OPENS_REOPENED.test(last.text) || !ON_CONDITION.test(last.text)) return false;
  // "Actually, when $n = 3$ this is easy to verify directly.": the case checked, no other value under it (case-check.ts).
  if (!FINDS_FAULT.test(last.text) && checksOnlyItsCases(last.text)) return false;
  return /\d|\$|\\[([]/.test(paragraph.slice(0, last.start)) && /\d|\$|\\[([]/.test(last.text);
}

/** An answer that is a yes or a no, as a box or an announcement gives it: "\text{Yes}", "**yes**", "yes, for example …". */
const YES_OR_NO = /^[\s*$]*(?:\\(?:text|textbf|mathrm)\s*\{\s*)?(?:yes|no)\b[\s}*$]*(?:[.!,;:]|$)/i;

/**
 * Whether a sentence grants that a value also works and then, after "but", sets it against the answer's rank:
 * "Larger values such as $n = 12$ also work, but we want the smallest.", "Of course $n = 12$ also works, but $6$
 * is the least." The answer is a least or greatest value; the others that work are no other answer to it.
 */
function ranksBelowOrAbove(sentence: string): boolean {
  const but = /\bbut\b/i.exec(sentence);
  return but !== null && ANOTHER.test(sentence.slice(0, but.index)) && ORDER.test(sentence);
}

const ORDER = /\b(?:smaller|larger|bigger|greater|least|smallest|largest|biggest|greatest|minimal|maximal|minimum|maximum)\b/i;
