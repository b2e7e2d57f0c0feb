/**
 * The settings of the simulated model (server.ts), and the checks they pass
 * before it starts: a bad setting is a TypeError at start, never a wrong
 * reply later.
 */
import type { ProblemInput } from './model/catalogue.ts';
import type { SimReasoningDialect } from './http/completion.ts';
import { resolveCapacity, type CapacityOptions } from './capacity/options.ts';
import { checkFaultRates, type FaultRates } from './faults/faults.ts';
import { checkBreakRate } from './faults/format-breaks.ts';
import { checkLatency, type LatencyOptions } from './http/latency.ts';
import type { SimRoles } from './model/sim-roles.ts';
import type { StreamSettings } from './http/stream.ts';

/** Settings of the simulated model; one left out takes its default from SIM_DEFAULTS (defaults.ts). */
export interface SimOptions {
  /** The problems it knows; a reference answer is invented for those without one. */
  problems: ProblemInput[];
  /**
   * The role names it answers ("You are the X agent") and the reply format of
   * each: tmas passes its strategies' declarations (machines/strategies/sim-roles.ts).
   * Default: each format answers the role named after it (src/sim/model/sim-roles.ts).
   */
  roles?: SimRoles;
  /** Seeds everything: difficulties, distractors, replies, faults. */
  seed?: number;
  host?: string;
  /** 0: an ephemeral port. */
  port?: number;
  /** Log-normal latency per request, or 0 to answer at once. */
  latency?: LatencyOptions | 0;
  /** Approximate length of a solution in tokens (±30%); verifications are about half. */
  outputTokens?: number;
  /**
   * Approximate tokens (±30%) of the records an RSE distillation writes
   * besides its one marked record: propositions and pitfalls of about 150
   * tokens each, all distinct, as a real distiller's. Default 0: the marked
   * record alone.
   */
  distillTokens?: number;
  /** Fault rates per attempt; none by default. */
  faults?: FaultRates;
  /**
   * Share of replies, in [0, 1], that break the format their role asks for
   * (a missing section, no box or several, JSON with other keys, prose, a
   * reply cut off): see format-breaks.ts. Default 0: every reply keeps its format.
   */
  breakFormats?: number;
  /** Also send reasoning, as reasoning models do: `true` or `reasoning_content` (vLLM, DeepSeek), `reasoning` (newer vLLM, OpenRouter), `think-tags` (inline in the content). */
  reasoning?: boolean | SimReasoningDialect;
  /** Pace and chunking of streamed replies (`"stream": true`). */
  stream?: StreamSettings;
  /** Refuse `max_tokens`, a temperature other than 1 and other sampling fields with a 400, as OpenAI's reasoning models do. */
  openaiReasoning?: boolean;
  /** The models served and listed: a request for another gets vLLM's 404. Absent: lists `model` and accepts any name. */
  models?: string[];
  /** Append one JSON line per chat request to this file. */
  requestLog?: string;
  /** The model id listed by /v1/models when `models` is not given. Requests may then name any model; it is echoed back. */
  model?: string;
  /** Chance that a verification's verdict is right. */
  verifierAccuracy?: number;
  /**
   * The capacity model of one GPU server (off by default): replies take the
   * time continuous batching would give them under the current load, and
   * report drawn output lengths. Cannot be combined with `latency` or a
   * stream pace, which it replaces.
   */
  capacity?: CapacityOptions;
  /**
   * What GET /metrics exposes: `vllm` (vLLM's gauges, counters and
   * histograms), `gauges` (only the request and KV-cache gauges, as an
   * exporter without counters) or `none` (a 404, as an endpoint without
   * Prometheus metrics, such as a proxy in front of the server).
   */
  metrics?: SimMetrics;
  /**
   * Under the capacity model, whether a stream asked for
   * `stream_options.continuous_usage_stats` carries the usage so far in every
   * chunk, as vLLM and SGLang do, or only at its end, as TGI,
   * llama.cpp and hosted APIs, which ignore the field.
   */
  continuousUsage?: boolean;
}

/** What the simulator's GET /metrics exposes. */
export const SIM_METRICS = ['vllm', 'gauges', 'none'] as const;
/** One of `SIM_METRICS`. */
export type SimMetrics = (typeof SIM_METRICS)[number];

/** Throws a TypeError naming the first setting that is out of range or cannot be combined with another. */
export function checkOptions(options: SimOptions): void {
  if (!Array.isArray(options.problems)) throw new TypeError('problems must be an array of { id, question, answer? }');
  if (options.outputTokens !== undefined && !(options.outputTokens >= 1)) throw new TypeError(`outputTokens must be >= 1, got ${options.outputTokens}`);
  if (options.distillTokens !== undefined && !(Number.isInteger(options.distillTokens) && options.distillTokens >= 0)) throw new TypeError(`distillTokens must be an integer >= 0, got ${options.distillTokens}`);
  const accuracy = options.verifierAccuracy;
  if (accuracy !== undefined && !(accuracy >= 0 && accuracy <= 1)) throw new TypeError(`verifierAccuracy must be in [0, 1], got ${accuracy}`);
  if (options.latency) checkLatency(options.latency);
  if (options.faults) checkFaultRates(options.faults);
  if (options.breakFormats !== undefined) checkBreakRate(options.breakFormats);
  if (options.capacity) {
    if (options.latency) throw new TypeError('latency cannot be combined with capacity: the capacity model decides when each reply comes');
    if (options.stream?.tokensPerSecond) throw new TypeError('stream.tokensPerSecond cannot be combined with capacity: the capacity model paces streams');
    resolveCapacity(options.capacity);
  }
  if (options.metrics !== undefined && !SIM_METRICS.includes(options.metrics)) throw new TypeError(`metrics must be one of ${SIM_METRICS.join(', ')}, got ${String(options.metrics)}`);
}
