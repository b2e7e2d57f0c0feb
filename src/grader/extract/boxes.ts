/**
 * Finding `\boxed{...}` (and `\fbox`) answers in a model response. Models box
 * one answer, or several boxes in a row for a multi-part answer ("\boxed{2}
 * and \boxed{3}"); the last run of adjacent boxes is the final answer.
 */
import { braceCloses } from './scan.ts';
import { mathSegments } from './segments.ts';

interface Box {
  start: number;
  end: number;
  inner: string;
  /** False for a box whose brace never closes: a reply cut at the window inside it. */
  closed: boolean;
}

const BOX_COMMAND = /\\(?:boxed|fbox|framebox)(?![a-zA-Z])/g;

/** "\boxed 5": an unbraced argument is a token, never a whole paragraph. */
const BARE_ARGUMENT_LENGTH = 200;

/** The text last searched and its boxes: one grade asks for the boxes of one response several times. */
let lastSearched: { text: string; boxes: readonly Box[] } | undefined;

/** Every box in `text`, in order of appearance. */
function findBoxes(text: string): readonly Box[] {
  if (lastSearched?.text !== text) lastSearched = { text, boxes: searchBoxes(text) };
  return lastSearched.boxes;
}

/** Every box in `text`, found by one pass over its braces. */
function searchBoxes(text: string): Box[] {
  // Where each command's argument starts: a brace, read with every other brace of the text in one pass.
  const commands = [...text.matchAll(BOX_COMMAND)].map((match) => {
    let i = match.index + match[0].length;
    while (text[i] === ' ') i += 1;
    return { start: match.index, argument: i };
  });
  const braced = new Set(commands.filter(({ argument }) => text[argument] === '{').map(({ argument }) => argument));
  const closes = braced.size === 0 ? new Map<number, number>() : braceCloses(text, braced);
  const boxes: Box[] = [];
  for (const { start, argument: i } of commands) {
    if (braced.has(i)) {
      const close = closes.get(i) ?? -1;
      // An unclosed box (a truncated response) runs to the end of the text.
      if (close < 0) boxes.push({ start, end: text.length, inner: text.slice(i + 1), closed: false });
      else boxes.push({ start, end: close + 1, inner: text.slice(i + 1, close), closed: true });
    } else {
      // "\boxed 5": the argument is the next run of non-space characters.
      const rest = /^[^\s$]+/.exec(text.slice(i, i + BARE_ARGUMENT_LENGTH));
      if (rest !== null) boxes.push({ start, end: i + rest[0].length, inner: rest[0], closed: true });
    }
  }
  return boxes;
}

/**
 * True when the text between two boxes only separates them ("," / "and" /
 * "\quad \text{and} \quad" / ") and \( y_2 ="), so both belong to one answer.
 * Anything else ("no no no", "but") means the earlier box was superseded.
 */
function isSeparatorGap(gap: string): boolean {
  // A long gap is never only separators; reading it all would cost time on a long response.
  if (gap.length > 400) return false;
  let g = gap
    .replace(/\\(?:text|textbf|textrm|mbox|mathrm)\s*\{([^{}]*)\}/g, ' $1 ')
    .replace(/\\[()[\]]|\$+|\\q?quad|\\[,;:! ]|~|\\\\|&/g, ' ');
  // "\boxed{1} and y_2 = \boxed{2}": a label before the next box is not content.
  g = g.replace(/[A-Za-z](?:_\{[^{}]*\}|_\w)?\s*=\s*$/, '').trim();
  if (g.length > 60) return false;
  if (g === '' || g === ',' || g === ';') return true;
  return /(?:^|[\s,;])(?:and|or)\s*[,;]?$/i.test(g) || /^(?:and|or)$/i.test(g);
}

/**
 * "$\boxed{20}\%$", "$\boxed{20}$ percent": a percent or per mille sign
 * right after the box changes the boxed number's value, so it belongs to
 * the answer (a unit word does not, and stays outside).
 */
function valueSignAfter(rest: string): string {
  const m = /^\s*\$*\s*(?:(\\%|%|percent\b|per\s*cent\b|pct\b)|(‰|\\permil\b|per\s*mill?e\b))/i.exec(rest);
  if (m === null) return '';
  return m[1] !== undefined ? '\\%' : '‰';
}

/**
 * Content of the last box, joined (", ") with the boxes right before it when
 * only separators stand between them; null when the text has no box.
 */
export function lastBoxedAnswer(text: string): string | null {
  const boxes = findBoxes(text);
  const last = boxes[boxes.length - 1];
  if (last === undefined) return null;
  // Gathered from the last backwards and reversed once: shifting each in front cost time quadratic in a run of boxes.
  const backwards: string[] = [last.inner.trim() + valueSignAfter(text.slice(last.end, last.end + 40))];
  for (let k = boxes.length - 2; k >= 0; k -= 1) {
    const box = boxes[k];
    const next = boxes[k + 1];
    if (box === undefined || next === undefined) break;
    if (box.end > next.start) break; // nested box: keep the outer reading
    if (!isSeparatorGap(text.slice(box.end, next.start))) break;
    backwards.push(box.inner.trim());
  }
  // A response that boxes the same answer twice in a row still has one answer.
  return distinctInOrder(backwards.reverse()).join(', ');
}

/** `items` without repeats, each where it first occurs (a set: a search of the list for each item was quadratic). */
function distinctInOrder(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/**
 * Every answer a text boxes, in order: each run of boxes that only
 * separators keep apart is one answer (joined with ", ", as
 * `lastBoxedAnswer` joins the last run); a box inside another is part of it.
 * "(a) \boxed{No} ... (c) \boxed{Yes}" gives two answers, "\boxed{2} and
 * \boxed{3}" one.
 */
export function boxedRuns(text: string): string[] {
  const runs: Array<{ items: string[]; end: number }> = [];
  for (const box of findBoxes(text)) {
    const previous = runs[runs.length - 1];
    if (previous !== undefined && box.start < previous.end) continue;
    const item = box.inner.trim() + valueSignAfter(text.slice(box.end, box.end + 40));
    if (previous !== undefined && isSeparatorGap(text.slice(previous.end, box.start))) {
      previous.items.push(item);
      previous.end = box.end;
    } else runs.push({ items: [item], end: box.end });
  }
  return runs.map(({ items }) => distinctInOrder(items).join(', '));
}

/** Where each box of the text starts, in order. */
export function boxStarts(text: string): number[] {
  return findBoxes(text).map((box) => box.start);
}

/** Index just past the last box, or -1 when there is none. */
export function lastBoxEnd(text: string): number {
  const boxes = findBoxes(text);
  return boxes[boxes.length - 1]?.end ?? -1;
}

/**
 * True when the text ends inside a box whose brace never closes
 * ("... so the answer is \boxed{12"): what it holds may be the start of a
 * longer answer (120, 12\sqrt{2}).
 */
export function endsInOpenBox(text: string): boolean {
  const boxes = findBoxes(text);
  return boxes[boxes.length - 1]?.closed === false;
}

/** What, right after a box, makes it part of a larger value: a power (not a degree mark), a factor, a fraction bar, a digit, a letter. */
const GLUED_AFTER = /^(?:\^(?!\s*\{?\s*\\circ)|_|\/|!|\d|\\(?:sqrt|times|cdot|frac|pi|setminus|cup|cap|text\s*\{\s*(?:hundred|thousand|million|billion|trillion|dozen)\b)|[a-zA-Z](?![a-zA-Z]))/;

/** What, right before a box, makes it part of a larger value: a minus, an open group, a power, a factor, a digit. */
const GLUED_BEFORE = /(?:-|\{|\^|_|\/|\d|\\(?:sqrt|times|cdot|setminus|cup|cap)|\\frac\s*)$/;

/** A scale word after a box in prose ("$\boxed{5}$ thousand"), which changes its value. */
const SCALE_AFTER = /^[\s$]*(?:hundred|thousand|million|billion|trillion|dozen)\b/i;

/** A box that holds one number: "12", "-3.5", "\frac{1}{2}". */
const ONE_NUMBER = /^\s*-?\s*(?:\d+(?:\.\d+)?|\\[dt]?frac\s*\{\s*\d+\s*\}\s*\{\s*\d+\s*\})\s*$/;

/** Words after a box that take a value out of it ("$\boxed{[1, 20]}$, excluding $k = 11$"): the reply's answer is what is left. */
const EXCLUDED_AFTER = /^[\s$]*[,;(]?\s*(?:but\s+)?(?:excluding|except(?:\s+for)?|other\s+than|apart\s+from|aside\s+from|save\s+for|with\s+the\s+exception\s+of)\b/i;

/**
 * True when the last box of the text is only part of the value written
 * around it: "$\boxed{5}\sqrt{2}$", "$-\boxed{5}$", "$\frac{\boxed{5}}{2}$",
 * "$\boxed{5} \times 10^3$", "$\boxed{2.5}$ million", "$\boxed{\mathbb{R}} \setminus \{0\}$", a box
 * followed by "excluding $k = 11$". Its content is what
 * the extraction gives, but the reply's value may be another.
 */
export function lastBoxInsideValue(text: string): boolean {
  const box = findBoxes(text).at(-1);
  if (box === undefined || !box.closed) return false;
  const after = text.slice(box.end, box.end + 80);
  // "$\boxed{12}$ (excluding the trivial solution $x = 0$)": a count says what it leaves out, a set has it taken out.
  if (SCALE_AFTER.test(after) || (EXCLUDED_AFTER.test(after) && !ONE_NUMBER.test(box.inner))) return true;
  const segment = mathSegments(text).find((s) => s.start <= box.start && box.end <= s.end);
  if (segment === undefined) return false;
  // The segment's text is trimmed of its delimiters: find the box's place by the text around it.
  let head = text.slice(segment.start, box.start).replace(/^(?:\$\$?|\\[[(])/, '').replace(/(?:\s|\\[,;:! ])+$/, '');
  let tail = text.slice(box.end, segment.end).replace(/^(?:\s|\\[,;:! ])+/, '');
  // "$\boxed{\boxed{16}}$": a box that is all of the box around it is that box, no part of a value.
  for (let guard = 0; guard < 8 && NESTING_OPEN.test(head) && /^\s*\}/.test(tail); guard += 1) {
    head = head.replace(NESTING_OPEN, '').trimEnd();
    tail = tail.replace(/^\s*\}/, '').trimStart();
  }
  return GLUED_BEFORE.test(head) || GLUED_AFTER.test(tail);
}

/** The opening of a box right before another: "\boxed{" of "\boxed{\boxed{16}}". */
const NESTING_OPEN = /\\(?:boxed|fbox|framebox)\s*\{\s*$/;

/** True when the text contains a box command. */
export function hasBox(text: string): boolean {
  return /\\(?:boxed|fbox|framebox)(?![a-zA-Z])/.test(text);
}

/** A box that holds no value: a placeholder of question marks, dots or blanks (`\boxed{?}`, `\boxed{\ldots}`, `\boxed{\_\_}`). */
const PLACEHOLDER = /^(?:[\s?.…_~]|\\[,;:! _]|\\[lcv]?dots|\\text\{\s*\?*\s*\})*$/;

/**
 * Whether a box's content states no value: a placeholder a response boxed while it worked ("A first pass left it
 * open at \boxed{?}; the check below settles it."), which is no final answer of its own beside the one it then
 * boxes.
 */
export function statesNoValue(inner: string): boolean {
  return PLACEHOLDER.test(inner.trim());
}
