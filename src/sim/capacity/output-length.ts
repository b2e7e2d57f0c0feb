/**
 * How many tokens a call generates under the capacity model: a log-normal
 * shaped like a thinking model's output (long, with a heavy tail), drawn from
 * a generator keyed by the request, so the same request always gets the same
 * length whatever the time, the arrival order or the attempt.
 */
import { rngOf } from '../model/random.ts';

/** The standard normal's 99th percentile. */
const Z99 = 2.326;
/** Draws are clamped at 6 sigma, as the latency model's are. */
const MAX_Z = 6;

/** The shape of the draws: a call's median and 99th percentile within its problem, and how far problems differ. */
export interface OutputShape {
  median: number;
  p99: number;
  /** σ of the log of a problem's factor (0 or absent: none); the factor is drawn from `problem`. */
  problemSpread?: number;
  problem?: string;
}

/** The output length of the request keyed `replyKey`, capped at `maxTokens`; at least 1. */
export function outputLengthOf(replyKey: string, shape: OutputShape, maxTokens: number | null): number {
  const sigma = shape.p99 > shape.median ? Math.log(shape.p99 / shape.median) / Z99 : 0;
  const z = Math.max(-MAX_Z, Math.min(MAX_Z, rngOf(replyKey, 'capacity-output-length').normal()));
  const spread = shape.problemSpread ?? 0;
  // Drawn from the problem alone: its difficulty is the problem's, whatever the seed or the call.
  const zProblem = spread > 0 ? Math.max(-MAX_Z, Math.min(MAX_Z, rngOf(shape.problem ?? '', 'capacity-problem-length').normal())) : 0;
  const drawn = Math.max(1, Math.round(shape.median * Math.exp(sigma * z + spread * zProblem)));
  return maxTokens === null ? drawn : Math.max(1, Math.min(drawn, maxTokens));
}
