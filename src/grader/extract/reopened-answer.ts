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
import { addsSolution, bareValue, SOLVES, tailAfter } from './after-answer.ts';
import { mathSegments, sentencesOf } from './segments.ts';

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
  return sentencesOf(after).some((sentence) => addsSolution(sentence.text) && !restates(sentence.text, answer ?? ''));
}

/**
 * Whether a sentence speaks of the answer itself: it restates the answer and states no other value under a letter
 * ("It is easy to check that $f(x) = x$ also satisfies the equation.", "Plugging in $n = 7$: $7^2 = 49$, which also
 * satisfies the second condition."), or it says so of "this" or "it" before any mathematics ("This is also the
 * number of roots of $p$."). Read as adding a solution, a right box and its check were graded unsure.
 */
function restates(sentence: string, answer: string): boolean {
  const math = mathSegments(sentence);
  // "This is also the number of roots of $p$": the answer is what solves; "It is also true that $x = 5$ is a root": the math does.
  if (/^\s*(?:this|it)\s+(?:is|was)\b/i.test(sentence) && SOLVES.test(sentence.slice(0, math[0]?.start ?? sentence.length))) return true;
  const same = (tex: string): boolean => bareValue(tex) === bareValue(answer);
  const otherLabelled = math.some((s) => /^\s*[a-zA-Z](?:_\{?\w+\}?)?\s*=/.test(s.text) && !same(s.text));
  return answer !== '' && math.some((s) => same(s.text)) && !otherLabelled;
}
