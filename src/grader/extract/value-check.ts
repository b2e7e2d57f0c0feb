/**
 * What a reply writes after its answer that is no answer: a check of a value ("$5^2 = 25$ works.", ", and
 * $3 \cdot 4 = 12$ checks out") and a caveat ("There is one subtlety: $n = 0$.", "One caveat: …"). Read as the last
 * math, the check's 25 or the caveat's n = 0 was the answer: a wrong reference 25 graded equal, the right 5 different.
 * A check is arithmetic, mathematics without a letter, that the words after it call true; "So $x = 5$ works." names
 * a value under a letter and may be the answer itself, and "Thus $3 \cdot 4 = 12$." has no word of a check.
 */
import { mathSegments } from './segments.ts';
import { mathLetters } from '../latex/math-letters.ts';

/** Words that call what comes before them true: "works", "holds", "checks out", "is satisfied", "as required", "✓". */
const VERDICT = String.raw`(?:works|holds|checks(?:\s+out)?|is\s+(?:indeed\s+)?(?:satisfied|true|correct|valid|consistent|fine)|as\s+(?:required|expected|claimed|desired)|✓|✔)`;

/**
 * A sentence or a clause that is only a check: a few words at most before its mathematics ("and", "Indeed,", "Check:"),
 * its mathematics joined by "and" or commas, then a verdict and its full stop.
 */
const CHECK_SHAPE = new RegExp(String.raw`^[\s*,;]*(?:[\p{L}]+[\s,:]+){0,3}?(?:\$[^$]+\$(?:\s*(?:,|and)\s*)?)+\s*` + VERDICT + String.raw`\s*[.!]?\s*$`, 'iu');

/** An equation or inequality between numbers: "5^2 = 25", "2 \cdot 3 + 1 = 7", "3 < 4". */
function isArithmeticRelation(tex: string): boolean {
  return /=|<|>|\\(?:le|ge|leq|geq|neq|ne)(?![a-zA-Z])/.test(tex) && mathLetters(tex).length === 0;
}

/** Whether `text` (a sentence, or a clause after the value) only checks a value: arithmetic it calls true. */
export function isValueCheck(text: string): boolean {
  if (!CHECK_SHAPE.test(text)) return false;
  const math = mathSegments(text);
  return math.length > 0 && math.every((s) => isArithmeticRelation(s.text));
}

/**
 * A sentence that opens a caveat or an aside about the answer stated before it: "There is one subtlety: …", "One
 * caveat: …", "A subtle point is …", "As an aside, …", "Incidentally, …". Not "There is one exception", which may
 * change the answer, nor "There is one solution", which states it, nor "One subtlety aside, the answer is …".
 */
const CAVEAT =
  /^[\s*]*(?:(?:there\s+is\s+|there's\s+)?(?:one|a|an|another)\s+(?:(?:small|minor|important|further|last|final)\s+)?(?:subtlety|subtle\s+point|caveat|technicality|side\s+note)\s*(?::|\bis\b|\bhere\b|\bto\s+note\b|\bworth\b)|as\s+an\s+aside\b|incidentally\b|side\s+note\s*:|a\s+word\s+of\s+caution\b)/i;

/**
 * Words that carry a caveat on to a value it gives: "…, so the true count is $4$", "…, giving $4$". Such a caveat
 * corrects the answer before it: cut as an aside, "We get $5$. One caveat: the empty set is excluded, so the true count
 * is $4$." was 5, the right 4 graded different and a wrong 5 equal, sure of it. A verb of its own case stays an
 * aside: "As an aside, $n = 0$ gives $1$."
 */
const CARRIES_ON = /\b(?:so|thus|hence|therefore|giving|yielding|leaving)\b[^.!?\n]*?(?:\$|\\[([]|\d)/i;

/** Whether `sentence` (or a paragraph) is a caveat about the answer before it that gives no value of its own. */
export function isCaveat(sentence: string): boolean {
  return CAVEAT.test(sentence) && !CARRIES_ON.test(sentence);
}
