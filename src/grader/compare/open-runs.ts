/**
 * A run of consecutive integers left open ("2, 3, 4, \dots", "\{2, 3,
 * \ldots\}") against a lower bound on one letter ("n \ge 2", "n > 1",
 * "[2, \infty)"). Over the integers they are one answer, over the reals they
 * are not, and only the question says which: the same start is `unsure`, and
 * another start is `different`.
 */
import type { Answer } from '../parse/types.ts';

const INTEGER = /^-?\d+$/;

/** The first integer of an open run of step 1, or null for anything else. */
function openRunStart(a: Answer): number | null {
  if ((a.kind !== 'list' && a.kind !== 'set') || a.items.length < 2) return null;
  const last = a.items[a.items.length - 1];
  if (last?.kind !== 'expr' || last.tex.trim() !== '\\dots') return null;
  const values = a.items.slice(0, -1).map((item) => (item.kind === 'expr' && INTEGER.test(item.tex.trim()) ? Number(item.tex) : null));
  if (values.some((v, k) => v === null || (k > 0 && v !== (values[k - 1] ?? NaN) + 1))) return null;
  return values[0] ?? null;
}

const texOf = (a: Answer | undefined): string => (a?.kind === 'expr' ? a.tex.trim() : '');

/** The least integer a lower bound on one letter admits ("n \ge 2" and "n > 1" give 2), or null for anything else. */
function boundStart(a: Answer): number | null {
  if (a.kind === 'tuple' && a.items.length === 2 && texOf(a.items[1]) === '\\infty' && INTEGER.test(texOf(a.items[0]))) {
    return Number(texOf(a.items[0])) + (a.open === '(' ? 1 : 0);
  }
  if (a.kind !== 'relation' || a.parts.length !== 2) return null;
  const [left, right] = [texOf(a.parts[0]), texOf(a.parts[1])];
  const op = a.ops[0];
  const letterFirst = /^[a-zA-Z]$/.test(left) && INTEGER.test(right);
  const boundFirst = /^[a-zA-Z]$/.test(right) && INTEGER.test(left);
  if (letterFirst && (op === '\\ge' || op === '>')) return Number(right) + (op === '>' ? 1 : 0);
  if (boundFirst && (op === '\\le' || op === '<')) return Number(left) + (op === '<' ? 1 : 0);
  return null;
}

/** `unsure` or `different` for an open run against a lower bound, in either order; null when the pair is not one. */
export function openRunVerdict(gold: Answer, pred: Answer): 'unsure' | 'different' | null {
  const run = openRunStart(gold) ?? openRunStart(pred);
  const bound = openRunStart(gold) === null ? boundStart(gold) : boundStart(pred);
  if (run === null || bound === null) return null;
  return run === bound ? 'unsure' : 'different';
}
