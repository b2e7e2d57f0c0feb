/**
 * Heavy-tailed response latency: a log-normal with the given median and 99th
 * percentile (sigma = ln(p99 / median) / 2.326, 2.326 being the standard
 * normal's 99th percentile), drawn from a generator keyed by the request.
 */
import type { Rng } from '../model/random.ts';

/** Latency settings of the simulated model. */
export interface LatencyOptions {
  medianMs: number;
  p99Ms: number;
}

const Z99 = 2.326;
/** Draws are clamped at 6 sigma so one unlucky request cannot wait for hours. */
const MAX_Z = 6;

/** Throws a TypeError for settings that describe no distribution. */
export function checkLatency(options: LatencyOptions): void {
  const { medianMs, p99Ms } = options;
  if (!(medianMs >= 0) || !Number.isFinite(medianMs)) throw new TypeError(`latency medianMs must be a finite number >= 0, got ${medianMs}`);
  if (!(p99Ms >= medianMs) || !Number.isFinite(p99Ms)) throw new TypeError(`latency p99Ms must be finite and >= medianMs (${medianMs}), got ${p99Ms}`);
}

/** One latency draw in milliseconds; 0 when latency is off. */
export function latencyMs(options: LatencyOptions | 0, rng: Rng): number {
  if (options === 0 || options.medianMs === 0) return 0;
  const sigma = options.p99Ms > options.medianMs ? Math.log(options.p99Ms / options.medianMs) / Z99 : 0;
  const z = Math.max(-MAX_Z, Math.min(MAX_Z, rng.normal()));
  return options.medianMs * Math.exp(sigma * z);
}
