/**
 * Exact rational numbers on BigInt, for the answers that floating point gets
 * wrong: big powers, factorials and binomials ("12^{10}" against its value
 * plus one), and decimals read as the fractions they are ("0.1" is 1/10).
 */

/** A rational p/q in lowest terms, q > 0. */
export interface Rational {
  readonly p: bigint;
  readonly q: bigint;
}

/** Results beyond this many bits are not computed: the caller falls back to floating point. */
export const MAX_BITS = 200_000;

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** p/q reduced; throws RangeError on a zero denominator (a caller's division by zero). */
export function rational(p: bigint, q = 1n): Rational {
  if (q === 0n) throw new RangeError('division by zero');
  const g = gcd(p, q);
  const sign = q < 0n ? -1n : 1n;
  return g === 0n ? { p: 0n, q: 1n } : { p: (sign * p) / g, q: (sign * q) / g };
}

/** The exact value of a decimal numeral ("-12.50", "1.5e-5"); null when it is not one. */
export function parseDecimal(text: string): Rational | null {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (m === null || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) return null;
  const frac = m[3] ?? '';
  const exponent = Number(m[4] ?? '0') - frac.length;
  if (Math.abs(exponent) > 10_000) return null;
  let p = BigInt(`${m[2] ?? ''}${frac}` || '0');
  if (m[1] === '-') p = -p;
  return exponent >= 0 ? rational(p * 10n ** BigInt(exponent)) : rational(p, 10n ** BigInt(-exponent));
}

const bits = (n: bigint): number => (n < 0n ? -n : n).toString(16).length * 4;

/** Sum. */
export const add = (a: Rational, b: Rational): Rational => rational(a.p * b.q + b.p * a.q, a.q * b.q);
/** Difference. */
export const sub = (a: Rational, b: Rational): Rational => rational(a.p * b.q - b.p * a.q, a.q * b.q);
/** Product. */
export const mul = (a: Rational, b: Rational): Rational => rational(a.p * b.p, a.q * b.q);
/** Quotient; throws RangeError when b is zero. */
export const div = (a: Rational, b: Rational): Rational => rational(a.p * b.q, a.q * b.p);
/** Exact equality. */
export const same = (a: Rational, b: Rational): boolean => a.p === b.p && a.q === b.q;
/** True for an integer. */
export const isInteger = (a: Rational): boolean => a.q === 1n;

/** a^n for an integer n; null when the result would be too large to be worth computing exactly. */
export function pow(a: Rational, n: Rational): Rational | null {
  if (!isInteger(n)) return null;
  const e = n.p < 0n ? -n.p : n.p;
  if (a.p === 0n) return n.p < 0n ? null : n.p === 0n ? rational(1n) : a;
  if ((bits(a.p) + bits(a.q)) * Number(e) > MAX_BITS * 4) return null;
  const r = rational(a.p ** e, a.q ** e);
  return n.p < 0n ? div(rational(1n), r) : r;
}

/** n! for an integer 0 ≤ n ≤ 3000; null otherwise. */
export function factorial(n: Rational): Rational | null {
  if (!isInteger(n) || n.p < 0n || n.p > 3000n) return null;
  let r = 1n;
  for (let k = 2n; k <= n.p; k += 1n) r *= k;
  return rational(r);
}

/** n!! for an integer -1 ≤ n ≤ 10000; null otherwise. */
export function doubleFactorial(n: Rational): Rational | null {
  if (!isInteger(n) || n.p < -1n || n.p > 10_000n) return null;
  let r = 1n;
  for (let k = n.p; k > 1n; k -= 2n) r *= k;
  return rational(r);
}

/** The binomial coefficient for integers 0 ≤ n ≤ 100000, min(k, n−k) ≤ 2000 (0 when k is out of range); null otherwise. */
export function binomial(n: Rational, k: Rational): Rational | null {
  if (!isInteger(n) || !isInteger(k) || n.p < 0n || n.p > 100_000n) return null;
  if (k.p < 0n || k.p > n.p) return rational(0n);
  const kk = k.p > n.p - k.p ? n.p - k.p : k.p;
  // Beyond this the product costs more than it is worth: the caller compares in floating point.
  if (kk > 2000n) return null;
  let r = 1n;
  for (let j = 1n; j <= kk; j += 1n) r = (r * (n.p - kk + j)) / j;
  return rational(r);
}

/** floor(a). */
export function floor(a: Rational): Rational {
  const q = a.p / a.q;
  return rational(a.p < 0n && q * a.q !== a.p ? q - 1n : q);
}

/** The exact k-th root of a rational when it is one (√(9/4) = 3/2); null otherwise. */
export function root(a: Rational, k: Rational): Rational | null {
  if (!isInteger(k) || k.p < 1n || k.p > 64n) return null;
  const n = Number(k.p);
  if (a.p < 0n && n % 2 === 0) return null;
  const intRoot = (x: bigint): bigint | null => {
    if (x < 0n) {
      const r = intRoot(-x);
      return r === null ? null : -r;
    }
    if (x < 2n) return x;
    // Newton's method from a power of two above the root.
    let r = 1n << BigInt(Math.ceil(bits(x) / n) + 1);
    for (;;) {
      const next = ((BigInt(n) - 1n) * r + x / r ** BigInt(n - 1)) / BigInt(n);
      if (next >= r) break;
      r = next;
    }
    return r ** BigInt(n) === x ? r : null;
  };
  const p = intRoot(a.p);
  const q = intRoot(a.q);
  return p === null || q === null ? null : rational(p, q);
}

/** Nearest double (exact for moderate sizes). */
export function toNumber(a: Rational): number {
  if (bits(a.p) < 1000 && bits(a.q) < 1000) return Number(a.p) / Number(a.q);
  // Scale both to about 60 significant bits before dividing.
  const shift = Math.max(0, Math.max(bits(a.p), bits(a.q)) - 900);
  return Number(a.p >> BigInt(shift)) / Number(a.q >> BigInt(shift));
}
