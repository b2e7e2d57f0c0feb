/**
 * The settings of `tmas sim-server`, each declared once: its flag, its help,
 * its default and its field of the sim-server's configuration
 * (sim-server.config.ts). The defaults are the simulator's own (SIM_DEFAULTS,
 * CAPACITY_DEFAULTS), read here as `tmas run --sim-*` reads them, so that
 * what `--help` shows is what the simulator does.
 */
import { UserError } from '../../kernel/errors.ts';
import { CAPACITY_DEFAULTS, type CapacitySettings } from '../../sim/capacity/options.ts';
import { SIM_REASONING_DIALECTS, type SimReasoningDialect } from '../../sim/http/completion.ts';
import { SIM_DEFAULTS } from '../../sim/defaults.ts';
import { parseFaults, type FaultRates } from '../../sim/faults/faults.ts';
import { SIM_METRICS, type SimMetrics } from '../../sim/sim-options.ts';
import { decimal, integer } from '../parsers.ts';
import { flagName } from '../setting.ts';
import { COLUMN_FLAGS, columnName } from './problems.settings.ts';
import { p99AtLeastMedian } from './sim.settings.ts';
import { simServerField as field, type SimServerSetting } from '../sim-server.config.ts';

/** Declares a setting of `tmas sim-server`, its value and field typed. */
function setting<V, T = V>(declaration: SimServerSetting<V, T>): SimServerSetting {
  return declaration;
}

/**
 * The port `tmas sim-server` listens on: vLLM's, so that a client set up for
 * a local vLLM finds it. The simulator's own default (SIM_DEFAULTS.port) is an
 * ephemeral port, for a program that starts it and reads its URL.
 */
const SIM_SERVER_PORT = 8000;

/** `--metrics`: one of SIM_METRICS (checked here too, for a caller that passes the flags without commander). */
function metricsOf(value: string | undefined): SimMetrics {
  const metrics = SIM_METRICS.find((name) => name === value);
  if (metrics === undefined) throw new UserError('TMAS_USAGE', `--metrics must be one of ${SIM_METRICS.join(', ')}, got "${value}".`);
  return metrics;
}

/** `--reasoning [dialect]`: given alone it is true (reasoning_content); a dialect named must be one the simulator speaks. */
function reasoningOf(value: boolean | string | undefined): boolean | SimReasoningDialect {
  if (typeof value !== 'string') return value ?? SIM_DEFAULTS.reasoning;
  const dialect = SIM_REASONING_DIALECTS.find((name) => name === value);
  if (dialect === undefined) throw new UserError('TMAS_USAGE', `--reasoning must be one of ${SIM_REASONING_DIALECTS.join(', ')}, got "${value}".`);
  return dialect;
}

/** Where it listens, what it knows and what it serves. */
const SERVER_SETTINGS = [
  setting<string>({ flags: '--problems <file>', section: 'sim-server', help: 'the problems whose reference answers it knows (JSONL, CSV or Parquet)', mandatory: true, field: field('server', 'problems') }),
  // The columns of --problems, as tmas run's --input-file names them: a CSV of other names could not be served, and its message named these flags.
  ...COLUMN_FLAGS.map((flag) =>
    setting<string, string | null>({ flags: flag.flags, section: 'sim-server', help: `the column (or JSON field) of --problems' ${flag.what}`, defaultText: flag.defaultText, field: field('server', flag.key), resolve: columnName(flag) }),
  ),
  setting<number>({ flags: '--port <n>', section: 'sim-server', help: 'port (0: any free port)', parse: integer(0, 65_535), default: SIM_SERVER_PORT, field: field('server', 'port') }),
  setting<string>({ flags: '--host <host>', section: 'sim-server', help: 'interface to listen on', default: SIM_DEFAULTS.host, field: field('server', 'host') }),
  setting<string[], string[] | null>({
    flags: '--model <id>',
    section: 'sim-server',
    help: "a model it serves (repeat for several); a request for another gets vLLM's 404",
    defaultText: `${SIM_DEFAULTS.model}, and any name accepted`,
    parse: (value, previous) => [...(previous ?? []), value],
    field: field('server', 'models'),
    resolve: (models) => models ?? null,
  }),
  setting<string, string | null>({ flags: '--request-log <file>', section: 'sim-server', help: 'append one JSONL line per request', field: field('server', 'requestLog'), resolve: (file) => file ?? null }),
  setting<string, SimMetrics>({
    flags: '--metrics <which>',
    section: 'sim-server',
    help: "what GET /metrics exposes: vllm (vLLM's gauges, counters and histograms), gauges (only the request and KV-cache gauges) or none (a 404, as a server without Prometheus metrics)",
    default: SIM_DEFAULTS.metrics,
    field: field('server', 'metrics'),
    resolve: metricsOf,
  }),
];

/** What its replies say. */
const REPLY_SETTINGS = [
  setting<number>({ flags: '--seed <n>', section: 'sim-replies', help: 'seed of its answers', parse: integer(0), default: SIM_DEFAULTS.seed, field: field('replies', 'seed') }),
  setting<number>({
    flags: '--break-formats <rate>',
    section: 'sim-replies',
    help: "share of replies, 0..1, that break their role's format (missing sections, no box or several, JSON with other keys, prose, cut off)",
    parse: decimal(0, 1),
    default: SIM_DEFAULTS.breakFormats,
    field: field('replies', 'breakFormats'),
  }),
  setting<number>({ flags: '--output-tokens <n>', section: 'sim-replies', help: 'approximate tokens of a solution', parse: integer(1), default: SIM_DEFAULTS.outputTokens, field: field('replies', 'outputTokens') }),
  setting<number>({
    flags: '--distill-tokens <n>',
    section: 'sim-replies',
    help: "approximate tokens of the records an rse distillation writes besides its marked one: distinct propositions and pitfalls of about 150 tokens each, so the bank grows as a real distiller's does (0: the marked record alone)",
    parse: integer(0),
    default: SIM_DEFAULTS.distillTokens,
    field: field('replies', 'distillTokens'),
  }),
  setting<string, FaultRates>({
    flags: '--faults <spec>',
    section: 'sim-replies',
    help: 'fault injection rates, e.g. 429=0.05,503=0.02,reset=0.02,hang=0.01,malformed=0.02,length=0.02,empty=0.01',
    field: field('replies', 'faults'),
    resolve: (spec) => (spec === undefined ? {} : parseFaults(spec)),
  }),
  setting<boolean | string, boolean | SimReasoningDialect>({
    flags: '--reasoning [dialect]',
    section: 'sim-replies',
    help: 'also send reasoning, as reasoning models do, in the dialect named: reasoning_content (the flag given alone), reasoning, or think-tags (inline <think>…</think>); off when the flag is left out',
    default: SIM_DEFAULTS.reasoning,
    field: field('replies', 'reasoning'),
    resolve: reasoningOf,
  }),
  setting<boolean>({
    flags: '--openai-reasoning',
    section: 'sim-replies',
    help: "refuse max_tokens and sampling fields with a 400, as OpenAI's reasoning models do",
    default: SIM_DEFAULTS.openaiReasoning,
    field: field('replies', 'openaiReasoning'),
  }),
];

/** When replies come without the capacity model, and how streams are cut. */
const PACE_SETTINGS = [
  setting<number>({ flags: '--latency-median-ms <ms>', section: 'sim-pace', help: 'median latency (0: none)', parse: decimal(0, 600_000), default: SIM_DEFAULTS.latency, field: field('pace', 'latencyMedianMs') }),
  setting<number>({
    flags: '--latency-p99-ms <ms>',
    section: 'sim-pace',
    help: '99th percentile latency (at least the median)',
    parse: decimal(0, 600_000),
    defaultText: 'the median (--latency-median-ms)',
    field: field('pace', 'latencyP99Ms'),
    resolve: p99AtLeastMedian('--latency-p99-ms', '--latency-median-ms', 'latencyMedianMs'),
  }),
  setting<number>({
    flags: '--stream-tokens-per-second <n>',
    section: 'sim-pace',
    help: 'pace of streamed replies per stream (0: as fast as possible)',
    parse: decimal(0, 1_000_000),
    default: SIM_DEFAULTS.stream.tokensPerSecond,
    field: field('pace', 'streamTokensPerSecond'),
  }),
  setting<number>({ flags: '--stream-chunk-tokens <n>', section: 'sim-pace', help: 'tokens per streamed chunk', parse: integer(1, 100_000), default: SIM_DEFAULTS.stream.chunkTokens, field: field('pace', 'streamChunkTokens') }),
];

/** One setting of the capacity model, applied only with --capacity. */
function capacitySetting(flags: string, help: string, parse: (value: string) => number, key: keyof CapacitySettings): SimServerSetting {
  return setting<number>({ flags, section: 'sim-capacity', help, parse, default: CAPACITY_DEFAULTS[key], tunes: '--capacity', field: field('capacity', key) });
}

/** The capacity model: the switch, and what it models. */
const CAPACITY_SETTINGS = [
  setting<boolean>({
    flags: '--capacity',
    section: 'sim-capacity',
    help: 'model one GPU server under load (continuous batching, KV cache, prefill, prefix caching): replies take the time the load gives them, report drawn output lengths, and /metrics and /sim/stats report it; replaces --latency-* and --stream-tokens-per-second',
    default: false,
    field: field('capacity', 'on'),
  }),
  setting<boolean>({
    flags: '--no-continuous-usage',
    section: 'sim-capacity',
    help: 'with --capacity: ignore stream_options.continuous_usage_stats (usage only at the end of a stream), as TGI, llama.cpp and hosted APIs do',
    default: SIM_DEFAULTS.continuousUsage,
    field: field('capacity', 'continuousUsage'),
  }),
  capacitySetting('--decode-tokens-per-second <n>', 'decode throughput D shared by all sequences', integer(1), 'decodeTokensPerSecond'),
  capacitySetting('--sequence-tokens-per-second <n>', 'decode ceiling c of one sequence', integer(1), 'sequenceTokensPerSecond'),
  capacitySetting('--kv-tokens <n>', 'KV cache capacity K in tokens, prompts plus generated', integer(1), 'kvTokens'),
  capacitySetting('--prefill-tokens-per-second <n>', 'prefill throughput P', integer(1), 'prefillTokensPerSecond'),
  capacitySetting('--output-tokens-median <n>', 'median output length drawn per request', integer(1), 'outputTokensMedian'),
  capacitySetting('--output-tokens-p99 <n>', '99th percentile output length', integer(1), 'outputTokensP99'),
  capacitySetting('--output-tokens-problem-spread <s>', "how much lengths depend on the problem: a problem's calls share a factor exp(s × z), z drawn per problem (0: independent)", decimal(0, 3), 'outputTokensProblemSpread'),
  capacitySetting('--text-chars-per-token <x>', "pad each reply's reasoning to x characters per drawn output token, as a thinking model's text grows with its tokens (0: the answer's text only)", decimal(0, 100), 'textCharsPerToken'),
  capacitySetting('--time-scale <k>', 'simulated seconds per real second (1000 runs a day in under 2 minutes)', decimal(0.001, 1_000_000), 'timeScale'),
];

/** Every setting of `tmas sim-server`, in the order its --help lists them. */
export const SIM_SERVER_SETTINGS: readonly SimServerSetting[] = [...SERVER_SETTINGS, ...REPLY_SETTINGS, ...PACE_SETTINGS, ...CAPACITY_SETTINGS];

/** The `tmas sim-server` flag of a capacity setting (`kvTokens` → `--kv-tokens`), read from its declaration. */
export function capacityFlag(key: keyof CapacitySettings): string {
  const declared = CAPACITY_SETTINGS.find((candidate) => candidate.field?.name === `capacity.${key}`);
  if (declared === undefined) throw new TypeError(`no tmas sim-server setting sets capacity.${key}`);
  return flagName(declared);
}
