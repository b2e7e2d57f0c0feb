/**
 * A reply that boxes an answer, finds a fault in it and then boxes another, or states its final answer anew:
 * "So we get $\boxed{5}$.\n\nWait, I made an arithmetic error in the second step. … The correct value is
 * $\boxed{7}$." Reasoning models write this whenever they check themselves after answering. The answer before the
 * fault is one the reply took back: it is no final answer beside the later one. Read as two final answers, such a
 * reply was graded unsure whichever value the reference held, and a wrong revision no less than a right one.
 *
 * Only words that admit a fault in what came before count ("I made an error", "that was wrong", "this overcounts",
 * "Correction:", "I apologize for the mistake in the previous solution. Let me correct it."). "Wait", "let me
 * recompute" and "actually" as often open a check that keeps the answer ("Wait, let me sanity-check with $n = 2$:
 * … $\boxed{3}$ …") or lead into the next part of a question; read as a revision, such a reply was graded by the
 * value it only checked. A reply in parts ("(a) … (b) …", "(1) … (2) …", "Part 2", "Question 2") between the two
 * answers gives one answer per part, never a revision.
 */
import { boxStarts } from './boxes.ts';

/**
 * Words that admit the answer before them at fault. Not "let me check whether I made a mistake", nor "a common error
 * is to overcount", nor "I apologize for the length".
 */
const TAKES_BACK = new RegExp(
  String.raw`\b(?:oops|on\s+second\s+thought|(?<!\b(?:whether|if)\s+)(?:I|we)\s+made\s+(?:an?\s+)?(?:\w+\s+)?(?:error|mistake)|` +
    String.raw`(?:that|this|it)\s+(?:was|is)\s+(?:wrong|incorrect|a\s+mistake|not\s+(?:right|correct))|correction\s*[:：]|` +
    String.raw`let\s+me\s+correct\s+(?:it|this|that|my)|I\s+apologi[sz]e\s+for\s+(?:the|my|this|that)\s+(?:\w+\s+)?(?:mistake|error|oversight)|` +
    String.raw`(?:this|that)\s+(?:over|under)-?counts)\b`,
  'gi',
);

/** The label of a part of the question: "(a) ", "b) ", "(ii) ", "(2) ", "2. " opening a line, "Part 2", "**Question 2.**". */
const PART_LABEL = /(?:^|[\s*])\(?(?:[a-h]|i{1,3}|iv|vi{0,3}|\d{1,2})\)[\s*]|(?:^|\n)[ \t*]*\d{1,2}\.[ \t]|\b(?:part|question|problem)\s*\(?(?:[a-h]|\d|i{1,3}|iv|v)\b/i;

/** How many takings-back, counted from the last, are read: a reply that admits an error thousands of times costs no more. */
const READ_LAST = 64;

/** The text last read and where its final answers start: one grade reads the same reply several times. */
let lastRead: { text: string; from: number } | undefined;

/**
 * Where a reply's final answers start: at the last words that take back an answer boxed before them, when a box
 * or one of `laterAnswers` (where a statement of the final answer starts) follows them with no part of the
 * question between; 0 when there are none.
 */
export function revisedFrom(text: string, laterAnswers: () => readonly number[]): number {
  if (lastRead?.text !== text) lastRead = { text, from: searchRevision(text, laterAnswers) };
  return lastRead.from;
}

/** {@link revisedFrom}, searched: only takings-back between the first box and the last answer can revise one. */
function searchRevision(text: string, laterAnswers: () => readonly number[]): number {
  const boxes = boxStarts(text);
  const firstBox = boxes[0];
  if (firstBox === undefined) return 0;
  const answers = [...boxes, ...laterAnswers()].sort((a, b) => a - b);
  const lastAnswer = answers[answers.length - 1] ?? 0;
  const takings = lastTakings(text, firstBox, lastAnswer);
  // A gap between the same two answers is read for a part label once, however many takings-back it holds.
  const gapsRead = new Set<string>();
  for (let k = takings.length - 1; k >= 0; k -= 1) {
    const at = takings[k] ?? 0;
    const next = answers.find((start) => start > at) ?? -1;
    const previous = lastBefore(boxes, at) ?? firstBox;
    if (next < 0 || gapsRead.has(`${previous}:${next}`)) continue;
    gapsRead.add(`${previous}:${next}`);
    if (!PART_LABEL.test(text.slice(previous, next))) return at;
  }
  return 0;
}

/**
 * What may come before words that take an answer back: the start of a sentence, a line or a clause after a colon or
 * semicolon, or an interjection ("Wait, I made an error", "but this overcounts"). "For the maximum, I made a mistake
 * in the bound" finds a fault in another part's work, not in the box before it. No start of the text: a box always
 * comes first, and at the start of the slice read, a run of spaces before the words passed for one.
 */
const OPENS_ADMISSION = /(?:[.!?。;:：]|\n|\b(?:wait|hmm+|oh|ah|oops|actually|but|no|so))[\s,*—–-]*$/i;

/** How many characters before words that take an answer back are read for {@link OPENS_ADMISSION}. */
const OPENING_READ = 24;

/** How far before the last answer takings-back are first looked for; the window doubles until it holds enough. */
const FIRST_WINDOW = 4096;

/**
 * The last {@link READ_LAST} takings-back between `from` and `to`, in order. Searched in windows that end at `to`
 * and double: a reply that admits an error after every box is not read whole, and one that does it rarely is read at
 * most about twice.
 */
function lastTakings(text: string, from: number, to: number): number[] {
  const search = new RegExp(TAKES_BACK.source, 'gi');
  for (let window = FIRST_WINDOW; ; window *= 2) {
    const start = Math.max(from, to - window);
    const found: number[] = [];
    search.lastIndex = start;
    for (let m = search.exec(text); m !== null && m.index < to; m = search.exec(text)) {
      if (OPENS_ADMISSION.test(text.slice(Math.max(0, m.index - OPENING_READ), m.index))) found.push(m.index);
    }
    if (found.length >= READ_LAST || start === from) return found.slice(-READ_LAST);
  }
}

/** The last of the ascending `starts` before `at`. */
function lastBefore(starts: readonly number[], at: number): number | undefined {
  let found: number | undefined;
  for (const start of starts) {
    if (start >= at) break;
    found = start;
  }
  return found;
}
