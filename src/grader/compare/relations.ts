/**
 * Equivalence of equations and inequalities with each other: equations are
 * equal when their differences (left minus right) are proportional ("2x+4y-3=0"
 * and "y = -\frac12 x + \frac34"); inequalities when they hold at the same
 * points ("-x > -1" and "x < 1"), in one variable exactly, in several by
 * sampling.
 */
import { compiled, evaluateAt, scopeAt } from '../math/expr-equal.ts';
import { holds, sameRealSet, toRealSet } from './real-sets.ts';
import { integerConditionsVerdict } from './integer-sets.ts';
import type { Answer, RelationOp, ResolvedOptions } from '../parse/types.ts';

type Relation = Extract<Answer, { kind: 'relation' }>;

const SAMPLES = 24;

function exprTex(a: Answer | undefined): string | null {
  return a?.kind === 'expr' ? a.tex : null;
}

/** Are two one-equation relations the same equation up to a non-zero factor? */
function proportionalEquations(a: Relation, b: Relation): boolean | null {
  const [la, ra] = a.parts.map(exprTex);
  const [lb, rb] = b.parts.map(exprTex);
  if (la == null || ra == null || lb == null || rb == null) return null;
  const da = compiled(`(${la})-(${ra})`);
  const db = compiled(`(${lb})-(${rb})`);
  if (da === null || db === null) return null;
  const names = [...new Set([...da.vars, ...db.vars])];
  // Without a variable both sides are numbers, always "proportional": "f(1) = 2" is not "f(2) = 2".
  if (names.length === 0) return null;
  const funcs = [...new Set([...da.funcs, ...db.funcs])];
  let ratio: number | null = null;
  let agreed = 0;
  for (let p = 0; p < 8; p += 1) {
    const scope = scopeAt(names, funcs, p);
    const va = evaluateAt(da, scope);
    const vb = evaluateAt(db, scope);
    if (typeof va !== 'number' || typeof vb !== 'number' || !Number.isFinite(va) || !Number.isFinite(vb)) continue;
    const scale = Math.max(1, Math.abs(va), Math.abs(vb));
    if (Math.abs(vb) <= 1e-12 * scale) {
      if (Math.abs(va) > 1e-9 * scale) return false;
      agreed += 1;
      continue;
    }
    const r = va / vb;
    if (ratio === null) {
      if (Math.abs(r) <= 1e-12) return false;
      ratio = r;
    } else if (Math.abs(r - ratio) > 1e-9 * Math.max(1, Math.abs(ratio))) return false;
    agreed += 1;
  }
  return agreed >= 2;
}

/** Truth of a relation chain at sampled points of several variables. */
function sampledTruth(a: Relation, b: Relation): boolean | null {
  const partsA = a.parts.map((p) => (exprTex(p) === null ? null : compiled(exprTex(p) ?? '')));
  const partsB = b.parts.map((p) => (exprTex(p) === null ? null : compiled(exprTex(p) ?? '')));
  if (partsA.some((c) => c === null) || partsB.some((c) => c === null)) return null;
  const all = [...partsA, ...partsB].filter((c) => c !== null);
  const names = [...new Set(all.flatMap((c) => c.vars))];
  const funcs = [...new Set(all.flatMap((c) => c.funcs))];
  const truth = (rel: Relation, parts: typeof partsA, p: number): boolean | null => {
    const scope = scopeAt(names, funcs, p);
    const values = parts.map((c) => (c === null ? undefined : evaluateAt(c, scope)));
    if (values.some((v) => typeof v !== 'number')) return null;
    const nums = values.map((v) => (typeof v === 'number' ? v : Number.NaN));
    let result = true;
    for (let k = 0; k < rel.ops.length; k += 1) {
      const op = rel.ops[k];
      const h = op === undefined ? null : holds(op, nums[k] ?? Number.NaN, nums[k + 1] ?? Number.NaN);
      if (h === null) return null;
      if (!h) result = false;
    }
    return result;
  };
  let compared = 0;
  let sawTrue = false;
  let sawFalse = false;
  for (let p = 0; p < SAMPLES; p += 1) {
    const u = truth(a, partsA, p);
    const v = truth(b, partsB, p);
    if (u === null || v === null) continue;
    if (u !== v) return false;
    if (u) sawTrue = true;
    else sawFalse = true;
    compared += 1;
  }
  // A relation that held (or failed) at every sample told us nothing about its boundary.
  if (!(compared >= 4 && sawTrue && sawFalse)) return null;
  // Samples never fall on the boundary, where "a \le b" and "a < b" part: strict against non-strict is another relation.
  return strictness(a) === strictness(b);
}

/** Which kinds of inequality a chain uses, strict and non-strict ("a < b \le c" both): its boundary's part in it. */
function strictness(r: Relation): string {
  const strict = r.ops.some((op) => op === '<' || op === '>');
  const loose = r.ops.some((op) => op === '\\le' || op === '\\ge');
  return `${strict}${loose}`;
}

/** Flips "5 \ge x" into "x \le 5" so same-shaped chains line up. */
const FLIP: Partial<Record<RelationOp, RelationOp>> = { '<': '>', '>': '<', '\\le': '\\ge', '\\ge': '\\le', '=': '=', '\\ne': '\\ne' };

function reversed(r: Relation): Relation | null {
  const ops = r.ops.map((op) => FLIP[op]);
  if (ops.some((op) => op === undefined)) return null;
  return { kind: 'relation', parts: [...r.parts].reverse(), ops: ops.reverse().filter((op): op is RelationOp => op !== undefined) };
}

/**
 * Whether two relations are equivalent. `partsEqual` compares sub-answers
 * for the structural fallback (same chain shape, parts pairwise equal).
 * `unsure` where they hold the same integers of a letter only its name says
 * is an integer (integer-sets.ts).
 */
export function relationsEqual(
  a: Relation,
  b: Relation,
  options: Pick<ResolvedOptions, 'relationsAsSets' | 'declared'>,
  partsEqual: (x: Answer, y: Answer) => boolean,
): boolean | 'unsure' {
  const { relationsAsSets, declared } = options;
  const structural = (x: Relation, y: Relation): boolean =>
    x.ops.length === y.ops.length &&
    x.ops.every((op, k) => op === y.ops[k]) &&
    x.parts.every((part, k) => {
      const other = y.parts[k];
      return other !== undefined && partsEqual(part, other);
    });
  if (structural(a, b)) return true;
  const flipped = reversed(b);
  if (flipped !== null && structural(a, flipped)) return true;
  const isEquation = (r: Relation): boolean => r.ops.length === 1 && r.ops[0] === '=';
  if (isEquation(a) && isEquation(b)) return proportionalEquations(a, b) === true;
  if (!relationsAsSets && (a.ops.includes('\\in') !== b.ops.includes('\\in'))) return false;
  const setA = toRealSet(a);
  const setB = toRealSet(b);
  if (setA !== null && setB !== null) {
    const same = sameRealSet(setA, setB);
    // "n \ge 2" against "n > 1": other reals, the same integers.
    const integers = same === false ? integerConditionsVerdict(a, b, setA, setB, declared) : null;
    if (integers !== null) return integers === 'equal' || integers;
    if (same !== null) return same;
  }
  if (a.ops.includes('\\in') || b.ops.includes('\\in')) return false;
  return sampledTruth(a, b) === true;
}
