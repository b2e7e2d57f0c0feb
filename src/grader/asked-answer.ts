/**
 * The answer a response gives to its question: one reading of it, which the
 * grade compares, the result line shows and the vote counts. It is the answer
 * extracted from the response, except where the response ends on a sentence
 * that names several quantities ("The roots are $1$ and $2$; the sum is $3$.")
 * and the question asks for one of them ("Find the sum …"): then it is that
 * quantity's value; or on a count and its list ("There are $3$ such $n$: $1, 2, 5$.")
 * and the question asks how many: then it is the count. Shown and voted on as extracted while graded as the clause
 * asked for, a line read `1, 2` under a right grade, and two responses the
 * grade told apart (sums 3 and 4 of the same roots) counted as one answer.
 */
import { afterReasoning } from './extract/extract.ts';
import { andJoinedClauses, askedClause, askedClauses, labelledClauses, type LabelledClause } from './extract/labelled-clauses.ts';
import { countAndList } from './extract/count-and-list.ts';
import { askedQuantity, namedQuantities } from './extract/named-quantities.ts';
import type { GradeContext } from './parse/types.ts';

/** "How many …", "Find the number of …": a question whose answer is a count, so that "no such n" answers 0. */
const HOW_MANY = /\bhow\s+many\b|\b(?:find|determine|compute|calculate|count|what\s+is|give)\s+the\s+(?:total\s+)?number\s+of\b/i;

/** Whether `question` asks for a count. */
export function asksHowMany(question: string | undefined): boolean {
  return question !== undefined && HOW_MANY.test(question);
}

/** Text without its white space: a clause and the extraction write the same value with other spacing. */
function squeezed(tex: string): string {
  return tex.replace(/\s+/g, '');
}

/**
 * The answer `extracted` (from `context.response`) gives to `context.question`: the value of the clause the question
 * asks for when the response's last sentence names several quantities and `extracted` is one of them; `extracted`
 * otherwise (no question, no response, no such ending, or a question that names none of them or several).
 *
 * @example askedAnswer('1, 2', { question: 'Find the sum of the roots.', response: 'The roots are $1, 2$; the sum is $3$.' }) // '3'
 */
export function askedAnswer(extracted: string | null, context: GradeContext | undefined): string | null {
  if (extracted === null || context?.response === undefined) return extracted;
  if (context.question === undefined) return unaskedAnswer(extracted, context.response);
  try {
    const final = afterReasoning(context.response);
    // "There are $3$ such $n$: $1, 2, 5$." read as its list: the count, where the question asks how many (count-and-list.ts).
    const counted = countAndList(final);
    if (counted !== null && asksHowMany(context.question) && squeezed(counted.list) === squeezed(extracted)) return counted.count;
    // "5 units wide and 3 units tall": the value of the quantity the question names ("the width"), if it names one.
    const quantities = namedQuantities(extracted);
    if (quantities !== null) return askedQuantity(quantities, context.question) ?? extracted;
    // "So $x = 5$ and $y = 3$." read as "x = 5, y = 3": the value of the letter the question asks for ("Find $x$.").
    const letters = letterValues(extracted);
    if (letters !== null) return askedClause(letters, context.question)?.value ?? extracted;
    const clauses = labelledClauses(final);
    if (clauses === null || !clauses.some((clause) => squeezed(clause.value) === squeezed(extracted))) return extracted;
    // "Find the smallest and the largest …": every value asked, in the order the question asks for them.
    return askedClauses(clauses, context.question)?.map((clause) => clause.value).join(', ') ?? extracted;
  } catch {
    // A response the clauses cannot be read in gives its extracted answer.
    return extracted;
  }
}

/** A name of one end of a range of values: "largest", "minimum", "least". */
const RANGE_END = /^(?:largest|smallest|greatest|least|biggest|highest|lowest|maximum|minimum|max|min|larger|smaller|greater|lesser)$/i;

/** A clause that names the answer itself: what it states concludes, whatever the other clauses name. */
const NAMES_THE_ANSWER = /^(?:answer|result|final)$/i;

/**
 * The answer of a response graded without its question: where its last sentence gives several quantities under their
 * names, in clauses "and the … is" joins, and the extraction took the last of them ("The largest is $13$ and the smallest is $12$."), those clauses, a
 * sentence only a reader who knows the question can settle (graded unsure); `extracted` otherwise. Read as 12, the
 * smallest was graded equal to a reference 12 where the largest may have been asked. A first clause that a remark
 * follows ("The volume is $64$; the side is $4$.") is the extraction's, and stays.
 */
function unaskedAnswer(extracted: string, response: string): string {
  try {
    const final = afterReasoning(response);
    const joined = andJoinedClauses(final);
    const last = joined?.[joined.length - 1];
    // "The largest is $13$; the smallest is $12$.", "The minimum is $5$. The maximum is $9$.": the two ends of a range,
    // neither a remark on the other, however they are joined; read as the first or the last, one end was graded.
    const ends = labelledClauses(final);
    const clauses = ends !== null && ends.every((clause) => RANGE_END.test(clause.label)) && ends.some((c) => squeezed(c.value) === squeezed(extracted)) ? ends : joined;
    if (clauses === null || (clauses === joined && (last === undefined || squeezed(last.value) !== squeezed(extracted)))) return extracted;
    if (clauses.some((clause) => NAMES_THE_ANSWER.test(clause.label)) || clauses.every((clause) => squeezed(clause.value) === squeezed(extracted))) return extracted;
    return clauses.map((clause) => `the ${clause.label.replace(/\$/g, '')} is ${clause.value}`).join(' and ');
  } catch {
    // A response the clauses cannot be read in gives its extracted answer.
    return extracted;
  }
}

/** "x = 5, y = 3": values each under a letter of its own, none holding a comma. */
const LETTER_VALUES = /^\s*[a-zA-Z]\s*=\s*[^,=]+(?:,\s*[a-zA-Z]\s*=\s*[^,=]+)+$/;

/**
 * The values of an extracted answer that states each under its own letter, as clauses named by their letters
 * (labelled-clauses.ts); null for any other answer, or a letter named twice ("x = 1, x = 2" is a list of solutions).
 * Read as a whole, "x = 5, y = 3" was graded different from the right 5 where the question asked for $x$, sure of it.
 */
function letterValues(extracted: string): LabelledClause[] | null {
  if (extracted.length > 400 || !LETTER_VALUES.test(extracted)) return null;
  const clauses = extracted.split(',').map((part) => {
    const [letter = '', value = ''] = part.split('=').map((side) => side.trim());
    return { label: `$${letter}$`, value, counts: false };
  });
  return new Set(clauses.map((clause) => clause.label)).size === clauses.length ? clauses : null;
}
