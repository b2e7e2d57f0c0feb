/**
 * The policy for rounded decimals. A whole answer written as one decimal
 * numeral ("0.2857", "-1.414214", "1.5\times10^{-5}") stands for every value
 * that rounds (or truncates) to it at its last written digit, provided it
 * carries at least `precision` significant digits; a shorter decimal stands
 * for its exact value only. So "0.285714" equals \frac27 at the default
 * precision 6, "0.2857" does not, "0.0000005" never equals 0, a reference
 * "0.1" is never \frac17, and two decimals written to the same place are
 * equal only when they are the same number.
 */
import * as Q from './rational.ts';

/** A decimal numeral: its exact value, significant digits and the unit of its last place. */
export interface Decimal {
  value: Q.Rational;
  digits: number;
  ulp: Q.Rational;
}

const NUMERAL = /^([+-]?)(\d*)\.(\d+)\s*(?:(?:\\times|\\cdot|\*)\s*10\s*\^\s*\{?\s*([+-]?\d+)\s*\}?|[eE]([+-]?\d+))?$/;

/** The decimal a whole answer states, or null when it is not one decimal numeral with a point. */
export function toDecimal(tex: string): Decimal | null {
  const m = NUMERAL.exec(tex.trim());
  if (m === null) return null;
  const whole = m[2] ?? '';
  const frac = m[3] ?? '';
  const exponent = Number(m[4] ?? m[5] ?? '0');
  if (Math.abs(exponent) > 1000) return null;
  const mantissa = Q.parseDecimal(`${m[1] ?? ''}${whole}.${frac}`);
  if (mantissa === null) return null;
  const scale = Q.pow(Q.rational(10n), Q.rational(BigInt(exponent)));
  const unit = Q.pow(Q.rational(10n), Q.rational(BigInt(exponent - frac.length)));
  if (scale === null || unit === null) return null;
  const significant = `${whole}${frac}`.replace(/^0+/, '');
  return { value: Q.mul(mantissa, scale), digits: significant.length, ulp: unit };
}

/** |a - b| as a double, exact in the subtraction. */
function gap(a: Q.Rational, b: Q.Rational): number {
  const d = Q.sub(a, b);
  return Math.abs(Q.toNumber(d));
}

/**
 * Whether `rounded` is `exact` rounded or truncated at its last digit: within
 * half a unit, or below a unit on the side of zero. `slack` absorbs the
 * floating-point error of an irrational `exact` given as a double.
 */
function roundsTo(exact: Q.Rational | number, rounded: Decimal): boolean {
  const ulp = Q.toNumber(rounded.ulp);
  const r = Q.toNumber(rounded.value);
  const x = typeof exact === 'number' ? exact : Q.toNumber(exact);
  const diff = typeof exact === 'number' ? Math.abs(x - r) : gap(exact, rounded.value);
  const slack = typeof exact === 'number' ? 4 * Number.EPSILON * Math.abs(x) : 0;
  if (diff <= ulp / 2 + slack) return true;
  const towardZero = Math.abs(r) < Math.abs(x) && Math.sign(r) !== -Math.sign(x);
  return towardZero && diff < ulp * (1 - 1e-9) + slack;
}

/**
 * Compares a reference and a prediction when at least one is a whole decimal
 * numeral; the other is a decimal too, an exact rational, or a double (an
 * irrational value). A decimal is read as rounded only when it carries at
 * least `precision` significant digits: a short one ("0.1", "2.74") may well
 * be exact, and then only its exact value equals it (so "0.1" is never
 * \frac17). null when neither side is a decimal (not this rule's case).
 */
export function decimalsAgree(
  gold: { decimal: Decimal | null; exact: Q.Rational | null; value: number },
  pred: { decimal: Decimal | null; exact: Q.Rational | null; value: number },
  precision: number,
): boolean | null {
  const g = gold.decimal;
  const p = pred.decimal;
  const rounded = (d: Decimal): boolean => d.digits >= precision;
  if (g !== null && p !== null) {
    if (Q.same(g.value, p.value)) return true;
    // The one written to fewer places may be the rounding of the other.
    const coarse = Q.toNumber(g.ulp) >= Q.toNumber(p.ulp) ? g : p;
    const fine = coarse === g ? p : g;
    if (Q.same(coarse.ulp, fine.ulp)) return false;
    return rounded(coarse) && roundsTo(fine.value, coarse);
  }
  if (p !== null) return rounded(p) && roundsTo(gold.exact ?? gold.value, p);
  if (g !== null) return rounded(g) && roundsTo(pred.exact ?? pred.value, g);
  return null;
}
