/**
 * Math segments (`$..$`, `$$..$$`, `\(..\)`, `\[..\]`) and bare numbers in
 * prose: the pieces the extraction fallbacks choose from.
 */
import { scaledByNextCjk } from '../math/cjk-scale.ts';

/** A piece of a response with its position, so fallbacks can pick the last. */
export interface Segment {
  start: number;
  end: number;
  text: string;
}

/**
 * Display math may span lines; inline math may not, because a lone "$" in
 * prose (a price) would otherwise swallow whole paragraphs. The delimiters
 * are found by a forward scan rather than one lazy regular expression, whose
 * search for a closer that never comes restarts at every opener: a response
 * of unclosed "\\[" or "\\(" would cost time quadratic in its length.
 */
const OPENER = /\$|\\[[(]/g;

/**
 * `text.indexOf(needle, from)` for calls whose `from` only grows: a closer
 * found once answers every later call before it, and one never found answers
 * every later call at all.
 */
function forwardIndexOf(text: string, needle: string): (from: number) => number {
  let found = -2;
  return (from) => {
    if (found === -1 || found >= from) return found;
    found = text.indexOf(needle, from);
    return found;
  };
}

/** End (index of the closing "$") of inline math opened at `open`, or -1: one line, "\\$" inside. */
function inlineClose(text: string, open: number): number {
  for (let j = open + 1; j < text.length; j += 1) {
    const ch = text[j];
    if (ch === '\n') return -1;
    if (ch === '$' && text[j - 1] !== '\\') return j > open + 1 ? j : -1;
  }
  return -1;
}

/** Every math segment of `text`, in order. */
export function mathSegments(text: string): Segment[] {
  const found: Segment[] = [];
  const closer = { display: forwardIndexOf(text, '$$'), bracket: forwardIndexOf(text, '\\]'), paren: forwardIndexOf(text, '\\)'), line: forwardIndexOf(text, '\n') };
  const push = (start: number, innerStart: number, innerEnd: number, end: number): void => {
    const inner = text.slice(innerStart, innerEnd).trim();
    if (inner !== '') found.push({ start, end, text: inner });
    OPENER.lastIndex = end;
  };
  OPENER.lastIndex = 0;
  for (let m = OPENER.exec(text); m !== null; m = OPENER.exec(text)) {
    const i = m.index;
    if (m[0] === '\\[' || m[0] === '\\(') {
      const close = m[0] === '\\[' ? closer.bracket(i + 3) : closer.paren(i + 3);
      const newline = m[0] === '\\(' ? closer.line(i + 2) : -1;
      if (close >= 0 && (newline < 0 || newline >= close)) push(i, i + 2, close, close + 2);
      continue;
    }
    const display = text[i + 1] === '$' ? closer.display(i + 3) : -1;
    if (display >= 0) {
      push(i, i + 2, display, display + 2);
      continue;
    }
    const inline = text[i - 1] === '\\' ? -1 : inlineClose(text, i);
    if (inline >= 0) push(i, i + 1, inline, inline + 1);
  }
  return found;
}

/** A number as written in prose: "1,000.99", "-3", "2/3", "25%", "\frac{2}{5}". */
const NUMBER = /\\[dt]?frac\{[^{}]*\}\{[^{}]*\}|-?\d+(?:[,\s]\d{3})*(?:[.,]\d+)?(?:\s*\/\s*\d+)?\s*%?/g;

/** Every number of `text`, in order. */
export function numbers(text: string): Segment[] {
  const found: Segment[] = [];
  for (const m of text.matchAll(NUMBER)) {
    found.push({ start: m.index, end: m.index + m[0].length, text: m[0].trim() });
  }
  return found;
}

/** The sentences of `text`, with where each starts: a line break or ".", "!", "?" before a space ends one, outside math. */
export function sentencesOf(text: string): Array<{ start: number; text: string }> {
  const math = mathSegments(text);
  const out: Array<{ start: number; text: string }> = [];
  let start = 0;
  // Segments and stops both come in order: one walk over the segments, where a search of all of them for each stop
  // was quadratic (a paragraph of 16,000 short sentences took seconds, read on every response by the case rule).
  let next = 0;
  // "i.e. $1$", "e.g. $2$": the period of an abbreviation ends no sentence.
  for (const m of text.matchAll(/\n|(?<!\b(?:i\.e|e\.g))[.!?](?=\s|$)/g)) {
    while ((math[next]?.end ?? Infinity) <= m.index) next += 1;
    const around = math[next];
    if (around !== undefined && around.start <= m.index) continue;
    out.push({ start, text: text.slice(start, m.index + 1) });
    start = m.index + m[0].length;
  }
  if (text.slice(start).trim() !== '') out.push({ start, text: text.slice(start) });
  return out;
}

/** Words of two or more letters outside math and `\text{}`: a sign of prose. */
export function proseWordCount(text: string): number {
  const outside = stripMath(text)
    .replace(/\\(?:begin|end)\{[a-zA-Z*]*\}/g, ' ')
    .replace(/\\[a-zA-Z]+/g, ' ');
  const words = outside.match(/\p{L}{2,}/gu) ?? [];
  return words.length;
}

/** True when `text` holds characters of scripts written without spaces or in other alphabets. */
export function hasNonLatinScript(text: string): boolean {
  return /[\p{Script=Han}\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Cyrillic}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(text);
}

/**
 * "Yes, it is possible", "No - the sum is odd": a yes or a no, then its
 * reason. The answer is the word, which reducing the sentence to its last
 * clause would lose ("possible").
 */
export const YES_OR_NO_FIRST = /^(yes|no)\s*(?:[,.;:!—–]|\s-)\s*(?=\S)/i;

/**
 * Reduces a sentence to its answer: the math or number it states. `pick`
 * chooses the first (for "Réponse: 220 $ à payer d'ici 12 mois") or the last
 * (for "so the total is 13 birds") candidate. Text without prose is returned
 * as is, since it already is an answer ("x = 5").
 */
export function reduceProse(sentence: string, pick: 'first' | 'last'): string {
  const trimmed = sentence.trim();
  if ((proseWordCount(trimmed) < 2 && !hasNonLatinScript(trimmed)) || YES_OR_NO_FIRST.test(trimmed)) return trimmed;
  const isClause = / is (?!not\b)/.exec(trimmed);
  const tail = isClause === null ? trimmed : trimmed.slice(trimmed.lastIndexOf(' is ') + 4);
  const all = [...mathSegments(tail), ...numbers(stripMath(tail))].sort((a, b) => a.start - b.start);
  // "5 apples and 6 oranges, so 11": what a conclusion word leads to is the answer.
  // An "=" inside the mathematics ("$f(x) = x^2$ for all real $x$") is the answer's own, not a conclusion.
  const concluded = [...stripMath(tail).matchAll(CONCLUSION)].pop();
  const after = concluded === undefined ? [] : all.filter((c) => c.start >= concluded.index + concluded[0].length);
  const candidates = after.length > 0 ? after : all;
  // "5 apples and 6 oranges": several values listed, none concluded, are no one value.
  if (pick === 'first' && after.length === 0 && listsValues(tail, candidates)) return trimmed;
  const chosen = pick === 'first' ? candidates[0] : candidates[candidates.length - 1];
  // "all powers of 2", "every integer greater than 5": the number is part of a description, not the answer.
  if (chosen !== undefined && after.length === 0 && describedBy(tail, chosen)) return trimmed;
  // "All odd $n$", "no such $n$": the words say what the letter is; the letter alone says nothing.
  if (chosen !== undefined && describesLetter(tail.slice(0, chosen.start), chosen.text)) return tail === trimmed ? trimmed : tail.trim();
  // "答案是5万。", "答案是5的平方。": a number the next character scales or takes as a base is no answer alone (cjk-scale.ts).
  if (chosen !== undefined && scaledByNextCjk(tail.slice(chosen.end))) return trimmed;
  if (chosen !== undefined) return chosen.text;
  return tail === trimmed ? trimmed : tail.trim();
}

/**
 * Reduces mathematics to its answer, as {@link reduceProse} reduces a sentence, where words are written in it
 * ("$\text{the total is } 12$", "$? just about 1$"). Letters side by side in mathematics are a product, not a word:
 * read as prose, "$ax^2 + bx$" was two words, reduced to its last number, 2, and a right answer graded different,
 * sure of it. So a word here is one set in \text{}, or a run of three letters or more outside commands, with one of
 * four or more ("abc" and "xyz" are products still).
 */
export function reduceMath(tex: string): string {
  const inText = [...tex.matchAll(/\\(?:text|textbf|textit|textrm|mbox)\s*\{([^{}]*)\}/g)].map((m) => m[1] ?? '');
  const outside = tex.replace(/\\(?:text|textbf|textit|textrm|mbox)\s*\{[^{}]*\}/g, ' ').replace(/\\[a-zA-Z]+/g, ' ');
  const words = [...(inText.join(' ').match(/\p{L}{2,}/gu) ?? []), ...(outside.match(/\p{L}{3,}/gu) ?? [])];
  const prose = words.length >= 2 && words.some((word) => word.length >= 4);
  return prose ? reduceProse(tex, 'last') : tex.trim();
}

/** Words that lead from the working to its result: "so 11", "for a total of 11", "= 11". */
const CONCLUSION = /\b(?:so|thus|hence|therefore|giving|gives|makes?|making|total(?:ling)?|altogether|overall)\b|=/gi;

/** Words that make the number after them part of a description or a bound: "powers of 2", "greater than 5", "at least 5". */
const DESCRIBING = /\b(?:of|than|by|modulo|mod|at\s+least|at\s+most|up\s+to)\s*$/i;

/** Whether `candidate` is the argument of a description in `text` ("powers of 2") or compared with one ("3 more than 4"). */
function describedBy(text: string, candidate: Segment): boolean {
  return DESCRIBING.test(text.slice(0, candidate.start)) || /^\s*(?:more|less|fewer|greater|times)\b/i.test(text.slice(candidate.end));
}

/** A letter alone, perhaps with a subscript: the name of what a sentence describes. */
export const LONE_SYMBOL = /^[a-zA-Z](?:_\{?\w+\}?)?$/;

/** Words right before a letter that say what it is rather than lead to its value: "all odd", "no such", "every prime", "for all real". */
const DESCRIBING_LETTER = /\b(?:all|every|each|any|no|such|odd|even|prime|composite|positive|negative|non-?negative|non-?zero|integers?|numbers?|naturals?|reals?|primes?|square-?free)[\s*]*$/i;

/** A property in words that narrows a set of numbers: "odd", "prime". */
const PROPERTY = /\b(?:odd|even|prime|composite|square-?free)\b/i;

/** A bound on one letter: "n \ge 1", "x > 0". */
const BOUND_ON_LETTER = /^[a-zA-Z]\s*(?:\\[lg]eq?(?![a-zA-Z])|[<>]|\\ne(?![a-zA-Z]))/;

/**
 * Whether `math`, written after `before` in its sentence, is what its words
 * describe: a lone letter ("All odd $n$", "no such $n$"), or a bound on one
 * that a property in words narrows ("all odd integers $n \ge 1$").
 */
export function describesLetter(before: string, math: string): boolean {
  const words = before.split(/[.!?;:](?:\s|$)/).pop() ?? '';
  if (!DESCRIBING_LETTER.test(words)) return false;
  return LONE_SYMBOL.test(math) || (BOUND_ON_LETTER.test(math) && PROPERTY.test(words));
}

/** Whether the first two candidates are different values listed with "and", "or" or a comma between them. */
function listsValues(text: string, candidates: readonly Segment[]): boolean {
  const [first, second] = candidates;
  if (first === undefined || second === undefined || first.text === second.text) return false;
  return /,|\b(?:and|or|et|ou|und|oder|y|o|и|или)\b|和|与|或/.test(text.slice(first.end, second.start));
}

/** Replaces math segments by spaces of the same length, keeping positions. */
function stripMath(text: string): string {
  let out = '';
  let at = 0;
  for (const s of mathSegments(text)) {
    out += text.slice(at, s.start) + ' '.repeat(s.end - s.start);
    at = s.end;
  }
  return out + text.slice(at);
}
