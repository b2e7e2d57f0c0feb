/**
 * Confidence intervals of the per-iteration curves: a percentile bootstrap
 * over problems. A curve's point is a mean over problems (Pass@1, or the share
 * of problems whose majority / best-verified / any candidate is right), and on
 * 12 problems one problem moves it by 8 points: the band says how much of a
 * difference between runs or iterations that noise alone explains.
 * Deterministic: the resampling PRNG is seeded by the run and the figure.
 */
import { createRandom, seedFor } from '../kernel/prng.ts';
import type { ProblemFigures } from '../observers/metrics-run.ts';

/** Resamples per interval: enough for a stable 95% percentile interval at report precision. */
const RESAMPLES = 1000;

/** A per-problem figure of one iteration (a share of 1, or a right/wrong), or null when ungraded. */
export type ProblemFigure = 'pass1' | 'majority' | 'bestVerified' | 'oracle';

function valueOf(value: number | boolean | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

/** The 95% interval of the mean of `values` (null for fewer than 2 values). */
export function bootstrapInterval(values: number[], seed: number): [number, number] | null {
  if (values.length < 2) return null;
  const random = createRandom(seed);
  const means: number[] = [];
  for (let r = 0; r < RESAMPLES; r++) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(random() * values.length)] ?? 0;
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  return [means[Math.floor(0.025 * RESAMPLES)] ?? 0, means[Math.ceil(0.975 * RESAMPLES) - 1] ?? 0];
}

/** Per iteration: [iteration, low, high] of a figure's 95% bootstrap interval over the run's graded problems. */
export function bootstrapBand(problems: ProblemFigures[], figure: ProblemFigure, label: string): Array<[number, number, number]> {
  const byIteration = new Map<number, number[]>();
  for (const problem of problems) {
    for (const it of problem.iterations) {
      const value = valueOf(it[figure]);
      if (value === null) continue;
      const values = byIteration.get(it.iteration) ?? [];
      values.push(value);
      byIteration.set(it.iteration, values);
    }
  }
  return [...byIteration]
    .sort(([a], [b]) => a - b)
    .flatMap(([iteration, values]) => {
      const interval = bootstrapInterval(values, seedFor(label, figure, iteration));
      return interval ? [[iteration, interval[0], interval[1]] as [number, number, number]] : [];
    });
}
