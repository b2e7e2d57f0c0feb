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

/** Words that reopen an answer already given: "Wait, I made an error", "Actually, we missed two cases", "Hmm, let me recheck". */
const REOPENS = /\b(?:wait|actually|hmm+|oops|mistake|error|wrong|incorrect|re-?check|reconsider|correction|on\s+second\s+thought)\b/i;

/**
 * Whether a response reopens its answer, or adds another, after giving it: after its last box or announcement,
 * words that reopen it and then a number or mathematics, or a sentence that adds a solution.
 */
export function reopensAnswer(response: string): boolean {
  const final = afterReasoning(response);
  const end = Math.max(lastBoxEnd(final), announcedAnswer(final)?.end ?? -1);
  if (end < 0) return false;
  const after = tailAfter(final, end);
  const reopened = REOPENS.exec(after);
  if (reopened !== null && /\d|\$|\\[(\[]/.test(after.slice(reopened.index))) return true;
  const answer = lastBoxEnd(final) === end ? lastBoxedAnswer(final) : announcedAnswer(final)?.text;
  // "Yes. For instance, $n = 6$ works, and $n = 10$ works as well.": values after a yes or a no are its examples.
  if (YES_OR_NO.test(answer ?? '')) return false;
  return sentencesOf(after).some((sentence) => addsSolution(sentence.text) && !restates(sentence.text, answer ?? '') && !ranksBelowOrAbove(sentence.text));
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
