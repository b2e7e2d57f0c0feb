/**
 * A value a reply excludes after its answer: "The solutions are $k = 10$,
 * excluding $k = 11$.", "$1 \le k \le 20$, except $k = 11$", "All $k$ from
 * $1$ to $20$ work, except $k = 11$." Read as the last math, the excluded
 * value was taken for the answer: a wrong reference 11 was graded equal,
 * sure of it. After one value the excluded one is set against it, as ", not
 * $11$" is, and the value stands; after a set (an interval, a relation, a
 * list) it is taken out of it (`\setminus`), which the comparison reads; after
 * words the sentence is the answer, for a reader.
 */
import { JOINER, joinedUpTo } from './joined-values.ts';
import { LONE_SYMBOL, type Segment } from './segments.ts';

/** Words that exclude the value after them from the one before: "excluding", "except (for)", "other than", "apart from". */
const EXCLUDING_WORDS = String.raw`(?:but\s+)?(?:excluding|except(?:\s+for)?|other\s+than|apart\s+from|aside\s+from|save\s+for|with\s+the\s+exception\s+of)\s*$`;

/** The words at the end of a gap before a value. */
const EXCLUDING = new RegExp(String.raw`(?:^|[\s,;(])${EXCLUDING_WORDS}`, 'i');

/** The words alone between two values, after a comma or a parenthesis: "$k = 10$, excluding $k = 11$". */
const EXCLUDING_ONLY = new RegExp(String.raw`^[\s,;(]*${EXCLUDING_WORDS}`, 'i');

/**
 * What may follow the excluded value to the end of its sentence: a closing parenthesis and the full stop, after a
 * reason about the excluded value ("excluding $n = 5$, which is extraneous"; read as words after the exclusion, the
 * whole sentence was the answer, and the right 4 was graded different, sure of it).
 */
const CLOSES_SENTENCE = /^(?:\s*,?\s*(?:which|since|because|as)\b[^.!?\n$()]*)?[\s)）*]*(?:[.!。]|$)/;

/** A relation or a set in one letter: an interval, a bound, "\in", braces. */
const SET_LIKE = /\\[lg]eq?(?![a-zA-Z])|[<>]|\\in(?![a-zA-Z])|\\cup|\\mathbb|\\\{|^[([].*,.*[)\]]$/;

/** A value without its label: "k = 11" is 11. */
function withoutLabel(tex: string): string {
  return tex.replace(/^\s*[a-zA-Z](?:_\{?\w+\}?)?\s*=\s*/, '').trim();
}

/**
 * `value` without `excluded`: the set difference of a set, a relation in one letter read as the set of its
 * letter, or a list read as a set.
 */
function setMinus(value: string, excluded: readonly string[]): string {
  const removed = `\\setminus \\{${excluded.map(withoutLabel).join(', ')}\\}`;
  const letter = /^\s*([a-zA-Z])\s*\\in\s*/.exec(value);
  if (letter !== null) return `${value.slice(letter[0].length)} ${removed}`;
  const bound = /(?:^|[^a-zA-Z\\])([a-zA-Z])(?![a-zA-Z])/.exec(value.replace(/\\[a-zA-Z]+/g, ' '));
  if (/\\[lg]eq?(?![a-zA-Z])|[<>]/.test(value) && bound?.[1] !== undefined) return `\\{${bound[1]} \\mid ${value}\\} ${removed}`;
  return /^\s*\\\{/.test(value) || /^\s*[([]/.test(value) ? `${value} ${removed}` : `\\{${value}\\} ${removed}`;
}

/** A list without the items excluded, written as they are listed ("1, 2, 3" except "2" is "1, 3"). */
function listWithout(list: string, excluded: readonly string[]): string {
  const items = list.split(/\s*,\s*/).map(withoutLabel);
  const kept = items.filter((item) => !excluded.includes(item));
  // "$x = 2$ and $x = 4$, excluding $x = 3$": a value not in the list is a candidate rejected, as ", not $3$" is.
  if (kept.length === items.length) return items.join(', ');
  return kept.length > 0 ? kept.join(', ') : setMinus(items.join(', '), excluded);
}

/**
 * The answer of a paragraph whose last math a value before it excludes; null when the last math is not excluded.
 * `math` are the paragraph's math segments, in order.
 */
export function exclusionAtEnd(paragraph: string, math: readonly Segment[]): string | null {
  const last = math.length - 1;
  const lastMath = math[last];
  if (lastMath === undefined) return null;
  // "except $k = 11$ and $k = 13$": the excluded values are the run that separators join.
  let first = last;
  while (first > 0 && JOINER.test(paragraph.slice(math[first - 1]?.end ?? 0, math[first]?.start ?? 0))) first -= 1;
  const opener = math[first];
  const previous = math[first - 1];
  const sentenceStart = Math.max(0, paragraph.slice(0, opener?.start ?? 0).search(/[^.!?\n]*$/));
  const gap = paragraph.slice(previous !== undefined && previous.end > sentenceStart ? previous.end : sentenceStart, opener?.start ?? 0);
  if (opener === undefined || !EXCLUDING.test(gap)) return null;
  const excluded = math.slice(first).map((s) => s.text);
  // "All real $x$ except $x = 0$": a lone letter is what the words describe, no value to take the other from.
  const pure = previous !== undefined && previous.end > sentenceStart && !LONE_SYMBOL.test(previous.text) && EXCLUDING_ONLY.test(gap) && CLOSES_SENTENCE.test(paragraph.slice(lastMath.end));
  if (!pure) return paragraph.slice(sentenceStart, lastMath.end).replace(/\$/g, '').trim();
  const value = joinedUpTo(paragraph, math, first - 1);
  if (SET_LIKE.test(value)) return setMinus(value, excluded);
  return value.includes(',') ? listWithout(value, excluded.map(withoutLabel)) : value;
}
