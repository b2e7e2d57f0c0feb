/**
 * The mathjs instances the grader evaluates with, and the compiled-expression
 * cache. Private instances, so that our imports (double factorial, a real
 * binomial) never leak into other users of mathjs.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BigNumber, EvalFunction, FactoryFunctionMap, MathJsInstance } from 'mathjs';
import { FROM_BUILD, packagePath } from '../../kernel/package-root.ts';
import { remember } from './bounded.ts';
import { latexToMathjs, type Translation } from '../latex/latex-to-mathjs.ts';

/** The grader's three instances: double precision, exact decimal literals, 60 digits. */
interface Instances {
  /** Double-precision instance used for nearly all comparisons. */
  math: MathJsInstance;
  /** BigNumber instance whose parser keeps decimal literals exact (exact.ts reads them as rationals); it is not used to evaluate. */
  big: MathJsInstance;
  /** 60-digit instance that confirms irrational constants agreeing in double precision. */
  precise: MathJsInstance;
}

let instances: Instances | null = null;

/** mathjs's factories and `create` in one file, inside the build (src/build.mjs writes it). */
export const MATHJS_BUNDLE = 'vendor/mathjs-factories.cjs';

/**
 * The instances, made on first use. mathjs is a thousand modules (over half a
 * second and tens of MB to load), and most answers (integers, fractions,
 * words) are graded without it, so neither `tmas --help` nor a run whose
 * answers never need an expression pays for it. Loaded through `require`
 * (mathjs ships a CommonJS build) because grading is synchronous.
 */
function mathjs(): Instances {
  if (instances !== null) return instances;
  const { all, create } = loadFactories();
  const math = create(all, {});
  const realGamma = (x: number): number => {
    const v: unknown = math.gamma(x);
    return typeof v === 'number' ? v : Number.NaN;
  };
  math.import(
    {
      // Double factorial continued to the reals, so random non-integer points work.
      dfact: (n: number) => 2 ** (n / 2) * realGamma(n / 2 + 1) * (2 / Math.PI) ** ((1 - Math.cos(Math.PI * n)) / 4),
      // Binomial through the gamma function: defined for the random real points
      // that symbolic answers ("\binom{2k}{k}") are checked at.
      binom: (n: number, k: number) => realGamma(n + 1) / (realGamma(k + 1) * realGamma(n - k + 1)),
    },
    { override: true },
  );
  instances = { math, big: create(all, { number: 'BigNumber', precision: 1000 }), precise: create(all, { number: 'BigNumber', precision: 60 }) };
  return instances;
}

/**
 * mathjs's factories and `create`, without its default instance. The package
 * entry builds that instance eagerly, every function of it (tens of megabytes
 * every process would carry), and the grader never uses it: it makes its own three, whose
 * functions are built on first use. So the two modules are required by path
 * (the package's `exports` map names neither); a mathjs whose layout differs
 * gets the entry instead. The build (src/build.mjs) bundles the two into one
 * file, MATHJS_BUNDLE: one file loads in a fraction of the CPU time a
 * thousand CommonJS modules take (bench/results.json, benchmark `build`).
 */
function loadFactories(): { all: FactoryFunctionMap; create: typeof import('mathjs').create } {
  const require = createRequire(import.meta.url);
  let loaded: Partial<Pick<typeof import('mathjs'), 'all' | 'create'>>;
  const bundle = FROM_BUILD ? packagePath(MATHJS_BUNDLE) : null;
  try {
    if (bundle !== null && existsSync(bundle)) {
      loaded = require(bundle);
    } else {
      const lib = path.dirname(require.resolve('mathjs'));
      loaded = { all: require(path.join(lib, 'factoriesAny.js')), create: require(path.join(lib, 'core', 'create.js')).create };
    }
  } catch {
    loaded = require('mathjs');
  }
  const { all, create } = loaded;
  if (all === undefined || typeof create !== 'function') throw new Error('mathjs exports no factory functions');
  return { all, create };
}

/**
 * Loads mathjs now rather than on the first expression. For processes that
 * grade while streams are in flight (a run, the simulator): there, loading on
 * first use would stall the event loop for half a second mid-traffic, long
 * enough to trip a stream's idle limit.
 */
export function preloadMathjs(): void {
  mathjs();
}

/** The BigNumber instance whose parser keeps decimal literals exact (see `exactValue`); loads mathjs on first use. */
export function bigMath(): MathJsInstance {
  return mathjs().big;
}

type Precise = BigNumber;

const preciseCache = new Map<string, Precise | null>();

/** The 60-digit value of mathjs source `code`, or null (not a finite real there). Cached. */
function preciseValue(code: string): Precise | null {
  const hit = preciseCache.get(code);
  if (hit !== undefined || preciseCache.has(code)) return hit ?? null;
  let value: Precise | null = null;
  try {
    const preciseMath = mathjs().precise;
    const v: unknown = preciseMath.evaluate(code);
    value = preciseMath.isBigNumber(v) && v.isFinite() ? v : null;
  } catch {
    value = null;
  }
  return remember(preciseCache, code, value);
}

/**
 * Whether a·scaleA and b·scaleB (mathjs source of constants) agree: true to
 * 50 digits (60-digit rounding stays far below), false past 40; null between,
 * where a true difference hides as well as rounding could (e^{100} against
 * e^{100}+1 differ in the 44th digit), and when the 60-digit instance cannot
 * evaluate them (a function without a BigNumber version, a complex value).
 */
export function preciseEqual(a: string, b: string, scaleA: number, scaleB: number): boolean | null {
  const pa = preciseValue(a);
  const pb = preciseValue(b);
  if (pa === null || pb === null) return null;
  return preciseAgree(pa.times(scaleA), pb.times(scaleB));
}

/**
 * Whether two matrices or vectors (mathjs source of constants) agree entry
 * by entry to 60 digits, as `preciseEqual` says of numbers: an entry 10^{-12}
 * is not an entry 0, though both are noise in double precision. Null when
 * either is no array of real entries the 60-digit instance evaluates.
 */
export function preciseEntriesEqual(a: string, b: string): boolean | null {
  const entries = (code: string): Precise[] | null => {
    try {
      const preciseMath = mathjs().precise;
      const v: unknown = preciseMath.evaluate(code);
      const flat: unknown[] = preciseMath.isMatrix(v) ? preciseMath.flatten(v).toArray() : Array.isArray(v) ? v.flat(Infinity) : [];
      return flat.length > 0 && flat.every((x): x is Precise => preciseMath.isBigNumber(x) && x.isFinite()) ? flat : null;
    } catch {
      return null;
    }
  };
  const ea = entries(a);
  const eb = entries(b);
  if (ea === null || eb === null || ea.length !== eb.length) return null;
  let verdict: boolean | null = true;
  for (let k = 0; k < ea.length; k += 1) {
    const agree = preciseAgree(ea[k] as Precise, eb[k] as Precise);
    if (agree === false) return false;
    if (agree === null) verdict = null;
  }
  return verdict;
}

/** Two 60-digit values: the same to 50 digits (true), apart past 40 (false), or between (null). */
function preciseAgree(va: Precise, vb: Precise): boolean | null {
  const scale = va.abs().gt(vb.abs()) ? va.abs() : vb.abs();
  // "\sin\pi" is 0 to 60 digits, not 0: below 10^{-50} both are zero, and up to 10^{-40} noise may hide a value.
  if (scale.lt('1e-50')) return true;
  if (scale.lt('1e-40')) return null;
  const relative = va.minus(vb).abs().div(scale);
  if (relative.lt('1e-50')) return true;
  return relative.lt('1e-40') ? null : false;
}

const preciseCompiled = new Map<string, EvalFunction | null>();

/** The 60-digit value of mathjs source `code` where its variables take `scope`'s values; null where it has none. */
function preciseValueAt(code: string, scope: ReadonlyMap<string, number>): Precise | null {
  const preciseMath = mathjs().precise;
  let fn = preciseCompiled.get(code);
  if (fn === undefined) {
    try {
      fn = preciseMath.compile(code);
    } catch {
      fn = null;
    }
    remember(preciseCompiled, code, fn);
  }
  if (fn === null) return null;
  try {
    const big = new Map([...scope].map(([name, value]) => [name, preciseMath.bignumber(value)]));
    const v: unknown = fn.evaluate(big);
    return preciseMath.isBigNumber(v) && v.isFinite() ? v : null;
  } catch {
    return null;
  }
}

/**
 * Whether mathjs sources `a` and `b` agree at one point (each with its own
 * scope of variable values) to 60 digits: true to 50 digits, false past 40,
 * null between and where either has no real value the 60-digit instance
 * reaches. Expressions that agree in double precision may still differ
 * ("x + 10^{-12}" against "x").
 */
export function preciseEqualAt(a: string, scopeA: ReadonlyMap<string, number>, b: string, scopeB: ReadonlyMap<string, number>): boolean | null {
  const va = preciseValueAt(a, scopeA);
  const vb = preciseValueAt(b, scopeB);
  return va === null || vb === null ? null : preciseAgree(va, vb);
}

/** A translated and compiled expression. */
export interface Compiled extends Translation {
  fn: EvalFunction;
}

const cache = new Map<string, Compiled | null>();

/** Compiles mathjs source the translator wrote (a part of a Compiled's code); null when mathjs cannot. */
export function compileCode(code: string): EvalFunction | null {
  try {
    return mathjs().math.compile(code);
  } catch {
    return null;
  }
}

/** Compiles cleaned LaTeX; null when it is not an expression we can evaluate. Cached. */
export function compileLatex(tex: string): Compiled | null {
  const hit = cache.get(tex);
  if (hit !== undefined || cache.has(tex)) return hit ?? null;
  let compiled: Compiled | null = null;
  try {
    const translation = latexToMathjs(tex);
    compiled = { ...translation, fn: mathjs().math.compile(translation.code) };
  } catch {
    compiled = null;
  }
  return remember(cache, tex, compiled);
}
