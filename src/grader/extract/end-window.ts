/**
 * The end of a runaway paragraph or sentence: the part of it that can hold its answer. A model that loops on a clause
 * until its window is full writes one "sentence" of hundreds of thousands of characters; the rules that read a last
 * sentence (its cases, its remarks, a count and its list) walk it clause by clause, and on such a text they took
 * seconds per grade (a run grades tens of thousands). A closing sentence that states an answer is far shorter than
 * the window, so reading only the window's worth at the end changes no answer a reader would take from it.
 */
import { mathSegments } from './segments.ts';

/** How much of a paragraph or a sentence is read, from its end: some pages of text, far beyond any closing sentence. */
export const END_WINDOW = 6000;

/**
 * `text` itself when it is at most {@link END_WINDOW} characters long, else its end from a place that opens no math
 * segment halfway: the first line break in the window outside display math, else the first full stop there, else the
 * start of the first math segment there, else where the window starts (the middle of a run of prose); where no math
 * reaches into the window, from the sentence of the last math on.
 */
export function endWindow(text: string): string {
  if (text.length <= END_WINDOW) return text;
  const from = text.length - END_WINDOW;
  // Only the segments that reach into the window matter; stops come in order, so one walk over them answers all.
  const all = mathSegments(text);
  const segments = all.filter((s) => s.end > from);
  // "So there are $12$ ways. Let me double-check. Let me double-check. …": a loop of prose after the last math holds no
  // answer, and the window of it alone none; the sentence of that math is read on (cut at the window, the right 12
  // was graded unsure). Prose without math keeps the rules that read it linear.
  const last = all[all.length - 1];
  if (segments.length === 0 && last !== undefined) return text.slice(sentenceStart(text, last.start, all[all.length - 2]?.end ?? 0));
  for (const stop of [/\n/g, /[.!?。](?=\s)/g]) {
    let next = 0;
    for (const m of text.slice(from).matchAll(stop)) {
      const at = from + m.index;
      while ((segments[next]?.end ?? Infinity) <= at) next += 1;
      const around = segments[next];
      if (around === undefined || around.start >= at) return text.slice(at + m[0].length);
    }
  }
  const opening = segments.find((s) => s.start >= from);
  return text.slice(opening?.start ?? from);
}

/** Where the sentence that holds `at` starts: after the last line break or full stop before it, not before `floor`. */
function sentenceStart(text: string, at: number, floor: number): number {
  const lower = Math.max(floor, at - END_WINDOW);
  for (let i = at - 1; i >= lower; i -= 1) {
    if (text[i] === '\n' || (/[.!?。]/.test(text[i] ?? '') && /\s/.test(text[i + 1] ?? ''))) return i + 1;
  }
  return lower;
}
