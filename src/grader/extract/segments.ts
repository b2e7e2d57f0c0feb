/**
 * Math segments (`$..$`, `$$..$$`, `\(..\)`, `\[..\]`) and bare numbers in
 * prose: the pieces the extraction fallbacks choose from.
 */

/** A piece of a response with its position, so fallbacks can pick the last. */
export interface Segment {
  start: number;
  end: number;
  text: string;
}

/**
 * Display math may span lines; inline math may not, because a lone "$" in
 * prose (a price) would otherwise swallow whole paragraphs.
 */
const MATH_SEGMENT = /\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([^\n]+?)\\\)|(?<!\\)\$((?:\\\$|[^$\n])+?)(?<!\\)\$/g;

/** Every math segment of `text`, in order. */
export function mathSegments(text: string): Segment[] {
  const found: Segment[] = [];
  for (const m of text.matchAll(MATH_SEGMENT)) {
    const inner = m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
    if (inner.trim() === '') continue;
    found.push({ start: m.index, end: m.index + m[0].length, text: inner.trim() });
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

/** Words of two or more letters outside math and `\text{}`: a sign of prose. */
export function proseWordCount(text: string): number {
  const outside = text
    .replace(MATH_SEGMENT, ' ')
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
 * Reduces a sentence to its answer: the math or number it states. `pick`
 * chooses the first (for "Réponse: 220 $ à payer d'ici 12 mois") or the last
 * (for "so the total is 13 birds") candidate. Text without prose is returned
 * as is, since it already is an answer ("x = 5").
 */
export function reduceProse(sentence: string, pick: 'first' | 'last'): string {
  const trimmed = sentence.trim();
  if (proseWordCount(trimmed) < 2 && !hasNonLatinScript(trimmed)) return trimmed;
  const isClause = / is (?!not\b)/.exec(trimmed);
  const tail = isClause === null ? trimmed : trimmed.slice(trimmed.lastIndexOf(' is ') + 4);
  const candidates = [...mathSegments(tail), ...numbers(stripMath(tail))].sort((a, b) => a.start - b.start);
  const chosen = pick === 'first' ? candidates[0] : candidates[candidates.length - 1];
  if (chosen !== undefined) return chosen.text;
  return tail === trimmed ? trimmed : tail.trim();
}

/** Replaces math segments by spaces of the same length, keeping positions. */
function stripMath(text: string): string {
  return text.replace(MATH_SEGMENT, (m) => ' '.repeat(m.length));
}
