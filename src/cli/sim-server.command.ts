/**
 * `tmas sim-server`: runs the simulated model on its own, so another tool (or
 * another tmas run, with --base-url) can talk to it.
 */
import { loadProblems } from '../input/problems.ts';
import { parseFaults } from '../sim/faults.ts';
import { SIM_METRICS, startSimServer, type SimMetrics, type SimServer } from '../sim/server.ts';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import { SIM_REASONING_DIALECTS, type SimReasoningDialect } from '../sim/completion.ts';
import { UserError } from '../kernel/errors.ts';
import { CAPACITY_DEFAULTS, type CapacityOptions } from '../sim/capacity/options.ts';

/** Options of the sim-server command, as the CLI parses them. */
export interface SimServerCommandOptions extends CapacityOptions {
  port: number;
  host: string;
  /** Problem file (JSONL, JSON array or CSV). */
  problems: string;
  seed: number;
  latencyMedianMs: number;
  latencyP99Ms: number;
  outputTokens: number;
  /** Fault spec, e.g. `429=0.05,503=0.02,reset=0.02`. */
  faults?: string;
  /** `true` (reasoning_content) or a dialect name; false for none. */
  reasoning: boolean | string;
  /** Models served; absent: tmas-sim, and any name accepted. */
  model?: string[];
  streamTokensPerSecond?: number;
  streamChunkTokens?: number;
  openaiReasoning?: boolean;
  requestLog?: string;
  /** Turns the capacity model on; the CapacityOptions fields tune it. */
  capacity?: boolean;
  /** What GET /metrics exposes: vllm (the default), gauges or none. */
  metrics?: string;
  /** False (`--no-continuous-usage`): streams ignore continuous_usage_stats. */
  continuousUsage?: boolean;
}

/** The flag of a capacity option: its field in kebab case (`kvTokens` → `--kv-tokens`), so the option list is the one list of flags. */
export function capacityFlagOf(field: keyof CapacityOptions): string {
  return `--${field.replace(/[A-Z0-9]+/g, (part) => `-${part.toLowerCase()}`)}`;
}

const CAPACITY_FIELDS = Object.keys(CAPACITY_DEFAULTS) as Array<keyof CapacityOptions>;

/** The capacity model's options from the flags, or undefined when it is off; UserError for flags that contradict each other. */
function capacityOf(options: SimServerCommandOptions): CapacityOptions | undefined {
  const given = CAPACITY_FIELDS.filter((field) => options[field] !== undefined);
  if (!options.capacity) {
    const [field] = given;
    if (field !== undefined) throw new UserError('TMAS_USAGE', `${capacityFlagOf(field)} tunes the capacity model: add --capacity, or drop ${capacityFlagOf(field)}.`);
    return undefined;
  }
  if (options.latencyMedianMs > 0) throw new UserError('TMAS_USAGE', '--latency-median-ms cannot be combined with --capacity: the capacity model decides when each reply comes. Drop one of them.');
  if ((options.streamTokensPerSecond ?? 0) > 0) throw new UserError('TMAS_USAGE', '--stream-tokens-per-second cannot be combined with --capacity: the capacity model paces streams. Drop one of them.');
  const median = options.outputTokensMedian ?? CAPACITY_DEFAULTS.outputTokensMedian;
  const p99 = options.outputTokensP99 ?? CAPACITY_DEFAULTS.outputTokensP99;
  if (p99 < median) throw new UserError('TMAS_USAGE', `--output-tokens-p99 (${p99}) must be at least --output-tokens-median (${median}).`);
  return Object.fromEntries(given.map((field) => [field, options[field]]));
}

function metricsOf(value: string | undefined): SimMetrics | undefined {
  if (value === undefined) return undefined;
  const metrics = SIM_METRICS.find((name) => name === value);
  if (metrics === undefined) throw new UserError('TMAS_USAGE', `--metrics must be one of ${SIM_METRICS.join(', ')}, got "${value}".`);
  return metrics;
}

function reasoningOf(value: boolean | string): boolean | SimReasoningDialect {
  if (typeof value === 'boolean') return value;
  const dialect = SIM_REASONING_DIALECTS.find((name) => name === value);
  if (dialect === undefined) throw new UserError('TMAS_USAGE', `--reasoning must be one of ${SIM_REASONING_DIALECTS.join(', ')}, got "${value}".`);
  return dialect;
}

/**
 * Loads the problems, starts the simulated model and prints where it listens.
 * Resolves with the running server; the caller closes it (e.g. on Ctrl-C).
 * Throws UserError for a bad problem file (`TMAS_INPUT`) or fault spec (`TMAS_USAGE`).
 */
export async function runSimServerCommand(options: SimServerCommandOptions, io: { stdout(line: string): void }): Promise<SimServer> {
  const faults = options.faults === undefined ? {} : parseFaults(options.faults);
  const capacity = capacityOf(options);
  const metrics = metricsOf(options.metrics);
  const problems = await loadProblems(options.problems);
  const latency = options.latencyMedianMs > 0 ? { medianMs: options.latencyMedianMs, p99Ms: Math.max(options.latencyMedianMs, options.latencyP99Ms) } : 0;
  const server = await startSimServer({
    problems,
    roles: SIM_ROLES,
    seed: options.seed,
    host: options.host,
    port: options.port,
    latency,
    outputTokens: options.outputTokens,
    faults,
    reasoning: reasoningOf(options.reasoning),
    stream: { tokensPerSecond: options.streamTokensPerSecond ?? 0, chunkTokens: options.streamChunkTokens ?? 8 },
    openaiReasoning: options.openaiReasoning ?? false,
    ...(options.model === undefined ? {} : { models: options.model }),
    ...(options.requestLog === undefined ? {} : { requestLog: options.requestLog }),
    ...(capacity === undefined ? {} : { capacity }),
    ...(metrics === undefined ? {} : { metrics }),
    ...(options.continuousUsage === false ? { continuousUsage: false } : {}),
  });
  const model = capacity === undefined ? '' : `; capacity model on (simulated, time scale ${capacity.timeScale ?? CAPACITY_DEFAULTS.timeScale})`;
  io.stdout(`tmas sim-server listening on ${server.url} (simulated model, not a real LLM): ${problems.length} problems, seed ${options.seed}${model}`);
  return server;
}
