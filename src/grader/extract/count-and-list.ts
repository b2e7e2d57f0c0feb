/**
 * A last sentence that gives a count and then the things counted: "There are $3$ such $n$: $1, 2, 5$.", "So there
 * are exactly 3 values, namely $n = 1$, $n = 2$ and $n = 5$." The extraction reads the list; which of the two
 * answers is the question's: "How many …" asks the count, "Find all …" the list. Read as the list alone, the right
 * count was graded different, sure of it.
 */
import { mathSegments, sentencesOf } from './segments.ts';
import { endWindow } from './end-window.ts';
import { joinedUpTo } from './joined-values.ts';

/** What a count counts: "such", a noun of answers, or a letter set as math ("$3$ such $n$", "three integers"). */
const COUNTED = String.raw`(?:[^:$.;]{0,30}?\b(?:such|solutions?|values?|integers?|numbers?|pairs?|triples?|tuples?|primes?|roots?|functions?|polynomials?|elements?|choices?|possibilities)\b[^:$.;]{0,30}?|[^:$.;]{0,20}?\$[^$]{1,10}\$[^:$.;]{0,20}?)`;

/** "there are $3$ such $n$:", "there are exactly three values, namely": a count, then what introduces its members. */
const COUNT_THEN_LIST = new RegExp(
  String.raw`\bthere\s+(?:are|is|exist|exists)\s+(?:exactly\s+|only\s+|precisely\s+)?(\$[^$]{1,20}\$|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+` +
    COUNTED +
    String.raw`(?::|,?\s*namely|,?\s*which\s+are|,?\s*i\.e\.,?)\s*$`,
  'i',
);

export interface CountAndList {
  count: string;
  list: string;
}

/** The count and the list the last sentence of `final` gives, or null when it gives no count before its list. */
export function countAndList(final: string): CountAndList | null {
  // A sentence looped until the window was full is read at its end only (end-window.ts).
  const last = endWindow(sentencesOf(final.trimEnd()).map((s) => s.text).filter((s) => s.trim() !== '').pop() ?? '');
  const math = mathSegments(last);
  for (let k = 0; k < math.length; k += 1) {
    const segment = math[k];
    if (segment === undefined) continue;
    const lead = COUNT_THEN_LIST.exec(last.slice(0, segment.start));
    if (lead?.[1] === undefined) continue;
    // The list: this segment and those only separators join to it, to the last of the sentence.
    const list = joinedUpTo(last, math, math.length - 1);
    if (!list.startsWith(segment.text)) return null;
    return { count: lead[1].replace(/\$/g, '').trim(), list };
  }
  return null;
}
