/**
 * The mathjs instances the grader evaluates with, and the compiled-expression
 * cache. Private instances, so that our imports (double factorial, a real
 * binomial) never leak into other users of mathjs.
 */
import { all, create, type EvalFunction, type MathJsInstance } from 'mathjs';
import { latexToMathjs, type Translation } from './latex-to-mathjs.ts';

function factories(): NonNullable<typeof all> {
  if (all === undefined) throw new Error('mathjs exports no factory functions');
  return all;
}

/** Double-precision instance used for nearly all comparisons. */
export const math: MathJsInstance = create(factories(), {});

function realGamma(x: number): number {
  const v: unknown = math.gamma(x);
  return typeof v === 'number' ? v : Number.NaN;
}

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

/**
 * High-precision instance for integers beyond double range ("2^{2024}+1"
 * against "2^{2024}"), where double evaluation would call them equal.
 */
export const bigMath: MathJsInstance = create(factories(), { number: 'BigNumber', precision: 1000 });

/** A translated and compiled expression. */
export interface Compiled extends Translation {
  fn: EvalFunction;
}

const cache = new Map<string, Compiled | null>();
const CACHE_LIMIT = 5000;

/** Compiles cleaned LaTeX; null when it is not an expression we can evaluate. Cached. */
export function compileLatex(tex: string): Compiled | null {
  const hit = cache.get(tex);
  if (hit !== undefined || cache.has(tex)) return hit ?? null;
  let compiled: Compiled | null = null;
  try {
    const translation = latexToMathjs(tex);
    compiled = { ...translation, fn: math.compile(translation.code) };
  } catch {
    compiled = null;
  }
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  cache.set(tex, compiled);
  return compiled;
}
