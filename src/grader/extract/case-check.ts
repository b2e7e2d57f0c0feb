/**
 * A sentence after the answer that only says a case of it can be checked: "Actually, when $n = 3$ this is also easy to
 * verify directly.", "For $n = 3$ one can check this by hand." Its only mathematics is the case it names; it states no
 * value of its own. Read as the last math, the case's 3 was the answer, and its "Actually" with "when" was read as a
 * reopening on a condition: a wrong 9 before it was graded unsure, a right 10 unsure too.
 */
import { mathSegments, numbers } from './segments.ts';

/** Words that open a condition: what follows them, up to its first value, is the case and not a value stated. */
const CONDITION_WORD = /\b(?:if|unless|when|whenever|assuming|provided|for|at|with)\b/gi;

/** Words that say something is checked, not found: "verify", "check", "confirm". */
const CHECKS = /\b(?:verif(?:y|ies|ied|ying|iable|ication)|check(?:s|ed|ing|able)?|confirm(?:s|ed|ing)?)\b/i;

/** A case: one letter set to a number ("n = 3", "k=10"). */
const CASE_VALUE = /^\s*[a-zA-Z](?:_\{?\w+\}?)?\s*=\s*-?\d+(?:\.\d+)?\s*$/;

/**
 * `sentence` without the first value after each condition word, within its clause: "if $n = 0$ is allowed, it is
 * $13$" keeps "$13$", the value the sentence states under that condition.
 */
export function withoutConditionValues(sentence: string): string {
  const segments = mathSegments(sentence);
  const bare = numbers(sentence).filter((n) => !segments.some((s) => s.start <= n.start && n.start < s.end));
  const cuts: Array<[number, number]> = [];
  for (const word of sentence.matchAll(CONDITION_WORD)) {
    const from = word.index + word[0].length;
    const segment = segments.find((s) => s.start >= from);
    const number = bare.find((n) => n.start >= from);
    const first = segment !== undefined && (number === undefined || segment.start < number.start) ? segment : number;
    if (first !== undefined && !/[,;:]/.test(sentence.slice(from, first.start))) cuts.push([first.start, first.end]);
  }
  let out = sentence;
  for (const [start, end] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + out.slice(end);
  return out;
}

/** Whether `sentence` states no value outside the cases its conditions name. */
export function statesNoValueBeyondItsCase(sentence: string): boolean {
  return !/\d|\$|\\[([]/.test(withoutConditionValues(sentence));
}

/**
 * Whether `sentence` says that something is checked or verified and states no value outside the cases its conditions
 * name: "Actually, when $n = 3$ this is also easy to verify directly." Words that only name a case ("Wait, when $n =
 * 3$ this breaks down.") say nothing checked: read as remarks, a reply that doubts its answer was graded sure of it.
 */
export function checksOnlyItsCases(sentence: string): boolean {
  return CHECKS.test(sentence) && statesNoValueBeyondItsCase(sentence);
}

/** Whether `sentence` only says that a case of the answer, one letter set to a number, can be checked. */
export function isCaseCheck(sentence: string): boolean {
  const math = mathSegments(sentence);
  return CHECKS.test(sentence) && math.length > 0 && math.every((s) => CASE_VALUE.test(s.text)) && statesNoValueBeyondItsCase(sentence);
}
