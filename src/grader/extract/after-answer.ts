/**
 * What a reply says after its answer that changes it: a sentence that adds
 * another solution ("Also $x = 2$ works.", "Another solution is $x = 2$.",
 * "Note that $x = 2$ also satisfies the equation."). Read as a remark, an
 * added solution was dropped: the first value alone was graded equal to a
 * reference that holds it alone, sure of it. After a box or an announcement
 * which of the two the reply settled on only a reader can tell; after an
 * unannounced answer the added value joins it. A conclusion after the last box
 * states an answer as an announcement there does. Words that reopen an answer:
 * reopened-answer.ts.
 */
import { lastBoxedAnswer } from './boxes.ts';
import { firstJoined, joinedUpTo } from './joined-values.ts';
import { LONE_SYMBOL, mathSegments, numbers, sentencesOf } from './segments.ts';
import { REJECTS } from './denied.ts';

/**
 * Words that say a sentence adds a value to the answer, and words that say the value solves the problem too. A
 * connective alone ("Moreover, the solution $x = y = z = 1$ attains it.") adds a statement, not a solution.
 */
export const ANOTHER = /\b(?:also|too|as\s+well|another)\b/i;
export const SOLVES = /\b(?:works?|satisf(?:y|ies)|solutions?|roots?|valid|qualif(?:y|ies))\b/i;

/** A sentence that opens on a conclusion: "Therefore, …", "Thus …", "In conclusion, …". */
export const CONCLUDING = /^(?:therefore|thus|hence|so|consequently|in\s+conclusion)\b/i;

/** How much of a response after its answer is read for words that reopen it or add to it. */
const STATEMENT_TAIL = 2000;

/** What a response says after `from` (the end of its answer), without the delimiter that closes the answer's math. */
export function tailAfter(text: string, from: number): string {
  return text.slice(from, from + STATEMENT_TAIL).replace(/^\s*(?:\$\$?|\\[)\]])/, '');
}

/** Whether a sentence adds a solution it states in mathematics: "Also $x = 2$ works.", "$x = 2$ is another root." */
export function addsSolution(sentence: string): boolean {
  // "(the other root $x = 3$ is extraneous)": a value the sentence rejects adds nothing.
  // "These also satisfy the equation for every $c$.": a lone letter is no value, and the sentence speaks of the answer.
  const values = mathSegments(sentence).filter((s) => !LONE_SYMBOL.test(s.text));
  return values.length > 0 && ANOTHER.test(sentence) && SOLVES.test(sentence) && !REJECTS.test(sentence) && !itAlsoSolves(sentence, values);
}

/**
 * Whether a sentence says that the answer itself, as "this" or "it", also solves, and states no value under a letter:
 * "Check: $7 \cdot 3 = 21$, which is not divisible by $4$, so this also works." Read as adding its arithmetic as
 * solutions, a right 7 was graded "4, 7", different, or unsure after its box.
 */
function itAlsoSolves(sentence: string, values: readonly { text: string }[]): boolean {
  const pronoun = /\b(?:this|it)\s+(?:also\b|(?:works?|satisfies|holds|qualifies)\s+(?:too|as\s+well)\b)/i.test(sentence);
  return pronoun && !values.some((s) => /^\s*[a-zA-Z](?:_\{?\w+\}?)?\s*=/.test(s.text));
}

/**
 * Whether a sentence speaks of the answer itself: it restates the answer and states no other value under a letter
 * ("It is easy to check that $f(x) = x$ also satisfies the equation.", "Plugging in $n = 7$: $7^2 = 49$, which also
 * satisfies the second condition."), or it says so of "this" or "it" before any mathematics ("This is also the
 * number of roots of $p$."). Read as adding a solution, a right box and its check were graded unsure.
 */
export function restates(sentence: string, answer: string): boolean {
  const math = mathSegments(sentence);
  // "This is also the number of roots of $p$": the answer is what solves; "It is also true that $x = 5$ is a root": the math does.
  if (/^\s*(?:this|it)\s+(?:is|was)\b/i.test(sentence) && SOLVES.test(sentence.slice(0, math[0]?.start ?? sentence.length))) return true;
  const same = (tex: string): boolean => bareValue(tex) === bareValue(answer);
  const otherLabelled = math.some((s) => /^\s*[a-zA-Z](?:_\{?\w+\}?)?\s*=/.test(s.text) && !same(s.text));
  return answer !== '' && math.some((s) => same(s.text)) && !otherLabelled;
}

/** A value without its label and spaces: "n = 3" and "3" are one value, "f(x) = x" stays. */
export function bareValue(tex: string): string {
  return tex.replace(/^\s*[a-zA-Z]\s*=/, '').replace(/\s+|\$/g, '');
}

/**
 * A paragraph whose last sentence adds a solution to the answer before it ("So $x = 1$. Also $x = 2$ works."):
 * the paragraph before that sentence, and the values the sentence adds; null for any other paragraph.
 */
export function addedSolution(paragraph: string): { before: string; added: string } | null {
  const all = sentencesOf(paragraph.trimEnd());
  const last = all[all.length - 1];
  if (last === undefined || all.length < 2 || !addsSolution(last.text)) return null;
  const before = paragraph.slice(0, last.start);
  // "Therefore $f(x) = 2x$. Conversely, $f(x) = 2x$ also satisfies the equation, since …": a check of the value before,
  // as after a box; joined to it, its arithmetic made the right f(x) = 2x different.
  if (restates(last.text, mathSegments(before).at(-1)?.text ?? '')) return null;
  const math = mathSegments(last.text).filter((s) => !LONE_SYMBOL.test(s.text));
  // "So we get $12$, but $15$ is a solution too.": a sentence that states a value before the one it adds offers both
  // (offered-alternative.ts); read as adding 15 alone to nothing before, it made 15 the answer, equal to a reference 15.
  if (firstJoined(last.text, math, math.length - 1) > 0) return null;
  return { before, added: joinedUpTo(last.text, math, math.length - 1) };
}

/** The one number a sentence in words states ("Therefore, there are 13 ways."); null for none or several. */
function soleNumber(sentence: string): string | null {
  const found = numbers(sentence);
  return found.length === 1 ? (found[0]?.text ?? null) : null;
}

/**
 * Whether every value of a concluding sentence is where or for what its claim holds, after a preposition or an
 * article: "Thus the minimum is attained at $x = 2$.", "Therefore, each of the $2$ players wins." Read as a second
 * answer, a right box was graded unsure. "So the count is $22$ for $n = 5$." states 22.
 */
function valuesAreObjects(sentence: string): boolean {
  // "… and it fails for every smaller $n$": a lone letter is no value.
  const all = mathSegments(sentence);
  const math = all.filter((s) => !LONE_SYMBOL.test(s.text));
  // "Thus the answer does not depend on $a_0$.": the 0 of a lone letter's index is no value either.
  const values = math.length > 0 || all.length > 0 ? math : numbers(sentence);
  return values.every((value) => /\b(?:at|for|of|in|on|when|with|by|from|to|each|all|both|the|any|every|if|where)\s*$/i.test(sentence.slice(0, value.start)));
}

/**
 * The answers that sentences after the last box (which ends at `from`; -1 for none) state when they open on a
 * conclusion: "$\boxed{12}$. So there are $13$ ways in total." The reply concludes twice; read as a restatement,
 * the second value was never seen and the box was graded equal, sure of it. `read` reads a sentence's answer
 * (extract.ts extractAnswer, passed in: extract.ts reads added solutions from here).
 */
export function concludedAfter(text: string, from: number, read: (sentence: string) => string | null): string[] {
  if (from < 0) return [];
  const box = lastBoxedAnswer(text) ?? '';
  // "Therefore, the minimum value $7$ is attained when $x = y = 1$.": a conclusion that restates the box is about it.
  // "Thus, because $4 = 2^2$, the answer is a perfect square.": an equation that opens or closes on the box's value is about it.
  const sides = (tex: string): string[] => [tex, ...tex.split('=').filter((_, k, all) => k === 0 || k === all.length - 1)];
  const restatesBox = (sentence: string): boolean => mathSegments(sentence).some((s) => sides(s.text).some((side) => bareValue(side) === bareValue(box)));
  return sentencesOf(tailAfter(text, from))
    .filter((sentence) => CONCLUDING.test(sentence.text.trim()) && /\d|\$|\\[([]/.test(sentence.text))
    .filter((sentence) => !valuesAreObjects(sentence.text) && !restatesBox(sentence.text))
    .flatMap((sentence) => read(sentence.text) ?? soleNumber(sentence.text) ?? [])
    .filter((answer) => !BOUND.test(answer));
}

/**
 * A bound or an inequation, which a conclusion after the box draws from its value rather than answering again: "The
 * minimum is $\boxed{5}$. Hence $f(x) \ge 5$ for all $x$.", "Therefore $n \ne 4$." Read as a second answer, the
 * right box was graded unsure.
 */
const BOUND = /\\(?:ne|neq|ge|geq|le|leq|geqslant|leqslant)(?![a-zA-Z])|[<>≤≥≠]/;
