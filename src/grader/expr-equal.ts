/**
 * Equivalence of two expressions: exact for plain numerals, numeric
 * otherwise. Expressions with variables are compared at fixed pseudo-random
 * points (symbolic equality such as 2(x+1) = 2x+2 holds at every point; a
 * chance agreement at all of them is vanishingly unlikely), and unknown
 * functions f(x) become fixed pseudo-random functions, the same on both sides.
 */
import type { MathType } from 'mathjs';
import { bigMath, compileLatex, type Compiled } from './mathjs-env.ts';
import { scaleValue, valuesClose, type Tolerance } from './values.ts';

const POINTS = 8;

/** FNV-1a: a stable hash for seeding per-name values. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Value of variable `name` at point `p`: positive, negative and larger values all occur. */
function pointValue(name: string, p: number): number {
  const u = (hashString(`${name}#${p}`) % 100_000) / 100_000;
  if (p < 4) return 0.3 + 2.2 * u;
  if (p < 6) return -(0.3 + 2.2 * u);
  if (p < 8) return 2.5 + 3.5 * u;
  return -6 + 12 * u;
}

/** A fixed, smooth, name-specific function standing in for an unknown f. */
function uninterpreted(name: string): (...args: unknown[]) => number {
  const h = hashString(name);
  const a = 0.5 + (h % 997) / 997;
  const b = ((h >>> 10) % 991) / 991;
  return (...args: unknown[]) => {
    let total = b;
    args.forEach((arg, k) => {
      if (typeof arg !== 'number') throw new TypeError('uninterpreted function of a non-number');
      total += Math.sin(a * arg + k + b) * (k + 1.3) + 0.37 * arg * (k + 1);
    });
    return total;
  };
}

/** Evaluation scope for sample point `p`: every variable's value and every unknown function. */
export function scopeAt(names: readonly string[], funcs: readonly string[], p: number): Map<string, unknown> {
  const scope = new Map<string, unknown>();
  for (const n of names) scope.set(n, pointValue(n, p));
  for (const f of funcs) scope.set(f, uninterpreted(f));
  return scope;
}

/** Value of a compiled expression in `scope`; undefined when evaluation fails (a domain error). */
export function evaluateAt(c: Compiled, scope: Map<string, unknown>): unknown {
  try {
    return c.fn.evaluate(scope);
  } catch {
    return undefined;
  }
}

const PLAIN_DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

/** Exact comparison of two decimal numerals ("1000" = "1000.0", "0.5" = ".5"). */
function sameDecimal(a: string, b: string): boolean {
  const canon = (s: string): string => {
    const neg = s.startsWith('-');
    let body = s.replace(/^[+-]/, '');
    if (!body.includes('.')) body += '.';
    let [int = '', frac = ''] = body.split('.');
    int = int.replace(/^0+/, '');
    frac = frac.replace(/0+$/, '');
    const mag = `${int}.${frac}`;
    return mag === '.' ? '0' : (neg ? '-' : '') + mag;
  };
  return canon(a) === canon(b);
}

/** Arithmetic on numerals only: safe to redo at high precision. */
const ARITHMETIC_ONLY = /^[\d\s()+\-*/^.]+$/;

function bigEqual(a: Compiled, b: Compiled): boolean | null {
  if (!ARITHMETIC_ONLY.test(a.code) || !ARITHMETIC_ONLY.test(b.code)) return null;
  try {
    const va: MathType = bigMath.evaluate(a.code);
    const vb: MathType = bigMath.evaluate(b.code);
    // mathjs's equal() forgives a relative 1e-12; here only exact will do.
    if (!bigMath.isBigNumber(va) || !bigMath.isBigNumber(vb)) return null;
    return va.eq(vb);
  } catch {
    return null;
  }
}

/** Percent and similar readings multiply a side's value by a constant. */
export interface ExprCompareOptions {
  precision: number;
  scaleA?: number;
  scaleB?: number;
}

/**
 * Whether two cleaned LaTeX expressions are equal; null when either is not
 * an expression the translator understands (the caller compares text).
 */
export function exprEqual(texA: string, texB: string, options: ExprCompareOptions): boolean | null {
  const scaleA = options.scaleA ?? 1;
  const scaleB = options.scaleB ?? 1;
  const a = texA.trim();
  const b = texB.trim();
  if (PLAIN_DECIMAL.test(a) && PLAIN_DECIMAL.test(b)) {
    if (scaleA === scaleB && sameDecimal(a, b)) return true;
    // Two integers are equal exactly or not at all, however large.
    if (scaleA === scaleB && !a.includes('.') && !b.includes('.')) return false;
  }
  const ca = compileLatex(a);
  const cb = compileLatex(b);
  if (ca === null || cb === null) return null;
  const tol: Tolerance = { exact: !ca.hasFloat && !cb.hasFloat, precision: options.precision };
  const names = [...new Set([...ca.vars, ...cb.vars])];
  const funcs = [...new Set([...ca.funcs, ...cb.funcs])];
  if (names.length === 0 && funcs.length === 0) {
    const va = evaluateAt(ca, new Map());
    const vb = evaluateAt(cb, new Map());
    if (typeof va === 'number' && typeof vb === 'number' && scaleA === scaleB && tol.exact) {
      const huge = (v: number): boolean => !Number.isFinite(v) || Math.abs(v) >= 2 ** 53;
      if (huge(va) && huge(vb) && !ca.hasInfinity && !cb.hasInfinity) {
        const big = bigEqual(ca, cb);
        if (big !== null) return big;
      }
    }
    return valuesClose(scaleValue(va, scaleA), scaleValue(vb, scaleB), tol) === true;
  }
  let agreed = 0;
  for (let p = 0; p < POINTS; p += 1) {
    const scope = scopeAt(names, funcs, p);
    const verdict = valuesClose(scaleValue(evaluateAt(ca, scope), scaleA), scaleValue(evaluateAt(cb, scope), scaleB), tol);
    if (verdict === false) return false;
    if (verdict === true) agreed += 1;
  }
  return agreed >= 2;
}

/** Numeric value of a constant expression, or null (variables, errors, non-real). */
export function constantValue(tex: string): number | null {
  const c = compileLatex(tex.trim());
  if (c === null || c.vars.length > 0 || c.funcs.length > 0) return null;
  const v = evaluateAt(c, new Map());
  return typeof v === 'number' && !Number.isNaN(v) ? v : null;
}

/** The compiled form, for callers that evaluate at their own points (relations). */
export function compiled(tex: string): Compiled | null {
  return compileLatex(tex.trim());
}

