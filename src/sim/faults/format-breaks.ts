/**
 * The format-breaking mode (`SimOptions.breakFormats`): at a given rate, a
 * reply breaks the format its role asks for, the ways a real model does. A
 * section goes missing (a prover without `## Self Evaluation`, a review
 * without its `SCORE:` line, a critic without its `Decision:`), a score or
 * answer is not boxed (or the final answer is never stated), several boxes
 * appear, JSON comes back with other keys or as prose, a plan or a team comes
 * back as prose, or the reply is cut off (`finish_reason: length`).
 *
 * Whether and how a reply breaks is drawn from its own generator keyed by the
 * request, so the same request always breaks the same way, a retry (another
 * seed) draws afresh, and the unbroken replies are the very ones a server
 * without the mode sends: at rate 0 nothing is drawn and nothing changes.
 */
import type { SimFormat } from '../../kernel/sim-formats.ts';
import { rngOf, type Rng } from '../model/random.ts';

/** The ways a reply can break its format. New kinds go last, so the draws of the others stay the same. */
export const FORMAT_BREAKS = ['sections', 'no-box', 'boxes', 'keys', 'prose', 'truncate'] as const;

/** One way a reply breaks its format. */
export type FormatBreak = (typeof FORMAT_BREAKS)[number];

const ANSWERED: readonly FormatBreak[] = ['no-box', 'boxes', 'truncate'];
const LABELLED: readonly FormatBreak[] = ['sections', 'truncate'];
const JSON_RECORDS: readonly FormatBreak[] = ['keys', 'prose', 'truncate'];
const PLANNED: readonly FormatBreak[] = ['prose', 'truncate'];

/** How each format can break: only the ways that mean something for it. */
export const BREAKS_OF: Readonly<Record<SimFormat, readonly FormatBreak[]>> = {
  solution: ANSWERED,
  revision: ANSWERED,
  'rse-rollout': ANSWERED,
  synthesis: ANSWERED,
  verification: LABELLED,
  critique: LABELLED,
  summary: LABELLED,
  judge: LABELLED,
  critic: LABELLED,
  evaluator: LABELLED,
  experience: JSON_RECORDS,
  guideline: JSON_RECORDS,
  'rse-distill': JSON_RECORDS,
  ceo: PLANNED,
  recruiter: PLANNED,
  'self-evaluated': ['sections', 'no-box', 'boxes', 'truncate'],
  rating: ['no-box', 'boxes', 'truncate'],
};

/** The lines a format's structure rests on, which a `sections` break leaves out. */
const LABEL_LINES: Partial<Record<SimFormat, RegExp>> = {
  verification: /^SCORE: .*(?:\n|$)/gm,
  critique: /^SCORE: .*(?:\n|$)/gm,
  judge: /^VERDICT: .*(?:\n|$)/gm,
  critic: /^Decision: .*(?:\n|$)/gm,
  evaluator: /^Correctness: .*(?:\n|$)/gm,
};

/** Formats whose answer is the final `\boxed{}` of a solution: a `no-box` break leaves the answer unstated. */
const SOLUTIONS: ReadonlySet<SimFormat> = new Set(['solution', 'revision', 'rse-rollout', 'synthesis']);

/** A reply after the format-breaking mode: its text, whether it was cut off, and how it broke (null: intact). */
export interface BrokenReply {
  content: string;
  /** Cut off part-way: sent with `finish_reason: length`. */
  truncated: boolean;
  broken: FormatBreak | null;
}

/** Where the last `\boxed{…}` starts and ends (balanced braces), or null when there is none. */
function lastBox(text: string): { start: number; end: number; inner: string } | null {
  const start = text.lastIndexOf('\\boxed{');
  if (start < 0) return null;
  let depth = 0;
  for (let i = start + '\\boxed'.length; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return { start, end: i + 1, inner: text.slice(start + '\\boxed{'.length, i) };
  }
  return null;
}

/** `no-box`: a solution that never states its final answer; elsewhere, the last box's content written without the box. */
function unbox(format: SimFormat, text: string): string {
  if (SOLUTIONS.has(format)) {
    const kept = text.split('\n').filter((line) => !line.includes('\\boxed{'));
    return `${kept.join('\n')}\n\nWe stop here; the value still has to be settled.`;
  }
  const box = lastBox(text);
  return box === null ? text : `${text.slice(0, box.start)}${box.inner}${text.slice(box.end)}`;
}

/** `boxes`: a scratch box written on the line before the last box's, so the reply holds several. */
function addBox(text: string): string {
  const box = lastBox(text);
  if (box === null) return text;
  const lineStart = text.lastIndexOf('\n', box.start) + 1;
  return `${text.slice(0, lineStart)}A first pass left it open at \\boxed{?}; the check below settles it.\n${text.slice(lineStart)}`;
}

/** `sections`: the structure's label lines left out (for the prover, one of its two headings; for the summary, its label). */
function dropSections(format: SimFormat, text: string, rng: Rng): string {
  if (format === 'self-evaluated') return text.replace(rng.next() < 0.5 ? /^## Solution\n/m : /^## Self Evaluation\n/m, '');
  if (format === 'summary') return text.replace(/^SUMMARY: /m, '');
  const label = LABEL_LINES[format];
  return label === undefined ? text : text.replace(label, '').trimEnd();
}

/** `keys`: the reply's JSON object with every top-level key renamed (`pitfalls` → `pitfall_list`), as a model that misremembers the schema writes it. */
function renameKeys(text: string): string {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return text;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return text;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return text;
  const renamed = Object.fromEntries(Object.entries(value).map(([key, item]) => [`${key.replace(/s$/, '')}_list`, item]));
  return `${text.slice(0, start)}${JSON.stringify(renamed, null, text.includes('\n  "') ? 2 : undefined)}${text.slice(end + 1)}`;
}

/** `prose`: what the role was asked to structure, said in a paragraph instead. */
function prose(format: SimFormat): string {
  if (format === 'ceo') return 'Another round seems worthwhile: a few experts should look at the problem again, trying a different approach and checking every case, with a moderate budget.';
  if (format === 'recruiter') return 'The team needs a specialist in number theory and another in combinatorics, both careful enough to check every step of the argument.';
  return 'Looking over the attempt, the main lesson is to check every case before concluding; some intermediate steps look sound, others need more care.';
}

/** `truncate`: the reply cut off between a fifth and four fifths of the way. */
function truncate(text: string, rng: Rng): string {
  return text.slice(0, Math.floor(text.length * (0.2 + 0.6 * rng.next())));
}

/** Applies one break to a reply of `format`. */
function applyBreak(kind: FormatBreak, format: SimFormat, text: string, rng: Rng): string {
  switch (kind) {
    case 'sections':
      return dropSections(format, text, rng);
    case 'no-box':
      return unbox(format, text);
    case 'boxes':
      return addBox(text);
    case 'keys':
      return renameKeys(text);
    case 'prose':
      return prose(format);
    case 'truncate':
      return truncate(text, rng);
  }
}

/** Throws a TypeError when the rate is not in [0, 1] (programmer misuse). */
export function checkBreakRate(rate: number): void {
  if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) throw new TypeError(`breakFormats must be a rate in [0, 1], got ${String(rate)}`);
}

/**
 * The reply of `format` to the request keyed `replyKey`, broken with
 * probability `rate` in one of the ways its format can break (drawn evenly).
 */
export function breakFormat(format: SimFormat, content: string, replyKey: string, rate: number): BrokenReply {
  if (rate <= 0) return { content, truncated: false, broken: null };
  const rng = rngOf(replyKey, 'format-break');
  if (rng.next() >= rate) return { content, truncated: false, broken: null };
  const kind = rng.pick(BREAKS_OF[format]);
  return { content: applyBreak(kind, format, content, rng), truncated: kind === 'truncate', broken: kind };
}
