/**
 * The configuration of `tmas sim-server`, in sections that mirror its
 * settings' (sim-server.settings.ts), filled once from the flags as
 * `tmas run`'s is (to-sim-server-config.ts): no field is optional, a value
 * meaning "none" is null, and the command decides no default of its own.
 */
import type { CapacitySettings } from '../sim/capacity/options.ts';
import type { SimReasoningDialect } from '../sim/http/completion.ts';
import type { FaultRates } from '../sim/faults/faults.ts';
import type { SimMetrics } from '../sim/sim-options.ts';
import { sectionFields } from './field.ts';
import type { FlagsContext, Setting } from './setting.ts';
import { fieldsOf, unsetFields, type SectionKeys } from './unfilled.ts';

/** Where it listens, what it knows and what it serves. */
export interface SimServerListening {
  /** The problem file (JSONL, JSON array, CSV or Parquet) whose reference answers it knows. */
  problems: string;
  /** The columns (or JSON fields) of its ids, questions and answers; null: the file's own names. */
  idColumn: string | null;
  questionColumn: string | null;
  answerColumn: string | null;
  host: string;
  port: number;
  /** The models it serves; null: its default model listed, any name accepted. */
  models: string[] | null;
  /** A JSONL file of one line per request; null: none. */
  requestLog: string | null;
  metrics: SimMetrics;
}

/** What its replies say. */
export interface SimServerReplies {
  seed: number;
  outputTokens: number;
  /** Tokens of an rse distillation's records besides its marked one (0: none). */
  distillTokens: number;
  /** false: no reasoning; true: reasoning_content; or the dialect named. */
  reasoning: boolean | SimReasoningDialect;
  openaiReasoning: boolean;
  /** Fault rates per attempt; `{}`: none. */
  faults: FaultRates;
  /** The share of replies that break their role's format (0: none). */
  breakFormats: number;
}

/** When replies come without the capacity model, and how streams are cut. */
export interface SimServerPace {
  /** 0: replies at once. */
  latencyMedianMs: number;
  /** At least the median. */
  latencyP99Ms: number;
  /** 0: as fast as the socket takes them. */
  streamTokensPerSecond: number;
  streamChunkTokens: number;
}

/** The capacity model: whether it is on, and its settings (their defaults where not given, used only when on). */
export interface SimServerCapacity extends CapacitySettings {
  on: boolean;
  /** Whether a stream asked for continuous usage gets it in every chunk. */
  continuousUsage: boolean;
}

/** Everything `tmas sim-server` starts the simulated model with, by section. */
export interface SimServerConfig {
  server: SimServerListening;
  replies: SimServerReplies;
  pace: SimServerPace;
  capacity: SimServerCapacity;
}

/** A setting of `tmas sim-server`: its flags are the only context it reads. */
export type SimServerSetting<V = unknown, T = unknown> = Setting<V, T, SimServerConfig, FlagsContext>;

const SIM_SERVER_KEYS: SectionKeys<SimServerConfig> = {
  server: { problems: true, idColumn: true, questionColumn: true, answerColumn: true, host: true, port: true, models: true, requestLog: true, metrics: true },
  replies: { seed: true, outputTokens: true, distillTokens: true, reasoning: true, openaiReasoning: true, faults: true, breakFormats: true },
  pace: { latencyMedianMs: true, latencyP99Ms: true, streamTokensPerSecond: true, streamChunkTokens: true },
  capacity: {
    on: true,
    continuousUsage: true,
    decodeTokensPerSecond: true,
    sequenceTokensPerSecond: true,
    kvTokens: true,
    prefillTokensPerSecond: true,
    outputTokensMedian: true,
    outputTokensP99: true,
    outputTokensProblemSpread: true,
    textCharsPerToken: true,
    timeScale: true,
  },
};

const SIM_SERVER_FIELDS = fieldsOf(SIM_SERVER_KEYS);

/** The field `key` of `section` of the sim-server's configuration, as a typed accessor. */
export const simServerField = sectionFields<SimServerConfig>();

/** The names of the fields a configuration leaves undefined; empty when it is whole. */
export function unfilledSimServerFields(config: unknown): string[] {
  return unsetFields(config, SIM_SERVER_FIELDS);
}

/** A configuration whose sections are empty, for the settings to fill. */
export function emptySimServerConfig(): SimServerConfig {
  // Empty objects of each section's type, filled field by field and checked whole before they are returned.
  return { server: {} as SimServerListening, replies: {} as SimServerReplies, pace: {} as SimServerPace, capacity: {} as SimServerCapacity };
}

