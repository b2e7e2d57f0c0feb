/**
 * A float's digits as Python writes them with a precision: the decimal
 * nearest the float's exact value, a tie to the even digit. JavaScript's
 * toFixed and toExponential take a tie up, so `'%.1f' % 2.25` gave 2.3 and
 * `0.125 | round(2)` 0.13, where Python gives 2.2 and 0.12 (2.25 and 0.125
 * are exact in binary, so each is a true tie).
 */

/** The digits of a decimal text (no sign) raised by one in the last place, the carry carried ("9.99" to "10.00"). */
function incremented(digits: string): string {
  const chars = digits.split('');
  for (let index = chars.length - 1; index >= 0; index--) {
    const char = chars[index] as string;
    if (char === '.') continue;
    if (char !== '9') {
      chars[index] = String(Number(char) + 1);
      return chars.join('');
    }
    chars[index] = '0';
  }
  return `1${chars.join('')}`;
}

/** `kept` rounded by the digits that follow it: up past a half, to the even last digit on a true tie. */
function roundedBy(kept: string, rest: string): string {
  const last = Number(kept.replace('.', '').slice(-1));
  const first = rest[0] ?? '0';
  const tie = /^50*$/.test(rest);
  const up = first > '5' || (first === '5' && (!tie || last % 2 === 1));
  return up ? incremented(kept) : kept;
}

/** Python's `'%.{precision}f' % x` of a finite x, without its sign (Math.abs first). */
export function fixedDigits(x: number, precision: number): string {
  const magnitude = Math.abs(x);
  // Past 1e21 a double is an integer, which toFixed would write in exponent notation.
  if (magnitude >= 1e21) return BigInt(magnitude).toString() + (precision > 0 ? `.${'0'.repeat(precision)}` : '');
  const exact = magnitude.toFixed(Math.min(100, precision + 30));
  const point = exact.indexOf('.');
  const kept = exact.slice(0, precision === 0 ? point : point + 1 + precision);
  return roundedBy(kept, exact.slice(point + 1 + precision));
}

/** Python's `'%.{precision}e' % x` of a finite x without its sign: the mantissa's digits and the exponent. */
export function exponentDigits(x: number, precision: number): { mantissa: string; power: number } {
  const [digits = '0', exponent = '0'] = Math.abs(x).toExponential(Math.min(100, precision + 30)).split('e');
  const kept = digits.slice(0, precision === 0 ? 1 : 2 + precision);
  let mantissa = roundedBy(kept, digits.slice(precision === 0 ? 2 : 2 + precision));
  let power = Number(exponent);
  // 9.99 rounded to 10.0: one digit more before the point, the exponent one up.
  if (/^10/.test(mantissa)) {
    mantissa = `1${precision === 0 ? '' : `.${'0'.repeat(precision)}`}`;
    power++;
  }
  return { mantissa, power };
}
