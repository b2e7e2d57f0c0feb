/**
 * Several values a reply gives under their names, read as its answer: "The minimum is $3$ and the maximum is $8$." to
 * "Find the minimum and the maximum." (asked-answer.ts), "The smallest and largest values are 12 and 13, respectively."
 * (respective-values.ts). Against a reference that is one value, which of them it is only a reader can tell: graded
 * as the list, the right maximum 8 (or 13 to "Find the largest value.") was different, sure of it.
 */
import { afterReasoning } from './extract/extract.ts';
import { askedClauses, labelledClauses } from './extract/labelled-clauses.ts';
import { respectiveValues } from './extract/respective-values.ts';
import type { GradeContext } from './parse/types.ts';

/** Text without its white space: the list and the clauses write the same values with other spacing. */
function squeezed(tex: string): string {
  return tex.replace(/\s+/g, '');
}

/**
 * The values `answer` lists where the reply states each under its own name: the clauses its question asks for
 * together, or the values a closing sentence gives "respectively"; null for any other answer.
 */
export function namedValuesOf(answer: string, context: GradeContext | undefined): string[] | null {
  if (context?.response === undefined) return null;
  try {
    const final = afterReasoning(context.response);
    const clauses = context.question === undefined ? null : labelledClauses(final);
    const asked = clauses === null || context.question === undefined ? null : askedClauses(clauses, context.question);
    if (asked !== null && asked.length > 1 && squeezed(asked.map((clause) => clause.value).join(',')) === squeezed(answer)) {
      return asked.map((clause) => clause.value);
    }
    const respective = respectiveValues(final.trimEnd());
    return respective !== null && squeezed(respective.values) === squeezed(answer) ? respective.values.split(', ') : null;
  } catch {
    // A reply whose clauses cannot be read names no values.
    return null;
  }
}
