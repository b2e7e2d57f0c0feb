/**
 * The policy for decimals. A whole answer written as one decimal numeral
 * ("0.2857", "-1.414214", "1.5\times10^{-5}") equals a closed form (a
 * fraction, a root, \pi, an integer) only when it is exactly its value
 * ("0.25" and \frac14). Otherwise it is an approximation, right or wrong in
 * intent (did the question ask for a decimal, to how many places?), which no
 * rule can know: `unsure` when it is the closed form rounded or truncated at
 * its last written digit ("0.285714" or "0.29" against \frac27, "23.14"
 * against e^\pi, "0.1" against \frac17), `different` when it is not even
 * that ("0.27" against \frac27, "3.15" against \pi). Two decimals are
 * compared as written: equal when the same number, or when the one written
 * to fewer places carries at least `precision` significant digits and is
 * the other rounded there.
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
 * Compares two whole decimal numerals (a reference and a prediction): the
 * same number, or the coarser one, when it carries at least `precision`
 * significant digits, is the finer one rounded or truncated at its last
 * digit. "0.33" and "0.3" differ; so do "2.74" and "2.7401".
 */
export function decimalsAgree(gold: Decimal, pred: Decimal, precision: number): boolean {
  if (Q.same(gold.value, pred.value)) return true;
  const coarse = Q.toNumber(gold.ulp) >= Q.toNumber(pred.ulp) ? gold : pred;
  const fine = coarse === gold ? pred : gold;
  if (Q.same(coarse.ulp, fine.ulp)) return false;
  return coarse.digits >= precision && roundsTo(fine.value, coarse);
}

/**
 * A decimal numeral against a closed form that is not exactly its value
 * (the caller has checked): `unsure` when the decimal is that value rounded
 * or truncated at its last digit, however few digits it carries (an
 * approximation the question may or may not have asked for), `different`
 * otherwise. `exact` is the closed form's value, as a rational when it is one.
 */
export function approximationVerdict(exact: Q.Rational | number, decimal: Decimal): 'unsure' | 'different' {
  return roundsTo(exact, decimal) ? 'unsure' : 'different';
}
