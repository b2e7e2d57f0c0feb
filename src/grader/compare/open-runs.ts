/**
 * A run of consecutive integers ("2, 3, 4, \dots", "\{2, 3, \ldots\}",
 * "1, 2, \ldots, 1235") against a range on one letter ("n \ge 2", "n > 1",
 * "[2, \infty)", "1 \le n \le 1235", "[1, 1235]") or against another run.
 * Over the integers a run and a range are one answer, over the reals they
 * are not, and only the question says which: the same range is `unsure`,
 * another is `different`. Two runs are equal when they start and end alike.
 */
import type { Answer } from '../parse/types.ts';

const INTEGER = /^-?\d+$/;

/** The first and last integers a run or a range holds; `end` null when it goes on without end. */
interface IntegerRange {
  start: number;
  end: number | null;
}

const texOf = (a: Answer | undefined): string => (a?.kind === 'expr' ? a.tex.trim() : '');

/** A run of step 1 left open ("2, 3, \dots") or closed by its last integer ("1, 2, \dots, 1235"); null for anything else. */
function runRange(a: Answer): IntegerRange | null {
  if ((a.kind !== 'list' && a.kind !== 'set') || a.items.length < 2) return null;
  const dots = a.items.findIndex((item) => texOf(item) === '\\dots');
  const after = a.items.slice(dots + 1);
  if (dots < 1 || after.length > 1 || (after.length === 1 && !INTEGER.test(texOf(after[0])))) return null;
  const values = a.items.slice(0, dots).map((item) => (INTEGER.test(texOf(item)) ? Number(texOf(item)) : null));
  if (values.some((v, k) => v === null || (k > 0 && v !== (values[k - 1] ?? NaN) + 1))) return null;
  const end = after.length === 1 ? Number(texOf(after[0])) : null;
  const start = values[0] ?? null;
  return start === null || (end !== null && end < start) ? null : { start, end };
}

/** The integers a bound on one letter admits: "n \ge 2" and "n > 1" from 2, "1 \le n \le 9" from 1 to 9. */
function relationRange(a: Extract<Answer, { kind: 'relation' }>): IntegerRange | null {
  const parts = a.parts.map(texOf);
  const letter = parts.findIndex((part) => /^[a-zA-Z]$/.test(part));
  if (letter < 0 || parts.some((part, k) => k !== letter && !INTEGER.test(part))) return null;
  let start: number | null = null;
  let end: number | null = null;
  a.ops.forEach((op, k) => {
    const letterLeft = k === letter;
    const bound = Number(parts[letterLeft ? k + 1 : k]);
    const lower = letterLeft ? op === '\\ge' || op === '>' : op === '\\le' || op === '<';
    const strict = op === '>' || op === '<' ? 1 : 0;
    if (lower) start = bound + strict;
    else if (op !== '=' && op !== '\\ne') end = bound - strict;
  });
  return start === null ? null : { start, end };
}

/** The integers a lower bound, a range or an interval with integer ends admits; null for anything else. */
function boundRange(a: Answer): IntegerRange | null {
  if (a.kind === 'tuple' && a.items.length === 2 && INTEGER.test(texOf(a.items[0]))) {
    const start = Number(texOf(a.items[0])) + (a.open === '(' ? 1 : 0);
    if (texOf(a.items[1]) === '\\infty') return { start, end: null };
    return INTEGER.test(texOf(a.items[1])) ? { start, end: Number(texOf(a.items[1])) - (a.close === ')' ? 1 : 0) } : null;
  }
  return a.kind === 'relation' && a.parts.length <= 3 ? relationRange(a) : null;
}

/** The verdict for a run against a range or another run, in either order; null when the pair is not one. */
export function openRunVerdict(gold: Answer, pred: Answer): 'equal' | 'unsure' | 'different' | null {
  const goldRun = runRange(gold);
  const predRun = runRange(pred);
  const same = (x: IntegerRange, y: IntegerRange): boolean => x.start === y.start && x.end === y.end;
  if (goldRun !== null && predRun !== null) return same(goldRun, predRun) ? 'equal' : 'different';
  const run = goldRun ?? predRun;
  const bound = goldRun === null ? boundRange(gold) : boundRange(pred);
  if (run === null || bound === null) return null;
  return same(run, bound) ? 'unsure' : 'different';
}
