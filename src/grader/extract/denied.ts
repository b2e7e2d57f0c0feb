/**
 * Values a reply denies: "The sum is $10$. It is not $4$.", "It is not $4$;
 * it is $5$.", "So $n$ is not $4$." Read as the last math of the paragraph,
 * the denied value was taken for the answer, sure of it: a wrong reference 4
 * was graded equal. A value right after a negation ("not", "never", "cannot
 * be", "isn't", and the same in the languages whose announcements are read)
 * is no value the reply gives, so it is taken out of the paragraph before
 * the answer is looked for there. "not only $x = 1$", "not less than $5$"
 * (a bound) and "not $4$ but $5$"'s 5 are not denied.
 */
import { mathSegments } from './segments.ts';

/**
 * A negation that the next value completes, with words that only lead to the value ("not equal to", "cannot be
 * exactly"): what stands between them and the value must be nothing else.
 */
const DENIAL_BEFORE = new RegExp(
  String.raw`(?:\b(?:not|never|no\s+longer)|n['’]t|\bcannot(?:\s+be)?|\bcan\s+not(?:\s+be)?)` +
    String.raw`(?:\s+(?:be|equal(?:s|\s+to)?|exactly|just|simply|quite|always|possibly|the\s+answer))*\s*[:,]?\s*(?:\*\*)?\s*$|` +
    String.raw`(?:\bn['’]est\s+pas|\bist\s+nicht|\bno\s+es|\bnão\s+é|\bnon\s+è|\bне\s+(?:равн[аоы]?|равен|является)?|不是|不等于|不为)\s*$`,
  'iu',
);

/** How far before a value its negation is looked for: a few words. */
const DENIAL_REACH = 40;

/** `paragraph` without the math of each value it denies, the words around them kept. */
export function withoutDeniedValues(paragraph: string): string {
  const segments = mathSegments(paragraph);
  let out = '';
  let at = 0;
  for (const s of segments) {
    const before = paragraph.slice(Math.max(at, s.start - DENIAL_REACH), s.start);
    out += paragraph.slice(at, s.start);
    if (!DENIAL_BEFORE.test(before)) out += paragraph.slice(s.start, s.end);
    at = s.end;
  }
  return out + paragraph.slice(at);
}
