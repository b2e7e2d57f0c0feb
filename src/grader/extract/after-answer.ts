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
import { joinedUpTo } from './joined-values.ts';
import { LONE_SYMBOL, mathSegments, numbers, sentencesOf } from './segments.ts';
import { REJECTS } from './denied.ts';

/**
 * Words that say a sentence adds a value to the answer, and words that say the value solves the problem too. A
 * connective alone ("Moreover, the solution $x = y = z = 1$ attains it.") adds a statement, not a solution.
 */
const ANOTHER = /\b(?:also|too|as\s+well|another)\b/i;
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
  return /\$|\\[([]/.test(sentence) && ANOTHER.test(sentence) && SOLVES.test(sentence) && !REJECTS.test(sentence);
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
  const math = mathSegments(last.text);
  return { before: paragraph.slice(0, last.start), added: joinedUpTo(last.text, math, math.length - 1) };
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
  const math = mathSegments(sentence).filter((s) => !LONE_SYMBOL.test(s.text));
  const values = math.length > 0 ? math : numbers(sentence);
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
  const restatesBox = (sentence: string): boolean => mathSegments(sentence).some((s) => bareValue(s.text) === bareValue(box));
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
