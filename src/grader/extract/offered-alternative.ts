/**
 * A value offered as an alternative to the one before it, at the end of an
 * unannounced answer: "Hence we get $12$ (or possibly $13$).", "So it is $12$,
 * though it could be $13$." Read as the last math, the hedge's value was taken
 * for the answer, sure of it: a wrong reference 13 was graded equal. The
 * statement from the value before is read instead, hedge and all, as an
 * announced one is (statement.ts), so that the grade is unsure.
 */
import { ALTERNATIVE, statementAt } from './statement.ts';
import { JOINER } from './joined-values.ts';
import type { Segment } from './segments.ts';
import { lastBoxEnd } from './boxes.ts';

/** The statement from the math before the last of `paragraph` when the last is offered as its alternative, else null. */
export function offeredAlternative(paragraph: string, math: readonly Segment[]): string | null {
  const lastMath = math[math.length - 1];
  const previous = math[math.length - 2];
  if (lastMath === undefined || previous === undefined) return null;
  const gap = paragraph.slice(previous.end, lastMath.start);
  // "$x = 2$ or $x = 3$": a plain "or" joins the two into one answer already.
  if (JOINER.test(gap) || !ALTERNATIVE.test(`${gap}$`)) return null;
  return statementAt(paragraph, previous.start);
}

/**
 * Whether the last box of `final` is followed, in its sentence, by another value it offers: "$\boxed{12}$, or perhaps
 * $13$", "\boxed{12} (or possibly 13)", "$\boxed{12}$, though it could be $13$". The box is then one of two candidate
 * answers and the reply hedges between them: read alone, the box's 12 was graded equal to a reference 12, sure of it.
 */
export function alternativeAfterLastBox(final: string): boolean {
  const end = lastBoxEnd(final);
  return end >= 0 && ALTERNATIVE.test(final.slice(end, end + ALTERNATIVE_REACH));
}

/** How far after a box its alternative is looked for: the rest of its sentence. */
const ALTERNATIVE_REACH = 200;
