/**
 * Closeness of evaluated mathjs values: numbers, complex numbers, matrices.
 * One rule, relative: exact forms may differ only by floating-point error;
 * a side written with decimals that differs by up to half a unit in its last
 * significant digit is an approximation, `unsure` (decimals.ts states the
 * finer rule for a whole answer that is one decimal).
 */

/** How close two numbers must be. */
export interface Tolerance {
  /** Largest relative difference accepted. */
  relative: number;
}

/** Floating-point error only: for answers written without decimals. */
export const EXACT_TOLERANCE: Tolerance = { relative: 1e-9 };

/** The tolerance for a comparison where a side has decimals, at `precision` significant digits. */
export function roundedTolerance(precision: number): Tolerance {
  return { relative: 0.5 * 10 ** (1 - Math.max(1, precision)) };
}

/** Result of comparing two values: null when they cannot be compared (domain error). */
export type Verdict = boolean | null;

/**
 * Below this, two values count as zero: floating-point noise of an exact
 * form ("\sin\pi" is 1.2e-16). Only irrational forms get here; rational
 * ones are compared exactly before (exact.ts).
 */
const NOISE = 1e-12;

function numbersClose(a: number, b: number, tol: Tolerance): Verdict {
  if (Number.isNaN(a) || Number.isNaN(b)) return null;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
  const diff = Math.abs(a - b);
  const scale = Math.max(Math.abs(a), Math.abs(b));
  if (scale <= NOISE) return true;
  return diff <= tol.relative * scale;
}

interface ComplexLike {
  re: number;
  im: number;
}

function isComplex(v: unknown): v is ComplexLike {
  return typeof v === 'object' && v !== null && 're' in v && 'im' in v;
}

function toArray(v: unknown): unknown[] | null {
  if (Array.isArray(v)) return v;
  if (typeof v === 'object' && v !== null && 'toArray' in v && typeof v.toArray === 'function') {
    const arr: unknown = v.toArray();
    return Array.isArray(arr) ? arr : null;
  }
  return null;
}

function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'object' && v !== null && 'toNumber' in v && typeof v.toNumber === 'function') {
    const n: unknown = v.toNumber();
    return typeof n === 'number' ? n : null;
  }
  return null;
}

/** Multiplies a value by `factor` (for percent readings); leaves non-numbers alone. */
export function scaleValue(v: unknown, factor: number): unknown {
  if (factor === 1) return v;
  const n = toNumber(v);
  if (n !== null) return n * factor;
  if (isComplex(v)) return { re: v.re * factor, im: v.im * factor };
  return v;
}

/**
 * Whether two evaluated values agree. A real against a complex value is a
 * domain mismatch (x^{2/3} is complex for x < 0 in mathjs, \sqrt[3]{x}^2 is
 * not), so the point is skipped rather than counted against equality.
 */
export function valuesClose(a: unknown, b: unknown, tol: Tolerance): Verdict {
  const arrA = toArray(a);
  const arrB = toArray(b);
  if (arrA !== null || arrB !== null) {
    if (arrA === null || arrB === null || arrA.length !== arrB.length) return false;
    let verdict: Verdict = true;
    for (let k = 0; k < arrA.length; k += 1) {
      const v = valuesClose(arrA[k], arrB[k], tol);
      if (v === false) return false;
      if (v === null) verdict = null;
    }
    return verdict;
  }
  const numA = toNumber(a);
  const numB = toNumber(b);
  if (numA !== null && numB !== null) return numbersClose(numA, numB, tol);
  const cA = isComplex(a) ? a : numA !== null ? { re: numA, im: 0 } : null;
  const cB = isComplex(b) ? b : numB !== null ? { re: numB, im: 0 } : null;
  if (cA === null || cB === null) return null;
  const realA = Math.abs(cA.im) <= 1e-12 * Math.max(1, Math.abs(cA.re));
  const realB = Math.abs(cB.im) <= 1e-12 * Math.max(1, Math.abs(cB.re));
  if (realA !== realB) return null;
  const re = numbersClose(cA.re, cB.re, tol);
  const im = numbersClose(cA.im, cB.im, tol);
  if (re === false || im === false) return false;
  return re === null || im === null ? null : true;
}
