/**
 * Subsets of the real line described in different ways ("x \le 3",
 * "(-\infty, 3]", "1 \le |z| \le \frac32", "[-1, 0) \cup \{2\}") compared by
 * membership: both descriptions must agree at every boundary point, just
 * beside it, and between boundaries. Boundaries of relations are found as
 * sign changes on a wide grid, refined by bisection.
 */
import { isLabel } from '../parse/labels.ts';
import { parseTop } from '../parse/parse.ts';
import { splitTopLevel } from '../extract/scan.ts';
import { constantValue, compiled, evaluateAt } from '../math/expr-equal.ts';
import type { Answer, RelationOp } from '../parse/types.ts';

/** A subset of the reals: a membership test and the points where membership may change. */
export interface RealSet {
  has(x: number): boolean | null;
  boundaries: number[];
}

const EPS = 1e-9;

/** Grid for boundary search: 0, and ±10^(k/20) from 1e-2 to 1e4. */
const GRID: number[] = (() => {
  const pts: number[] = [0];
  for (let k = -40; k <= 80; k += 1) {
    const v = 10 ** (k / 20);
    pts.push(v, -v);
  }
  return pts.sort((a, b) => a - b);
})();

function realValue(v: unknown): number | null {
  if (typeof v === 'number' && !Number.isNaN(v)) return v;
  return null;
}

/** A one-variable function of x for a relation side; null when it is not one. */
type Side = (x: number) => number | null;

function constantSide(value: number): Side {
  return () => value;
}

/**
 * Builds the sides of a relation chain as functions of one real variable.
 * "0 < f(x) < 1": a part that is only a name (label) is the variable itself.
 */
function relationSides(parts: readonly Answer[]): Side[] | null {
  const texts = parts.map((p) => (p.kind === 'expr' ? p.tex : null));
  if (texts.some((t) => t === null)) return null;
  const infos = texts.map((t) => compiled(t ?? ''));
  if (infos.some((c) => c === null)) return null;
  const variableParts = infos.filter((c) => c !== null && (c.vars.length > 0 || c.funcs.length > 0));
  const names = new Set(variableParts.flatMap((c) => c?.vars ?? []));
  const sides: Side[] = [];
  for (let k = 0; k < infos.length; k += 1) {
    const info = infos[k];
    const tex = texts[k] ?? '';
    if (info === null || info === undefined) return null;
    if (info.vars.length === 0 && info.funcs.length === 0) {
      const value = constantValue(tex);
      if (value === null) return null;
      sides.push(constantSide(value));
    } else if (names.size === 1 && info.funcs.length === 0) {
      const name = info.vars[0] ?? '';
      sides.push((x) => realValue(evaluateAt(info, new Map([[name, x]]))));
    } else if (variableParts.length === 1 && isLabel(tex)) {
      sides.push((x) => x);
    } else return null;
  }
  return sides;
}

/**
 * Whether `a op b` holds, forgiving rounding error at the boundary; null for
 * operators that do not compare numbers (\in, \to).
 */
export function holds(op: RelationOp, a: number, b: number): boolean | null {
  // "-\\infty < x": an infinite side sets no scale (an infinite tolerance made every comparison false).
  const tol = EPS * Math.max(1, ...[a, b].filter(Number.isFinite).map(Math.abs));
  switch (op) {
    case '<':
      return a < b - tol;
    case '>':
      return a > b + tol;
    case '\\le':
      return a <= b + tol;
    case '\\ge':
      return a >= b - tol;
    case '=':
      return Math.abs(a - b) <= tol;
    case '\\ne':
      return Math.abs(a - b) > tol;
    default:
      return null;
  }
}

/** Sign changes of f on the grid, refined by bisection. */
function roots(f: Side): number[] {
  const found: number[] = [];
  let prevX: number | null = null;
  let prevY: number | null = null;
  for (const x of GRID) {
    const y = f(x);
    if (y !== null && Number.isFinite(y)) {
      if (y === 0) found.push(x);
      else if (prevX !== null && prevY !== null && prevY !== 0 && Math.sign(y) !== Math.sign(prevY)) {
        let lo = prevX;
        let hi = x;
        let flo = prevY;
        for (let k = 0; k < 60; k += 1) {
          const mid = (lo + hi) / 2;
          const fm = f(mid);
          if (fm === null) break;
          if (Math.sign(fm) === Math.sign(flo)) {
            lo = mid;
            flo = fm;
          } else hi = mid;
        }
        found.push((lo + hi) / 2);
      }
    }
    prevX = y === null ? null : x;
    prevY = y;
  }
  return found;
}

function relationSet(answer: Extract<Answer, { kind: 'relation' }>): RealSet | null {
  const [label, values] = answer.parts;
  // "x \\ne \\pm 1": a letter against several values (a \\pm), none of which it is.
  if (answer.ops.length === 1 && answer.ops[0] === '\\ne' && label?.kind === 'expr' && isLabel(label.tex) && (values?.kind === 'list' || values?.kind === 'set')) {
    const excluded = finiteSet(values.items);
    return excluded === null ? null : { boundaries: excluded.boundaries, has: (x) => excluded.has(x) === false };
  }
  if (answer.ops.includes('\\in')) {
    if (answer.ops.length !== 1) return null;
    const [lhs, rhs] = answer.parts;
    if (lhs?.kind !== 'expr' || rhs === undefined || !isLabel(lhs.tex)) return null;
    return toRealSet(rhs);
  }
  if (answer.ops.some((op) => op === '\\to' || op === '\\in')) return null;
  const sides = relationSides(answer.parts);
  if (sides === null) return null;
  const boundaries: number[] = [];
  for (let k = 0; k + 1 < sides.length; k += 1) {
    const a = sides[k];
    const b = sides[k + 1];
    if (a === undefined || b === undefined) return null;
    boundaries.push(...roots((x) => {
      const va = a(x);
      const vb = b(x);
      return va === null || vb === null ? null : va - vb;
    }));
  }
  return {
    boundaries,
    has(x) {
      const values = sides.map((s) => s(x));
      if (values.some((v) => v === null)) return null;
      return answer.ops.every((op, k) => holds(op, values[k] ?? Number.NaN, values[k + 1] ?? Number.NaN) === true);
    },
  };
}

/** The real set an answer describes, or null when it is not one. */
export function toRealSet(answer: Answer): RealSet | null {
  switch (answer.kind) {
    case 'tuple': {
      if (answer.items.length !== 2) return null;
      const [loA, hiA] = answer.items;
      if (loA?.kind !== 'expr' || hiA?.kind !== 'expr') return null;
      const lo = constantValue(loA.tex);
      const hi = constantValue(hiA.tex);
      if (lo === null || hi === null || !(lo <= hi)) return null;
      const closedLo = answer.open === '[';
      const closedHi = answer.close === ']';
      return {
        boundaries: [lo, hi].filter(Number.isFinite),
        // The same tolerance as relations: a boundary found by bisection is off by an ulp.
        has: (x) =>
          (lo === -Infinity || holds(closedLo ? '\\ge' : '>', x, lo) === true) &&
          (hi === Infinity || holds(closedHi ? '\\le' : '<', x, hi) === true),
      };
    }
    case 'list':
      return answer.all === true ? combined(answer.items, 'every') : finiteSet(answer.items);
    case 'set':
      return finiteSet(answer.items);
    case 'union':
      return combined(answer.parts, 'some');
    case 'relation':
      return relationSet(answer);
    case 'expr':
      if (answer.tex === 'R') return { boundaries: [], has: () => true };
      return isNamedReals(answer.tex) ? namedReals(answer.tex) : difference(answer.tex);
    default:
      return null;
  }
}

/** The values `items` name, each a constant; null when one is not. */
function finiteSet(items: readonly Answer[]): RealSet | null {
  const values = items.map((i) => (i.kind === 'expr' ? constantValue(i.tex) : null));
  if (values.some((v) => v === null)) return null;
  const points = values.filter((v): v is number => v !== null);
  return {
    boundaries: points,
    has: (x) => points.some((p) => Math.abs(p - x) <= EPS * Math.max(1, Math.abs(p))),
  };
}

/**
 * The reals in some of `parts` (a union) or in every one (an intersection:
 * "x > 0 and x \\ne 3"); null when a part is no set of reals.
 */
function combined(parts: readonly Answer[], mode: 'some' | 'every'): RealSet | null {
  const sets = parts.map(toRealSet);
  if (sets.some((s) => s === null)) return null;
  const known = sets.filter((s): s is RealSet => s !== null);
  // The membership that settles it at once: in one part for a union, out of one for an intersection.
  const decisive = mode === 'some';
  return {
    boundaries: known.flatMap((s) => s.boundaries),
    has(x) {
      let unknown = false;
      for (const s of known) {
        const v = s.has(x);
        if (v === decisive) return decisive;
        if (v === null) unknown = true;
      }
      return unknown ? null : !decisive;
    },
  };
}

/** "\\mathbb{R}", "\\mathbb{R}_{\\ge 0}", "\\mathbb{R}^+": the reals, or a part of them, by name. */
const NAMED_REALS = /^\\mathbb\s*\{?\s*R\s*\}?((?:\s*[_^]\s*(?:\{[^{}]*\}|\\[a-zA-Z]+|[^\s\\]))*)\s*$/;

/** Whether `tex` names the reals or a part of them by a mark on \\mathbb{R}. */
export function isNamedReals(tex: string): boolean {
  return NAMED_REALS.test(tex.trim());
}

/**
 * The set a name of the reals states: all of them, or a half-line written
 * with its bound ("\\mathbb{R}_{>0}", "\\mathbb{R}_{\\ge 0}"); null for a
 * mark whose meaning is a convention ("\\mathbb{R}^+" holds 0 in some
 * countries, not in others; "\\mathbb{R}^*").
 */
function namedReals(tex: string): RealSet | null {
  const marks = (NAMED_REALS.exec(tex.trim())?.[1] ?? '').replace(/[\s{}]/g, '');
  if (marks === '') return { boundaries: [], has: () => true };
  const half = /^[_^](>|<|\\ge|\\le)(-?\d+(?:\.\d+)?)$/.exec(marks);
  if (half === null) return null;
  const op = half[1] === '>' ? '>' : half[1] === '<' ? '<' : half[1] === '\\ge' ? '\\ge' : '\\le';
  const end = Number(half[2]);
  return { boundaries: [end], has: (x) => holds(op, x, end) };
}

/** "\\mathbb{R} \\setminus \\{0\\}", "[0, 2] \\setminus \\{1\\}": the members of the left not in the right. */
function difference(tex: string): RealSet | null {
  const parts = splitTopLevel(tex, ['\\setminus']);
  if (parts.length !== 2) return null;
  const [left, right] = parts.map((p) => toRealSet(parseTop(p.trim())));
  if (left == null || right == null) return null;
  return {
    boundaries: [...left.boundaries, ...right.boundaries],
    has(x) {
      const inLeft = left.has(x);
      const inRight = right.has(x);
      return inLeft === null || inRight === null ? null : inLeft && !inRight;
    },
  };
}

/** Whether two real sets have the same members (null when undecidable). */
export function sameRealSet(a: RealSet, b: RealSet): boolean | null {
  const marks = [...new Set([...a.boundaries, ...b.boundaries].filter(Number.isFinite))].sort((x, y) => x - y);
  const probes: number[] = [0, 0.5, -0.5, 1.7, -2.3, 10.1, -10.1, 1e5, -1e5];
  marks.forEach((m, k) => {
    const d = 1e-6 * Math.max(1, Math.abs(m));
    probes.push(m, m - d, m + d);
    const next = marks[k + 1];
    if (next !== undefined) probes.push((m + next) / 2);
  });
  if (marks.length > 0) probes.push((marks[0] ?? 0) - 1, (marks[marks.length - 1] ?? 0) + 1);
  let compared = 0;
  for (const x of probes) {
    const u = a.has(x);
    const v = b.has(x);
    if (u === null || v === null) continue;
    if (u !== v) return false;
    compared += 1;
  }
  return compared >= 3 ? true : null;
}
