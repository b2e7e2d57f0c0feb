/**
 * How the values of one answer are joined in a text: the separators between
 * its math segments, the run of segments they join, and a value's case
 * followed by another. A leaf of the extraction: the statement after a marker
 * (statement.ts), exclusions, denials, added solutions and remarks all read
 * values joined the same way.
 */
import type { Segment } from './segments.ts';

/**
 * Text between two segments of one answer: a comma, "and", "or" (in the languages read), or nothing but space (and bold
 * marks; a lone "*" is a bullet). "as well as", "and also", "but also", "together with", "along with" add a value as "and" does: read
 * as a reason ("as …"), they left "$y=4$, as well as $y=9$" at 4, and a wrong reference 4 was graded equal.
 */
export const JOINER =
  /^(?:\s|\*\*)*(?:[,;](?:\s|\*\*)*)?(?:(?:(?:as\s+well\s+as|and\s+also|but\s+also|(?:together|along)\s+with|and|or|et|ou|und|oder|y|o)\b|(?:или|и)(?=\s)|或|和|与|及)(?:\s|\*\*)*)?$/i;

/** Words right before a segment that make it a reason or a condition: "since $x > 0$", "because $n \ge 2$". */
const REASON_BEFORE = /\b(?:since|because|as|given\s+(?:that\s+)?|provided\s+(?:that\s+)?)\s*$/i;

/**
 * The math segments up to `segments[last]` that only separators join to it
 * in one paragraph, joined by ", ": "$x = 2$ and $x = -3$" is "x = 2, x = -3".
 */
export function joinedUpTo(text: string, segments: readonly Segment[], last: number): string {
  return segments.slice(firstJoined(text, segments, last), last + 1).map((s) => s.text).join(', ');
}

/** The index of the first of the segments up to `segments[last]` that only separators join to it. */
export function firstJoined(text: string, segments: readonly Segment[], last: number): number {
  let first = last;
  for (let k = last - 1; k >= 0; k -= 1) {
    const gap = text.slice(segments[k]?.end ?? 0, segments[k + 1]?.start ?? 0);
    // "…, but since $x > 0$, $x = 12$": a segment that a reason or a condition opens is no value of the answer; joined to
    // it, "x > 0, x = 12" was graded different from the right 12, sure of it.
    const opened = REASON_BEFORE.test(text.slice(Math.max(0, (segments[k]?.start ?? 0) - 20), segments[k]?.start ?? 0));
    if (!JOINER.test(gap) || /\n\s*\n/.test(gap) || (opened && gap.includes(','))) break;
    first = k;
  }
  return first;
}

/**
 * A value's case followed by another case: "$4$ for $n \ge 2$ and $1$ for $n = 1$", "$0$ for $n$ odd, otherwise $1$".
 * Read as the value alone, the first case was the answer, equal to a reference 4, sure of it; "$4$ for $n = 3$" alone
 * is no answer by cases.
 */
export const CASE_THEN_ANOTHER = /^[\s*]*,?\s*for\s*(?:\$|\\\()[^.\n]*?(?:(?:\band\b|\bor\b|[,;])\s*(?:\$|\\\()[^.\n]*?\b(?:for|when|if)\b|\b(?:otherwise|else)\b)/i;
