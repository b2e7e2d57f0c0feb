/**
 * A reply that closes on a list rather than a sentence: "The solutions are:\n- $n = 1$\n- $n = 2$\n- $n = 5$", or a
 * summary of labelled lines after the answer ("The minimum is $4$.\n\n- Number of moves: $4$\n- Parity argument:
 * excludes $3$"). Read as its last math, the list's last item was the answer: a reference 5, or 3, was graded
 * equal, sure of it. A list of values is the answer, all its items; a summary restates what the text before it
 * concluded.
 */
import { mathSegments } from './segments.ts';
import { LIST_ITEM } from './statement.ts';

export type ClosingList = { kind: 'values'; answer: string } | { kind: 'summary'; before: string };

/** "Number of moves: …", "**Smallest prime:** …", "$n = 5$: …": a summary line opens on words, or a short math label, and a colon. */
const LABELLED_LINE = /^[\s*]*(?:\p{L}[\p{L}\s'()-]{0,40}?|\$[^$\n]{1,30}\$)\**\s*:/u;

/** "Total: $12$", "$12$ total", "Answer: $4$": an item that sums up the items before it. */
const TOTAL_ITEM = /\b(?:total|in\s+all|altogether|overall|sum|answer)\b/i;

/** The value an item states when it is nothing else: one math segment, or a number, with at most its closing mark and a remark in parentheses ("$n = 1$ (trivial)"). */
function bareValue(item: string): string | null {
  const text = item.replace(/\*\*/g, '').trim().replace(/[.,;]$/, '').replace(/\s*\([^()$]*\)$/, '').trim();
  if (/^-?\d+(?:\.\d+)?$/.test(text)) return text;
  const math = mathSegments(text);
  const only = math.length === 1 ? math[0] : undefined;
  return only !== undefined && only.start === 0 && only.end === text.length ? only.text : null;
}

/**
 * The list that ends `text` (two items or more, blank lines between them allowed): its values joined when every
 * item is a bare value; when every item is a labelled line, the text before it; when every item opens on its value
 * and says more of it, the items as written, which only a reader grades; null for any other ending (a list of steps
 * in sentences ends on its own conclusion).
 */
export function closingList(text: string): ClosingList | null {
  const lines = text.trimEnd().split('\n');
  const items: string[] = [];
  let first = lines.length;
  for (let k = lines.length - 1; k >= 0; k -= 1) {
    const line = lines[k] ?? '';
    if (line.trim() === '') continue;
    const bullet = LIST_ITEM.exec(line);
    if (bullet === null) break;
    items.unshift(line.slice(bullet[0].length));
    first = k;
  }
  if (items.length < 2) return null;
  const values = items.map(bareValue);
  if (values.every((value): value is string => value !== null)) return { kind: 'values', answer: [...new Set(values)].join(', ') };
  // "- Case A: $5$\n- Case B: $7$\n- Total: $12$": a last item that sums the others up is the answer (read as a summary,
  // or as values each with a remark, a right 12 was graded unsure).
  const total = items[items.length - 1] ?? '';
  const totalMath = mathSegments(total).pop();
  if (TOTAL_ITEM.test(total.replace(/\$[^$]*\$/g, ' ')) && totalMath !== undefined) return { kind: 'values', answer: totalMath.text };
  // "**Summary:**" above the list heads it and states nothing of the text before.
  const heading = /^[\s*#]*[\p{L}\s]{1,40}:[\s*]*$/u.test(lines[first - 1] ?? '') ? 1 : 0;
  if (items.every((item) => LABELLED_LINE.test(item))) return { kind: 'summary', before: lines.slice(0, first - heading).join('\n') };
  // "- $n = 1$ fails\n- $n = 5$ works": values each with its verdict are checks, of which the reader picks; read as its
  // last item, n = 5 was graded equal to a reference 5, sure of it.
  if (items.every((item) => mathSegments(item)[0]?.start === item.search(/\S/))) return { kind: 'values', answer: items.map((item) => item.replace(/\$/g, '').trim()).join('; ') };
  return null;
}
