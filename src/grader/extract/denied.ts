/**
 * Values a reply denies or rejects: "The sum is $10$. It is not $4$.", "It
 * is not $4$; it is $5$.", "So $n$ is not $4$.", "Hence $n = 7$. The case
 * $n = 8$ fails.", "Thus $x = 2$; $x = -2$ is rejected." Read as the last math of the paragraph,
 * the denied value was taken for the answer, sure of it: a wrong reference 4
 * was graded equal. A value right after a negation ("not", "never", "cannot
 * be", "isn't", and the same in the languages whose announcements are read)
 * is no value the reply gives, so it is taken out of the paragraph before
 * the answer is looked for there; a last sentence or clause that rejects the
 * values it names is taken out whole, reason and all, when the paragraph has
 * mathematics before it. "not only $x = 1$", "not less than $5$" (a bound)
 * and "not $4$ but $5$"'s 5 are not denied.
 */
import { mathSegments } from './segments.ts';
import { JOINER } from './joined-values.ts';

/**
 * A negation that the next value completes, with words that only lead to the value ("not equal to", "cannot be
 * exactly"): what stands between them and the value must be nothing else.
 */
const DENIAL_BEFORE = new RegExp(
  String.raw`(?:\b(?:not|never|no\s+longer|reject(?:s|ing)?|discard(?:s|ing)?|rule\s+out|ruling\s+out)|n['’]t|\bcannot(?:\s+be)?|\bcan\s+not(?:\s+be)?)` +
    String.raw`(?:\s+(?:be|equal(?:s|\s+to)?|exactly|just|simply|quite|always|possibly|the\s+answer))*\s*[:,]?\s*(?:\*\*)?\s*$|` +
    String.raw`(?:\bn['’]est\s+pas|\b(?:ist\s+)?nicht|\bno\s+es|\bnão(?:\s+é)?|\b(?:et\s+)?non(?:\s+è)?|(?<!\p{L})не\s+(?:равн[аоы]?|равен|является)?|不是|不等于|不为)\s*[,:]?\s*$`,
  'iu',
);

/**
 * Words right after a value that name it a wrong answer: "$41$ is a tempting wrong answer", "$41$ would be incorrect",
 * "$41$ is a common mistake". Read as the last math, 41 was the answer, graded equal to a reference 41, sure of it.
 * "is not wrong" and "is the wrong-looking but right count" name nothing wrong.
 */
export const NAMED_WRONG = String.raw`(?:is|was|would\s+be|seems|looks)\s+(?:(?:an?|the)\s+)?(?:(?:tempting|common|natural|classic|typical|plausible|easy|obvious|frequent|naive|popular|likely|but)\s+)*(?:wrong|incorrect|false|mistaken|erroneous|(?:mistake|trap|pitfall|distractor)\b)(?![-\w])`;

/** {@link NAMED_WRONG} right after a value. */
const WRONG_AFTER = new RegExp(String.raw`^\s*(?:\*\*)?\s*,?\s*(?:which\s+)?${NAMED_WRONG}`, 'i');

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
    // "not just $x = 2$ but also $x = 3$": the value is kept and another added, as after "not only".
    const kept = /^\s*,?\s*but\s+also\b/i.test(paragraph.slice(s.end));
    const denied = DENIAL_BEFORE.test(before) || WRONG_AFTER.test(paragraph.slice(s.end, s.end + DENIAL_REACH * 2));
    if (kept || !denied) out += paragraph.slice(s.start, s.end);
    at = s.end;
  }
  return out + paragraph.slice(at);
}

/**
 * Words that reject the value a sentence names: "fails", "is rejected", "we discard", "is extraneous", "is too large",
 * "… but $n = 8$ does not."
 */
export const REJECTS = /\b(?:fails?|rejected|reject|discard(?:ed)?|extraneous|(?:does|do)\s+not\s+work|doesn['’]t\s+work|invalid|ruled?\s+out|violates?|too\s+(?:large|small|big|many|few))\b|\b(?:does|do)\s*(?:not|n['’]t)\s*[.!]?\s*$/i;

/**
 * ", but $8$ fails": after "but", another value that the words after it reject, which takes nothing back from the answer
 * before it (extract.ts's hedge, statement.ts's reason after an answer). Only words that reject: "but $8$ is too." says
 * 8 is an answer as well, and "is not excluded", "is not ruled out", "does not seem impossible" keep it open; read as
 * rejections, each left the answer before them sure of it (a hedge between two values graded equal).
 */
export const REJECTED_OTHER = String.raw`(?:\$[^$\n]{1,40}\$|\d[\d.,]*)\s+(?:${NAMED_WRONG}|fails\b|does\s*n[o'’]t\s+(?:work|hold|satisfy|qualify)\b|does\s*n[o'’]t(?=\s*[.!;]|\s*$)|is\s+(?:not\s+(?:possible|valid|allowed|admissible|attainable|achievable|a\s+solution|an?\s+(?:valid\s+)?answer)|rejected|extraneous|invalid|impossible|too\s+(?:large|small|big|many|few))\b)`;

/** Words that make a sentence the conclusion even where it speaks of failing: "the least $n$ for which it never fails". */
const CONCLUDES = /\b(?:thus|hence|therefore|so|answer|only|least|smallest|largest|greatest|minimum|maximum)\b|\b(?:not|never)\s+(?:fails?|rejected|discarded|extraneous|invalid|violates?)\b|n['’]t\s+fail/i;

/** Where the last sentence, or the last clause after a semicolon or a comma and "but", "and", "while", of `text` starts (ends inside math do not count). */
function lastUnitStart(text: string): number {
  const math = mathSegments(text);
  let start = 0;
  for (const m of text.matchAll(/[.!?;](?=\s)|\n|,(?=\s+(?:but|and|while|whereas)\b)/g)) {
    if (!math.some((s) => s.start <= m.index && m.index < s.end) && m.index < text.length - 1) start = m.index + 1;
  }
  return start;
}

/** A reason after the rejected value: "because $q < 5$", "since it is extraneous". */
const REASON = /[\s,]+(?:because|since|as)\b[\s\S]*$/i;

/**
 * The values a sentence or clause rejects, none when it rejects none: its values when the rejecting words follow
 * its last one ("The case $n = 8$ fails.", "$x = -2$ is rejected because …") or lead straight to it ("We discard
 * $x = -2$ because …"). One whose rejecting words name what its value counts or leaves ("The number of arrangements
 * that violate it is $36$.", "After we discard $3$ duplicates, $17$ remain.", "It fails for $n = 5$.") states that
 * value: cut, its answer was lost.
 */
function rejectedValues(unit: string): string[] {
  const math = mathSegments(unit);
  const reasonAt = unit.slice(math[0]?.end ?? 0).search(REASON);
  const claim = reasonAt < 0 ? unit : unit.slice(0, (math[0]?.end ?? 0) + reasonAt);
  const named = mathSegments(claim);
  const last = named.at(-1);
  // "We reject $x = 3$ since it is extraneous, leaving $x = -1$.": the value left after the reason is the sentence's own.
  if (last === undefined || /\b(?:leaving|leaves|left\s+with|remains?|giving|gives)\b/i.test(unit.slice(claim.length))) return [];
  // "…, but fails for $n = 3$": set against the answer, a clause rejects its value whatever the order of its words.
  const rejects = (/^[\s,]*(?:but|while|whereas)\b/i.test(unit) && REJECTS.test(claim)) || REJECTS.test(claim.slice(last.end)) || /\b(?:reject(?:s|ing)?|discard(?:s|ing)?|rule\s+out|ruling\s+out)\s*$/i.test(claim.slice(0, last.start));
  return rejects ? named.map((s) => squeezed(s.text)) : [];
}

function squeezed(tex: string): string {
  return tex.replace(/\s+/g, '');
}

/**
 * `text` without the mathematics that states a rejected value again: "The roots are $x = 3$ and $x = -1$, but
 * $x = -1$ is rejected since $x > 0$." Left in, the rejected root was read with the other, or alone once the reason
 * was cut: equal to a wrong reference -1, sure of it.
 */
function withoutRestated(text: string, rejected: readonly string[]): string {
  const math = mathSegments(text);
  // Only a value listed with another is taken out: "So the minimum is $4$, and removing any of the $4$ edges fails."
  // keeps its answer.
  const listed = (k: number): boolean =>
    [math[k - 1], math[k + 1]].some((other, side) => other !== undefined && JOINER.test(side === 0 ? text.slice(other.end, math[k]?.start) : text.slice(math[k]?.end, other.start)));
  let out = '';
  let at = 0;
  for (const [k, s] of math.entries()) {
    if (!rejected.includes(squeezed(s.text)) || !listed(k)) continue;
    out += text.slice(at, s.start);
    at = s.end;
  }
  return out + text.slice(at);
}

/** `paragraph` without the sentences or clauses at its end that reject the values they name ("The case $n = 8$ fails."). */
export function withoutRejections(paragraph: string): string {
  let text = paragraph.trimEnd();
  for (let guard = 0; guard < 4; guard += 1) {
    const start = lastUnitStart(text);
    const unit = text.slice(start);
    const earlier = mathSegments(text.slice(0, start));
    const rejected = start === 0 || earlier.length === 0 || CONCLUDES.test(unit) ? [] : rejectedValues(unit);
    if (rejected.length === 0) break;
    text = withoutRestated(text.slice(0, start).replace(/[\s;,]+$/, ''), rejected);
  }
  return text;
}
