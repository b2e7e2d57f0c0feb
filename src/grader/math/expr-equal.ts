/**
 * Equivalence of two expressions: exact for rational constants, in high
 * precision for other constants, numeric otherwise. Expressions with
 * variables are compared at fixed pseudo-random
 * points (symbolic equality such as 2(x+1) = 2x+2 holds at every point; a
 * chance agreement at all of them is vanishingly unlikely), and unknown
 * functions f(x) become fixed pseudo-random functions, the same on both sides.
 */
import { approximationVerdict, decimalsAgree, toDecimal } from './decimals.ts';
import { exactValue } from './exact.ts';
import { roundingArguments } from './rounding-arguments.ts';
import { isIntegerLetter, NONE_DECLARED, type DeclaredLetters } from './declared-letters.ts';
import { compileCode, compileLatex, preciseEntriesEqual, preciseEqual, preciseEqualAt, type Compiled } from './mathjs-env.ts';
import * as Q from './rational.ts';
import { EXACT_TOLERANCE, roundedTolerance, scaleValue, valuesClose, type Tolerance } from './values.ts';

const POINTS = 8;
/** Integer points added when integer-valued functions occur: 32 small, 8 wide. */
const INTEGER_POINTS = 40;

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

const PLAIN_INTEGER = /^[+-]?\d+$/;

/** Arguments of these functions are usually integers: sample at integers too. */
const INTEGER_FUNCTIONS = /\b(?:floor|ceil|factorial|dfact|binom|gcd|lcm|mod|gamma)\(/;

/** The double factorial, whose continuation between integers is a convention. */
const DOUBLE_FACTORIAL = /\bdfact\(/;

/** Value of variable `name` at integer point `p`: small ones cover the first steps, wide ones the rest. */
function integerPointValue(name: string, p: number): number {
  const u = hashString(`${name}@${p}`);
  return p < 32 ? (u % 61) - 10 : (u % 2_000_001) - 1_000_000;
}

/** Percent and similar readings multiply a side's value by a constant. */
export interface ExprCompareOptions {
  /** Significant digits a rounded decimal must carry (decimals.ts). */
  precision: number;
  scaleA?: number;
  scaleB?: number;
  /** Variables of B to evaluate under A's names (identifier → identifier): renaming.ts. */
  rename?: ReadonlyMap<string, string>;
  /** What the question declares its letters to be: a letter declared real is never swept over the integers alone. */
  declared?: DeclaredLetters;
}

/**
 * Verdict of a comparison: equal, different, or unsure (the values agree in
 * floating point but could not be confirmed); null when a side is not an
 * expression the translator understands (the caller compares text).
 */
export type ExprVerdict = 'equal' | 'different' | 'unsure' | null;

function scaled(r: Q.Rational | null, scale: number): Q.Rational | null {
  if (r === null || scale === 1) return r;
  return scale === 0.01 ? Q.div(r, Q.rational(100n)) : null;
}

/** High-precision check of two irrational constants that agree in floating point. */
function confirmPrecisely(a: Compiled, b: Compiled, scaleA: number, scaleB: number, magnitude: number): ExprVerdict {
  const verdict = preciseEqual(a.code, b.code, scaleA, scaleB);
  if (verdict !== null) return verdict ? 'equal' : 'different';
  // Beyond about 2^{40} a double cannot tell an off-by-one apart.
  return magnitude >= 2 ** 40 ? 'unsure' : 'equal';
}

function constantsEqual(a: string, ca: Compiled, b: string, cb: Compiled, options: ExprCompareOptions): ExprVerdict {
  const scaleA = options.scaleA ?? 1;
  const scaleB = options.scaleB ?? 1;
  const ra = scaled(exactValue(ca), scaleA);
  const rb = scaled(exactValue(cb), scaleB);
  if (ra !== null && rb !== null) {
    if (Q.same(ra, rb)) return 'equal';
    if (!ca.hasFloat && !cb.hasFloat) return 'different';
  }
  const va = scaleValue(evaluateAt(ca, new Map()), scaleA);
  const vb = scaleValue(evaluateAt(cb, new Map()), scaleB);
  if (!ca.hasFloat && !cb.hasFloat) {
    const close = valuesClose(va, vb, EXACT_TOLERANCE);
    if (close !== true) return close === false ? 'different' : 'unsure';
    // Matrices agree entry by entry within noise: an entry 10^{-12} against 0 is told apart at 60 digits.
    if (typeof va !== 'number' || typeof vb !== 'number') return preciseEntriesEqual(ca.code, cb.code) === false ? 'different' : 'equal';
    if (!Number.isFinite(va)) return 'equal';
    return confirmPrecisely(ca, cb, scaleA, scaleB, Math.abs(va));
  }
  // A side written with decimals equals the other only exactly: to 40 digits
  // when not rational, to floating-point error where 40 digits cannot be had
  // (a matrix); short of that it is an approximation (decimals.ts).
  const exactly = ra === null || rb === null ? valuesClose(va, vb, EXACT_TOLERANCE) === true && preciseEqual(ca.code, cb.code, scaleA, scaleB) !== false : false;
  if (exactly) return 'equal';
  const da = scaleA === 1 ? toDecimal(a) : null;
  const db = scaleB === 1 ? toDecimal(b) : null;
  if (typeof va === 'number' && typeof vb === 'number') {
    if (da !== null && db !== null) return decimalsAgree(da, db, options.precision) ? 'equal' : 'different';
    if (da !== null) return approximationVerdict(rb ?? vb, da);
    if (db !== null) return approximationVerdict(ra ?? va, db);
  }
  const close = valuesClose(va, vb, roundedTolerance(Math.min(options.precision, fewestDigits(a), fewestDigits(b))));
  return close === false ? 'different' : 'unsure';
}

/** "\log x" with no base: natural in analysis, common (base 10) in many contest answers. */
const BARE_LOG = /\\log(?![a-zA-Z])(?!\s*_)/g;

/**
 * Whether two cleaned LaTeX expressions are equal. Constants are compared
 * exactly when rational, in high precision when not; expressions with
 * variables at sample points (integers as well as reals when a floor,
 * factorial or the like is involved, because real points between 0 and 3
 * cannot tell \lfloor p/9 \rfloor from \lfloor p/8 \rfloor). A `\log`
 * without a base is read both as natural and as common: where the two
 * readings give other verdicts ("\log 100" against 2, "\ln 2" against
 * "\log 2"), the base decides, which only the question says: `unsure`.
 */
export function exprEqual(texA: string, texB: string, options: ExprCompareOptions): ExprVerdict {
  const natural = exprEqualAsRead(texA, texB, options);
  if (!texA.includes('\\log') && !texB.includes('\\log')) return natural;
  const common = (tex: string): string => tex.replace(BARE_LOG, '\\log_{10}');
  if (common(texA) === texA && common(texB) === texB) return natural;
  const decimal = exprEqualAsRead(common(texA), common(texB), options);
  return natural === decimal || natural === null || decimal === null ? natural : 'unsure';
}

function exprEqualAsRead(texA: string, texB: string, options: ExprCompareOptions): ExprVerdict {
  const scaleA = options.scaleA ?? 1;
  const scaleB = options.scaleB ?? 1;
  const a = texA.trim();
  const b = texB.trim();
  // Two integers are equal exactly or not at all, however large.
  if (scaleA === scaleB && PLAIN_INTEGER.test(a) && PLAIN_INTEGER.test(b)) return BigInt(a) === BigInt(b) ? 'equal' : 'different';
  const ca = compileLatex(a);
  const cb = compileLatex(b);
  if (ca === null || cb === null) return null;
  const rename = options.rename ?? new Map<string, string>();
  const names = [...new Set([...ca.vars, ...cb.vars.map((v) => rename.get(v) ?? v)])];
  const funcs = [...new Set([...ca.funcs, ...cb.funcs])];
  if (names.length === 0 && funcs.length === 0) return constantsEqual(a, ca, b, cb, options);
  const pair = { a: ca, b: cb, names, funcs, rename, scaleA, scaleB, declared: options.declared ?? NONE_DECLARED };
  const exact = agreeAtPoints(pair, EXACT_TOLERANCE);
  // Within floating-point error is not yet equal: "x + 10^{-12}" is not "x".
  if (exact === 'equal') return confirmedAtPoints(pair) === false || partedAtSmallIntegers(pair) ? 'different' : 'equal';
  // "\lceil n/2 \rceil" against "\lfloor (n+1)/2 \rfloor": apart only between integers, where n never is.
  if (exact === 'different' && equalAtIntegersOnly(pair)) return 'equal';
  // "\sum_{k=1}^{n} k" against "n(n+1)/2": a sum left unevaluated shows no value to differ by.
  if (exact === 'different' && !sameBigOperators(ca, cb)) return 'unsure';
  // "\frac{\sqrt{yz}}{z}" against "\sqrt{\frac{y}{z}}": equal where every letter is positive, as a
  // length or a count is, and apart only where some is negative, which the question decides.
  if (exact === 'different' && agreeWherePositive(pair)) return 'unsure';
  if (exact !== 'different' || (!ca.hasFloat && !cb.hasFloat)) return exact;
  // Decimals in an expression ("1.732x" against "\sqrt3 x"): agreement only
  // within their rounding is an approximation, which the rule cannot judge.
  const digits = Math.min(options.precision, fewestDigits(a), fewestDigits(b));
  return agreeAtPoints(pair, roundedTolerance(digits)) === 'different' ? 'different' : 'unsure';
}

/** The sums and products a side leaves unevaluated (latex-function-reader.ts), keyed by their limits. */
function bigOperators(c: Compiled): string[] {
  return c.funcs.filter((f) => /^uf_(?:sum|prod)_/.test(f)).sort();
}

/** Whether both sides leave the same sums and products unevaluated: then their values are comparable. */
function sameBigOperators(a: Compiled, b: Compiled): boolean {
  return bigOperators(a).join() === bigOperators(b).join();
}

/** The fewest significant digits of a decimal numeral in `tex` (Infinity when it has none). */
function fewestDigits(tex: string): number {
  const counts = [...tex.matchAll(/(\d*)\.(\d+)/g)].map((m) => `${m[1] ?? ''}${m[2] ?? ''}`.replace(/^0+/, '').length);
  return Math.min(...counts.filter((n) => n > 0));
}

/** Two compiled expressions with what their sample points need. */
interface SampledPair {
  a: Compiled;
  b: Compiled;
  names: string[];
  funcs: string[];
  rename: ReadonlyMap<string, string>;
  scaleA: number;
  scaleB: number;
  declared: DeclaredLetters;
}

/** Agreement at the sample points (integers too when a floor, factorial or the like occurs) within `tol`. */
function agreeAtPoints(pair: SampledPair, tol: Tolerance): 'equal' | 'different' | 'unsure' {
  const { a, b, names, funcs, rename, scaleA, scaleB } = pair;
  const integers = INTEGER_FUNCTIONS.test(a.code) || INTEGER_FUNCTIONS.test(b.code);
  // A double factorial has no one value between integers ("(2k-1)!!" and "\frac{(2k)!}{2^k k!}"
  // part there): only integer points compare it.
  const first = DOUBLE_FACTORIAL.test(a.code) || DOUBLE_FACTORIAL.test(b.code) ? POINTS : 0;
  let agreed = 0;
  const total = POINTS + (integers ? INTEGER_POINTS : 0);
  for (let p = first; p < total; p += 1) {
    const scope = p < POINTS ? scopeAt(names, funcs, p) : integerScope(names, funcs, p - POINTS);
    const verdict = valuesClose(scaleValue(evaluateAt(a, scope), scaleA), scaleValue(evaluateAt(b, renamed(scope, rename)), scaleB), tol);
    if (verdict === false) return 'different';
    if (verdict === true) agreed += 1;
  }
  if (agreed >= 2) return 'equal';
  // Nowhere comparable (domain errors everywhere): nothing was shown either way.
  return 'unsure';
}


/** Every integer from -SPAN to SPAN for one letter; a grid of -SPAN2..SPAN2 for two. */
const SPAN = 64;
const SPAN2 = 8;

/** Scopes at every small integer (one or two letters), then at the wide integer points; null for more letters. */
function everySmallInteger(names: readonly string[]): Map<string, unknown>[] | null {
  const range = (span: number): number[] => Array.from({ length: 2 * span + 1 }, (_, i) => i - span);
  const [first, second, ...rest] = names;
  if (first === undefined || rest.length > 0) return null;
  const small = second === undefined ? range(SPAN).map((v) => new Map<string, unknown>([[first, v]])) : range(SPAN2).flatMap((u) => range(SPAN2).map((v) => new Map<string, unknown>([[first, u], [second, v]])));
  return [...small, ...Array.from({ length: INTEGER_POINTS }, (_, p) => integerScope(names, [], p))];
}

/**
 * Whether two expressions with a floor, factorial or the like, in one or two
 * integer letters, agree at every small integer and at the wide integer
 * points: real points between integers part them, which an integer n never
 * takes. Every small integer, not a sample: "\lfloor\sqrt{n-1}\rfloor" and
 * "\lfloor\sqrt{n}\rfloor" part only at squares. A letter that may be real
 * ("\lfloor x \rfloor" against "x"): false.
 */
function equalAtIntegersOnly(pair: SampledPair): boolean {
  const { a, b, names, funcs, rename, scaleA, scaleB, declared } = pair;
  if (!INTEGER_FUNCTIONS.test(a.code) && !INTEGER_FUNCTIONS.test(b.code)) return false;
  if (!names.every((n) => isIntegerLetter(n, declared)) || funcs.length > 0 || scaleA !== 1 || scaleB !== 1) return false;
  const scopes = everySmallInteger(names);
  if (scopes === null) return false;
  // "\lfloor k \rfloor" against "k": a floor that rounds nothing at an integer was written for a real k.
  if (roundsNothingAtIntegers(a, scopes) || roundsNothingAtIntegers(b, scopes.map((scope) => renamed(scope, rename)))) return false;
  let agreed = 0;
  for (const scope of scopes) {
    const verdict = valuesClose(evaluateAt(a, scope), evaluateAt(b, renamed(scope, rename)), EXACT_TOLERANCE);
    if (verdict === false) return false;
    if (verdict === true) agreed += 1;
  }
  return agreed >= 2;
}

/**
 * Whether two expressions with a floor or the like, equal at the sample
 * points, part at some small integer those points missed: "\lceil n/100 \rceil"
 * and "\lfloor n/100 \rfloor + 1" part only at multiples of 100, 0 among them.
 */
function partedAtSmallIntegers(pair: SampledPair): boolean {
  const { a, b, names, funcs, rename, scaleA, scaleB } = pair;
  if (!INTEGER_FUNCTIONS.test(a.code) && !INTEGER_FUNCTIONS.test(b.code)) return false;
  const scopes = funcs.length > 0 ? null : everySmallInteger(names);
  if (scopes === null) return false;
  return scopes.some((scope) => valuesClose(scaleValue(evaluateAt(a, scope), scaleA), scaleValue(evaluateAt(b, renamed(scope, rename)), scaleB), EXACT_TOLERANCE) === false);
}

/**
 * Whether some floor or ceiling of `c` has an integer argument at every
 * integer scope where it is defined: it rounds nothing there, so its writer
 * meant the letter real. True too when there are too many to read.
 */
function roundsNothingAtIntegers(c: Compiled, scopes: readonly Map<string, unknown>[]): boolean {
  const args = roundingArguments(c.code);
  if (args === null) return true;
  return args.some((code) => {
    const fn = compileCode(code);
    if (fn === null) return true;
    const values = scopes.map((scope) => evaluateAt({ ...c, fn }, scope)).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    return values.every((v) => Math.abs(v - Math.round(v)) <= 1e-9 * Math.max(1, Math.abs(v)));
  });
}

/** The sample points at which every variable is positive (pointValue). */
const POSITIVE_POINTS = [0, 1, 2, 3, 6, 7];

/**
 * Whether two expressions agree within floating-point error at every sample
 * point where all their letters are positive, the integer ones too when a
 * floor, factorial or the like occurs (small reals cannot tell floors apart).
 */
function agreeWherePositive(pair: SampledPair): boolean {
  const { a, b, names, funcs, rename, scaleA, scaleB } = pair;
  const agreeIn = (scope: Map<string, unknown>): boolean =>
    valuesClose(scaleValue(evaluateAt(a, scope), scaleA), scaleValue(evaluateAt(b, renamed(scope, rename)), scaleB), EXACT_TOLERANCE) === true;
  if (!POSITIVE_POINTS.every((p) => agreeIn(scopeAt(names, funcs, p)))) return false;
  if (!INTEGER_FUNCTIONS.test(a.code) && !INTEGER_FUNCTIONS.test(b.code)) return true;
  const positive = Array.from({ length: INTEGER_POINTS }, (_, p) => integerScope(names, funcs, p)).filter((scope) => names.every((n) => Number(scope.get(n)) > 0));
  return positive.every(agreeIn);
}

/** Points, one positive and one negative, where agreement in double precision is confirmed to 60 digits. */
const CONFIRMED_POINTS = [0, 4];

/**
 * Whether two expressions that agree in double precision at every point
 * agree to 60 digits at some ("x + 10^{-12}" against "x" does not): false
 * when a point shows them apart, null when none can tell (an unknown
 * function, a function the 60-digit instance lacks, a scaled side).
 */
function confirmedAtPoints(pair: SampledPair): boolean | null {
  const { a, b, names, funcs, rename, scaleA, scaleB } = pair;
  if (funcs.length > 0 || scaleA !== 1 || scaleB !== 1) return null;
  let verdict: boolean | null = null;
  for (const p of CONFIRMED_POINTS) {
    const scope = scopeAt(names, [], p);
    const numeric = (s: Map<string, unknown>): Map<string, number> => new Map([...s].filter((e): e is [string, number] => typeof e[1] === 'number'));
    const agree = preciseEqualAt(a.code, numeric(scope), b.code, numeric(renamed(scope, rename)));
    if (agree === false) return false;
    verdict ??= agree;
  }
  return verdict;
}

/** The scope with B's variables given the values of the A names they stand for. */
function renamed(scope: Map<string, unknown>, rename: ReadonlyMap<string, string>): Map<string, unknown> {
  if (rename.size === 0) return scope;
  const out = new Map(scope);
  for (const [from, to] of rename) out.set(from, scope.get(to));
  return out;
}

function integerScope(names: readonly string[], funcs: readonly string[], p: number): Map<string, unknown> {
  const scope = scopeAt([], funcs, p);
  for (const n of names) scope.set(n, integerPointValue(n, p));
  return scope;
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
