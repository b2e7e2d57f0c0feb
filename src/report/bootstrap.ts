/**
 * Confidence intervals of the per-iteration curves: a percentile bootstrap
 * over problems. A curve's point is a mean over problems (Pass@1, or the share
 * of problems whose majority / best-verified / any candidate is right), and on
 * 12 problems one problem moves it by 8 points: the band says how much of a
 * difference between runs or iterations that noise alone explains.
 * Deterministic: the resampling PRNG is seeded by the run's name (its
 * folder's name, which is the strategy's in `tmas table1`), the figure and the
 * iteration, never by where the run lies: a report of the runs copied to
 * another machine, and the table1.md beside them, give the same intervals.
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

/**
 * The seed of a run's interval of `figure` at `iteration`, for table1.md and the report alike. Its
 * label ('table1') is the one table1.md was first seeded with, so tables written before keep their
 * intervals; the report once seeded by the run's path, which moved its bands with the folder.
 */
export function figureSeed(name: string, figure: ProblemFigure, iteration: number): number {
  return seedFor('table1', name, figure, iteration);
}

/**
 * The seed of table1.md's MV@k interval: the method and k, never an iteration. MV@k is over each
 * problem's whole pool, which --max-iterations does not change; seeded by the last iteration, a
 * table extended to more iterations moved its MV@k interval (40.9 [11.2, 72.2], then
 * [11.2, 75.4]) with no sample new.
 */
export function voteSeed(name: string, k: number | string): number {
  return seedFor('table1-mv', name, k);
}

/** The seed of a run's paired interval of Pass@1 against the reference run at `iteration` (table1.md's label, as figureSeed). */
export function pairedSeed(name: string, iteration: number | string): number {
  return seedFor('table1-paired', name, iteration);
}

/** Resamples of a paired interval: its bounds are differences of two noisy figures, read to a tenth of a point. */
export const PAIRED_RESAMPLES = 2000;

/** The 95% interval of the mean of `values` over `resamples` resamples (null for fewer than 2 values). */
export function bootstrapInterval(values: number[], seed: number, resamples = RESAMPLES): [number, number] | null {
  if (values.length < 2) return null;
  const random = createRandom(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(random() * values.length)] ?? 0;
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  return [means[Math.floor(0.025 * resamples)] ?? 0, means[Math.ceil(0.975 * resamples) - 1] ?? 0];
}

/** A method's mean difference from a reference over the problems both graded, with its 95% paired interval. */
export interface PairedDifference {
  difference: number;
  /** null under 2 problems graded by both. */
  interval: [number, number] | null;
  problems: number;
}

/**
 * The paired difference of `method` from `reference` (per-problem figures by
 * problem id): the mean over the problems both have of method − reference,
 * and the percentile bootstrap of that mean over those problems, resampled
 * whole (PAIRED_RESAMPLES, seeded). Pairing takes out what the two share, how
 * hard each problem is, so the interval is narrower than the two intervals
 * apart say; null when no problem is in both.
 */
export function pairedDifference(method: ReadonlyMap<string, number>, reference: ReadonlyMap<string, number>, seed: number): PairedDifference | null {
  const differences = [...method].flatMap(([problem, value]) => {
    const other = reference.get(problem);
    return other === undefined ? [] : [value - other];
  });
  if (differences.length === 0) return null;
  const difference = differences.reduce((sum, d) => sum + d, 0) / differences.length;
  return { difference, interval: bootstrapInterval(differences, seed, PAIRED_RESAMPLES), problems: differences.length };
}

/** One figure's per-problem values at one iteration, by problem id (graded problems only). */
export function figureByProblem(problems: ProblemFigures[], figure: ProblemFigure, iteration: number): Map<string, number> {
  const values = new Map<string, number>();
  for (const problem of problems) {
    const value = valueOf(problem.iterations.find((it) => it.iteration === iteration)?.[figure]);
    if (value !== null) values.set(problem.problem, value);
  }
  return values;
}

/** Per iteration: [iteration, low, high] of a figure's 95% bootstrap interval over the run's graded problems. */
export function bootstrapBand(problems: ProblemFigures[], figure: ProblemFigure, name: string): Array<[number, number, number]> {
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
      const interval = bootstrapInterval(values, figureSeed(name, figure, iteration));
      return interval ? [[iteration, interval[0], interval[1]] as [number, number, number]] : [];
    });
}

/** A run's paired difference from a reference per iteration: [iteration, difference] points and [iteration, low, high] of its 95% paired interval. */
export interface PairedCurve {
  points: Array<[number, number]>;
  band: Array<[number, number, number]>;
  /** [iteration, problems both graded]: what each point is a mean over (a table's `[all n alike]`). */
  problems: Array<[number, number]>;
}

/**
 * Per iteration of `problems`, the paired difference of `figure` from the
 * reference's at the same iteration, over the problems both graded there
 * (pairedDifference); seeded by the run's `name` and the iteration (pairedSeed).
 */
export function pairedCurve(problems: ProblemFigures[], reference: ProblemFigures[], figure: ProblemFigure, name: string): PairedCurve {
  const iterations = [...new Set(problems.flatMap((problem) => problem.iterations.map((it) => it.iteration)))].sort((a, b) => a - b);
  const curve: PairedCurve = { points: [], band: [], problems: [] };
  for (const iteration of iterations) {
    const paired = pairedDifference(figureByProblem(problems, figure, iteration), figureByProblem(reference, figure, iteration), pairedSeed(name, iteration));
    if (paired === null) continue;
    curve.points.push([iteration, paired.difference]);
    curve.problems.push([iteration, paired.problems]);
    if (paired.interval) curve.band.push([iteration, paired.interval[0], paired.interval[1]]);
  }
  return curve;
}
