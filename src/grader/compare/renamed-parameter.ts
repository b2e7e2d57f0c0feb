/**
 * An integer parameter a reply names as it likes: "$x = 2n\pi$" for a reference "$x = 2k\pi$", "$\frac{\pi}{4} + m\pi$"
 * for "$\frac{\pi}{4} + k\pi$". The letter ranges over the integers and is no constant of the problem, so the two are
 * one family of values; compared letter for letter, a right answer was graded different, sure of it. It is a renaming
 * only where the question names neither letter: "For a positive integer $n$, …" makes $n$ the problem's, and
 * "$2n\pi$" is then another value than "$2k\pi$". Without the question, nobody can say which, so a match is `unsure`.
 */
import { mathLetters, renameMathLetter } from '../latex/math-letters.ts';
import type { Verdict } from '../parse/types.ts';

/** Letters conventionally an integer that runs through a family: k, m, n, j, l. */
const INTEGER_PARAMETER = /^[kmnjl]$/;

/** The letters of `tex` that `other` does not use, once each. */
function ownLetters(tex: string, other: string): string[] {
  const others = new Set(mathLetters(other));
  return [...new Set(mathLetters(tex))].filter((letter) => !others.has(letter));
}

/** What a side states, without the letter it is stated under: "x = 2k\pi" is "2k\pi". */
function valueOf(tex: string): string {
  return tex.replace(/^\s*[a-zA-Z]\s*=/, '').trim();
}

/**
 * The verdict on `pred` against `gold` where each uses one integer parameter the other does not and they are equal once
 * the parameter has one name: `equal` where the question (`given`, its letters) names neither, `unsure` without a
 * question; null otherwise (another difference, the question's letter, or a lone letter, which may be its variable),
 * for the other rules. `compare` grades two values.
 */
export function renamedParameterVerdict(gold: string, pred: string, compare: (gold: string, pred: string) => Verdict, given: ReadonlySet<string> | undefined): Verdict | null {
  const [goldLetter, ...goldRest] = ownLetters(valueOf(gold), valueOf(pred));
  const [predLetter, ...predRest] = ownLetters(valueOf(pred), valueOf(gold));
  if (goldLetter === undefined || predLetter === undefined || goldRest.length > 0 || predRest.length > 0) return null;
  if (!INTEGER_PARAMETER.test(goldLetter) || !INTEGER_PARAMETER.test(predLetter)) return null;
  if (given?.has(goldLetter) === true || given?.has(predLetter) === true) return null;
  // "n" against "k": a letter alone is no family of values; it may be the question's variable in other words.
  if (valueOf(gold) === goldLetter || valueOf(pred) === predLetter) return null;
  // A letter that renames nothing (inside a word of \text{}: "Evelyn" against "Evelyk") leaves the pair as it was, and
  // grading it again came back here until the stack ran out.
  const renamed = renameMathLetter(pred, predLetter, goldLetter);
  if (renamed === pred || compare(gold, renamed) !== 'equal') return null;
  return given === undefined ? 'unsure' : 'equal';
}
