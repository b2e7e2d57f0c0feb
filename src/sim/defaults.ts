/**
 * What the simulated model does with an option left out (sim-options.ts),
 * stated once: the server fills its options from here, and the settings of
 * `tmas sim-server` and `tmas run --sim-*` take their defaults from here, so
 * that what `--help` shows is what a server started without the flag does.
 * The capacity model's own defaults are in capacity/options.ts.
 */
import type { SimMetrics } from './sim-options.ts';

/** The defaults of the simulated model's options. */
export const SIM_DEFAULTS = {
  /** Seeds difficulties, distractors, replies and faults. */
  seed: 0,
  host: '127.0.0.1',
  /** An ephemeral port: a program that starts a server reads its URL (`tmas sim-server` listens on a port of its own, for others to find). */
  port: 0,
  /** Approximate tokens of a solution (±30%); verifications are about half. */
  outputTokens: 250,
  /** An RSE distillation writes one short record (0); n: records of about n tokens in all besides it. */
  distillTokens: 0,
  /** Chance that a verification's verdict is right. */
  verifierAccuracy: 0.8,
  /** The model id listed when no models are named; a request may then name any model. */
  model: 'tmas-sim',
  metrics: 'vllm' satisfies SimMetrics,
  /** No reasoning field: a model that does not think aloud. */
  reasoning: false,
  openaiReasoning: false,
  /** Under the capacity model, a stream that asks for continuous usage gets it, as from vLLM and SGLang. */
  continuousUsage: true,
  /** Every reply keeps its role's format. */
  breakFormats: 0,
  /** Replies come at once. */
  latency: 0,
  /** Streams as fast as the socket takes them, 8 tokens a chunk. */
  stream: { tokensPerSecond: 0, chunkTokens: 8 },
} as const;
