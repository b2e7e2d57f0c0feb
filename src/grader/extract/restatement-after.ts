/**
 * The value a reply restates its answer as, right after it: "$\frac{1}{4}$, which is $20\%$", "$\boxed{12}$ (i.e.,
 * $13$)". Where the restatement is another value the reply contradicts itself: read past, the answer was graded equal
 * to its reference, sure of it (grade.ts makes that unsure). A restatement that is the same value ("$\frac{1}{4}$, which
 * is $25\%$") changes nothing.
 */
import { lastBoxEnd } from './boxes.ts';
import { announcedAnswer } from './extract.ts';
import { IN_NOTATION_AFTER } from './in-notation.ts';

/** After an answer, to the end of its sentence: ", which is V", ", i.e., V", ", that is, V", "(= V)", "(i.e. V)". */
const RESTATED_AS =
  /^\s*(?:,\s*(?:which\s+(?:is|equals)|i\.\s?e\.,?|that\s+is,?)|\(\s*(?:=|i\.\s?e\.,?|that\s+is,?))\s*(\$[^$\n]{1,40}\$|-?\d[\d,]*(?:\.\d+)?(?:\/\d+)?%?)\s*\)?\s*(?:[.!]|$)/i;

/** ", or $0.0625$ as a decimal", "— or $25\%$ as a percentage": the answer in another notation (statement.ts). */
const IN_NOTATION = new RegExp(String.raw`^\s*[,—–]\s*or\s+(?=${IN_NOTATION_AFTER})(\$[^$\n]{1,40}\$|-?\d[\d.,]*%?)`, 'i');

/** A value set in mathematics or a plain number right after an announcement: its end; -1 for none. */
function valueEnd(text: string, from: number): number {
  const value = /^\s*(?:\$[^$\n]{1,80}\$|-?\d[\d,]*(?:\.\d+)?(?:\/\d+)?%?)/.exec(text.slice(from, from + 200));
  return value === null ? -1 : from + value[0].length;
}

/** After a value set in mathematics: ", or $0.0625$ as a decimal", the value restated (group 1). */
const IN_NOTATION_AFTER_MATH = new RegExp(String.raw`\$\s*[,—–]\s*or\s+(?=${IN_NOTATION_AFTER})(\$[^$\n]{1,40}\$|-?\d[\d.,]*%?)`, 'gi');

/** How much of the end of a reply is searched for an unannounced answer's restatement. */
const UNANNOUNCED_TAIL = 600;

/**
 * The value an unannounced answer, the last math of the reply, is restated as in another notation: "So the probability
 * is $\frac{1}{16}$, or $0.0625$ as a decimal." Not read, "$\frac{1}{16}$, or $0.07$ as a decimal" was graded equal to
 * 1/16 once the restatement was cut as a remark (remarks.ts); null where no such restatement closes the reply.
 */
function unannouncedRestatement(final: string): string | null {
  const tail = final.trimEnd().slice(-UNANNOUNCED_TAIL);
  const found = [...tail.matchAll(IN_NOTATION_AFTER_MATH)].pop();
  if (found === undefined) return null;
  // Nothing but words may follow it: a later value is the reply's, not this restatement's.
  const after = tail.slice(found.index + found[0].length);
  return /\$|\d|\n\s*\n/.test(after) ? null : (found[1] ?? null);
}

/** The value the answer of `final` (its last box, else its announced value, else its last math) is restated as right after it; null for none. */
export function restatementAfterAnswer(final: string): string | null {
  const box = lastBoxEnd(final);
  const announced = announcedAnswer(final);
  const end = box >= 0 ? box : announced === null ? -1 : valueEnd(final, announced.end);
  if (end < 0) return unannouncedRestatement(final)?.replace(/^\$|\$$/g, '').trim() ?? null;
  const after = final.slice(end, end + 200).replace(/^\s*(?:\$\$?|\\[)\]])/, '');
  const restated = (RESTATED_AS.exec(after) ?? IN_NOTATION.exec(after))?.[1]?.replace(/^\$|\$$/g, '').trim() ?? null;
  // "$\boxed{2}$, which is $p$": a lone letter names the answer, it restates no value.
  return restated === null || /^[a-zA-Z]$/.test(restated) ? null : restated;
}
