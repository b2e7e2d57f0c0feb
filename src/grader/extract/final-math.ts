/**
 * The looser extraction of other graders' data sets: a response's declared answer, else whichever of its last math
 * and its last number in prose comes last. Not the runtime's, whose prompts ask for a box.
 */
import { afterReasoning, declaredAnswer } from './extract.ts';
import { mathSegments, numbers, reduceMath, type Segment } from './segments.ts';

/**
 * Looser extraction for responses that neither box nor announce an answer:
 * after what {@link extractAnswer} reads first (box, announcement, choice
 * letter), whichever comes last of the last math segment
 * and the last number in prose (`numbers: false` leaves numbers out, for
 * graders that only read LaTeX). Meant for grading free-form outputs (other
 * graders' test data, chat models), not for the runtime's own prompts, which
 * ask for `\boxed{}`.
 */
export function extractFinalMath(whole: string, options?: { numbers?: boolean }): string | null {
  // What follows the reasoning, as extractAnswer reads it; all of it when nothing does.
  const final = afterReasoning(whole);
  const response = final.trim() === '' ? whole : final;
  const strict = declaredAnswer(response);
  if (strict !== null) return strict;
  const math = mathSegments(response);
  const lastMath = math[math.length - 1];
  const outside = blankOut(response, math);
  const nums = options?.numbers === false ? [] : numbers(outside);
  const lastNumber = nums[nums.length - 1];
  const chosen = pickLater(lastMath, lastNumber);
  if (chosen === undefined) return null;
  return chosen === lastMath ? reduceMath(chosen.text) : chosen.text;
}

function pickLater(a: Segment | undefined, b: Segment | undefined): Segment | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.start > a.start ? b : a;
}

/** Replaces the given segments by spaces so numbers inside them are not found twice. */
function blankOut(text: string, segments: readonly Segment[]): string {
  const pieces: string[] = [];
  let at = 0;
  for (const s of segments) {
    pieces.push(text.slice(at, s.start), ' '.repeat(s.end - s.start));
    at = s.end;
  }
  pieces.push(text.slice(at));
  return pieces.join('');
}
