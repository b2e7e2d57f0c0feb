/**
 * Notations of an answer that the parser does not read, rewritten to ones
 * it does before an answer is parsed: plain TeX's infix fraction and
 * binomial ("{1 \over 2}", "{n \choose k}"), repeating decimals
 * ("0.1\overline{6}", "0.\dot{3}"), intervals with outward brackets
 * ("]1, 2[") and assignments set in rows ("x &= 3 \\ y &= 4"). Each keeps
 * the answer exactly.
 */

/**
 * The first brace from `from` on, stepping by `step` (1 rightwards, -1
 * leftwards), that closes the group `from` is in: `}` rightwards, `{`
 * leftwards; `\{` and `\}` are not braces. -1 when there is none.
 */
function groupEdge(s: string, from: number, step: 1 | -1): number {
  const [inward, outward] = step === 1 ? ['{', '}'] : ['}', '{'];
  let depth = 0;
  for (let i = from; i >= 0 && i < s.length; i += step) {
    if (s[i - 1] === '\\') continue;
    if (s[i] === inward) depth += 1;
    else if (s[i] === outward) {
      if (depth === 0) return i;
      depth -= 1;
    }
  }
  return -1;
}

/** Where the group around `at` opens and closes: its braces, or the ends of `s`. */
function enclosingGroup(s: string, at: number): { open: number; close: number } {
  const close = groupEdge(s, at, 1);
  return { open: groupEdge(s, at - 1, -1), close: close < 0 ? s.length : close };
}

/** How many infix commands one answer may hold: a bound on the work. */
const MAX_INFIX = 20;

/**
 * "{1 \over 2}", "{n \choose k}": what stands before the command in its
 * group is the numerator (top), what stands after it the denominator
 * (bottom), as plain TeX reads them; written as `\frac` and `\binom`.
 */
export function infixFractions(input: string): string {
  let s = input;
  for (let guard = 0; guard < MAX_INFIX; guard += 1) {
    const m = /\\(over|choose)(?![a-zA-Z])/.exec(s);
    if (m === null) break;
    const { open, close } = enclosingGroup(s, m.index);
    const command = m[1] === 'over' ? '\\frac' : '\\binom';
    const top = s.slice(open + 1, m.index).trim();
    const bottom = s.slice(m.index + m[0].length, close).trim();
    s = `${s.slice(0, open + 1)}${command}{${top}}{${bottom}}${s.slice(close)}`;
  }
  return s;
}

/** whole.fixed followed by `repeated` repeating, as an exact fraction. */
function repeatingFraction(sign: string, whole: string, fixed: string, repeated: string): string {
  // x = (digits of whole, fixed and one period - digits of whole and fixed) / (10^|fixed| (10^|period| - 1)).
  const numerator = BigInt(`${whole}${fixed}${repeated}`) - BigInt(`${whole}${fixed}`);
  const denominator = 10n ** BigInt(fixed.length) * (10n ** BigInt(repeated.length) - 1n);
  return `${sign}\\frac{${numerator}}{${denominator}}`;
}

/** "0.1\overline{6}", "0.\bar{3}", "0.\dot{3}": a bar or a dot over the period. */
const BARRED = /(-?)(?<![\d.])(\d*)\.(\d*)\\(?:overline|bar|dot)\s*\{\s*(\d{1,12})\s*\}(?!\s*\d)/g;

/** "0.\dot{1}4285\dot{7}": dots over the first and the last digit of the period. */
const DOTTED = /(-?)(?<![\d.])(\d*)\.(\d*)\\dot\s*\{?(\d)\}?(\d{0,10})\\dot\s*\{?(\d)\}?(?!\s*\d)/g;

/** "0.999...", "0.1666\dots" (the synonyms' spelling of \ldots, \cdots and "…"): digits, then an ellipsis. */
const ELLIPSIS = /(-?)(?<![\d.])(\d*)\.(\d+)\s*(?:\.{3}|\\dots(?![a-zA-Z]))/g;

/** The longest period an ellipsis may say repeats: a seventh's six digits. */
const LONGEST_PERIOD = 6;

/**
 * The repeating end of the digits before an ellipsis, when they show one: a
 * digit written three times at least ("0.999...", "0.1666..."), or a longer
 * period twice ("0.1212...", "0.142857142857..."). Null otherwise: "3.14159..."
 * is a value cut short, not a repeating decimal.
 */
function periodBefore(digits: string): { fixed: string; period: string } | null {
  for (let length = 1; length <= LONGEST_PERIOD; length++) {
    let start = digits.length - length;
    while (start > 0 && digits[start - 1] === digits[start - 1 + length]) start--;
    if (start >= 0 && digits.length - start >= Math.max(3, 2 * length)) return { fixed: digits.slice(0, start), period: digits.slice(start, start + length) };
  }
  return null;
}

/**
 * A repeating decimal as the fraction it is: "0.1\overline{6}" is 1/6,
 * "0.\dot{1}4285\dot{7}" 1/7, "0.999..." 1. A digit after the period
 * ("0.\overline{3}1") is no notation the rule knows, nor digits before an
 * ellipsis that show no period; the numeral stays as written.
 */
export function repeatingDecimals(s: string): string {
  if (/\d\s*(?:\.{3}|\\dots(?![a-zA-Z]))/.test(s)) {
    s = s.replace(ELLIPSIS, (match: string, sign: string, whole: string, digits: string) => {
      const repeating = periodBefore(digits);
      return repeating === null ? match : repeatingFraction(sign, whole || '0', repeating.fixed, repeating.period);
    });
  }
  if (!/\\(?:overline|bar|dot)(?![a-zA-Z])/.test(s)) return s;
  return s
    .replace(BARRED, (_m: string, sign: string, whole: string, fixed: string, period: string) => repeatingFraction(sign, whole || '0', fixed, period))
    .replace(DOTTED, (_m: string, sign: string, whole: string, fixed: string, first: string, middle: string, last: string) =>
      repeatingFraction(sign, whole || '0', fixed, `${first}${middle}${last}`),
    );
}

/**
 * "]1, 2[", "[0 ; 1[", "x \in ]-\infty, 3]": an interval as French and other
 * European schools write it, a bracket turned outwards for an open end.
 * Only a whole interval (the answer, a part of a union, the value after a
 * label) is read so, never brackets inside an expression.
 */
const OUTWARD_INTERVAL = /(^|\\cup|\\in|=)(\s*)([[\]])\s*([^[\],;]+?)\s*[,;]\s*([^[\],;]+?)\s*([[\]])(?=\s*(?:$|\\cup))/g;

/** Intervals with outward brackets ("]1, 2[") in the notation with parentheses ("(1, 2)"). */
export function outwardIntervals(s: string): string {
  if (!/[[\]]/.test(s)) return s;
  return s.replace(OUTWARD_INTERVAL, (whole: string, before: string, space: string, open: string, low: string, high: string, close: string) => {
    if (open === '[' && close === ']') return whole;
    return `${before}${space}${open === ']' ? '(' : '['}${low}, ${high}${close === '[' ? ')' : ']'}`;
  });
}

/** A row break or a wide space right before the next assignment ("\\ y =", "\quad y_2 ="). */
const ROW_BEFORE_ASSIGNMENT = /\s*(?:\\\\|\\q?quad(?![a-zA-Z]))\s*(?=[a-zA-Z](?:_\{?\w+\}?)?\s*=)/g;

/**
 * A system of assignments set in rows, "x &= 3 \\ y &= 4", "x = 3 \quad y = 4"
 * or in a `cases` environment without conditions, as the list "x = 3, y =
 * 4" that it states; read as written, the rows ran into one chain of
 * equations. A `cases` environment with `&` (a function by cases) is left
 * to the reading of cases.
 */
export function assignmentRows(input: string): string {
  if (!/\\\\|\\q?quad|&/.test(input)) return input;
  // "x &= 3": an alignment mark before or after a relation is layout.
  let s = input.replace(/&\s*(?=[=<>]|\\(?:le|ge|ne|leq|geq|neq)(?![a-zA-Z]))|(?<=[=<>])\s*&/g, '');
  s = s.replace(/^\s*\\begin\{cases\}([\s\S]*)\\end\{cases\}\s*$/, (whole: string, body: string) => (body.includes('&') ? whole : body));
  return s.replace(ROW_BEFORE_ASSIGNMENT, ', ');
}
