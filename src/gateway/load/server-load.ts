/**
 * What a model server says of its own load: requests running and waiting in
 * its queue, from its Prometheus `/metrics` (vLLM always serves it; SGLang
 * with `--enable-metrics`; TGI always, its gauges only; llama.cpp's
 * llama-server with `--metrics`). Read at the server's root: a base URL
 * `http://host:8000/v1` is read at `http://host:8000/metrics`.
 */
import type { HttpTransport } from '../request/http-transport.ts';
import { ByteBuilder } from '../reply/byte-builder.ts';
import { seriesSamples } from './metric-series.ts';

/** One reading of a server's load. */
export interface ServerLoad {
  running: number;
  waiting: number;
  /** Fraction of the KV cache in use, when the server says. */
  kvUsage: number | null;
  /** Tokens it has generated since it started (a counter), when it says: its throughput is read from it (throughput-knee.ts). */
  generationTokens: number | null;
  /** When the server read that counter (epoch ms), when its samples carry a timestamp (vLLM's do not; the simulator's do). */
  generationTokensAtMs: number | null;
}

/** The gauges (and the counter) each server names, in the order they are looked for. */
const GAUGES = {
  running: ['vllm:num_requests_running', 'sglang:num_running_reqs', 'tgi_batch_current_size', 'llamacpp:requests_processing'],
  waiting: ['vllm:num_requests_waiting', 'sglang:num_queue_reqs', 'tgi_queue_size', 'llamacpp:requests_deferred'],
  kvUsage: ['vllm:kv_cache_usage_perc', 'vllm:gpu_cache_usage_perc', 'sglang:token_usage', 'llamacpp:kv_cache_usage_ratio'],
  // Counters that grow as tokens are decoded. llama.cpp's `tokens_predicted_total` grows only as requests end, too late to measure a rate by.
  generationTokens: ['vllm:generation_tokens_total', 'sglang:generation_tokens_total'],
} as const;

/** A /metrics page is a few hundred kilobytes; one far larger is not what we are looking for. */
const MAX_METRICS_BYTES = 8 * 2 ** 20;
/** A /metrics answer slower than this says nothing current, at first (load-reading.ts waits longer for a server that answered before). */
export const METRICS_TIMEOUT_MS = 2_000;

/** One reading of a server's /metrics: its load, and the series it was read from. */
export interface MetricsReading {
  load: ServerLoad;
  /** The series (name and labels) of the gauges and the counter read: a data-parallel engine that missed a scrape lacks its own (series-continuity.ts). */
  series: ReadonlySet<string>;
  /** The token counter's value in each of its series. */
  counter: ReadonlyMap<string, number>;
}

/** Sums and maxima of each named gauge over its series (data-parallel engines and models report one series each), the latest timestamp any of its samples carried, and the series read. */
function gaugeSums(text: string, names: ReadonlySet<string>) {
  const sums = new Map<string, number>();
  const maxima = new Map<string, number>();
  const stamps = new Map<string, number>();
  const series = new Map<string, { name: string; value: number }>();
  for (const { name, key, value, stampMs } of seriesSamples(text, names)) {
    // Counts and fractions are never negative nor past 2^53 (nor NaN, nor infinite): such a sample is a broken exporter's, and is left out.
    if (!(Number.isFinite(value) && value >= 0 && value <= Number.MAX_SAFE_INTEGER)) continue;
    sums.set(name, (sums.get(name) ?? 0) + value);
    maxima.set(name, Math.max(maxima.get(name) ?? value, value));
    series.set(key, { name, value });
    if (stampMs !== null) stamps.set(name, Math.max(stamps.get(name) ?? stampMs, stampMs));
  }
  return { sums, maxima, stamps, series };
}

/** The load in a Prometheus text page, and its series; null when it names no server's running and waiting gauges that we know. */
export function parseMetricsReading(text: string): MetricsReading | null {
  const { sums, maxima, stamps, series } = gaugeSums(text, new Set(Object.values(GAUGES).flat()));
  const first = (names: readonly string[], of = sums) => names.map((name) => of.get(name)).find((value) => value !== undefined);
  const counter = GAUGES.generationTokens.find((name) => sums.has(name));
  const running = first(GAUGES.running);
  const waiting = first(GAUGES.waiting);
  if (running === undefined || waiting === undefined) return null;
  const load: ServerLoad = {
    running,
    waiting,
    // A fraction per engine: the fullest engine's, since its own requests queue when it fills, whatever the others hold.
    kvUsage: first(GAUGES.kvUsage, maxima) ?? null,
    generationTokens: counter === undefined ? null : (sums.get(counter) ?? null),
    generationTokensAtMs: counter === undefined ? null : (stamps.get(counter) ?? null),
  };
  const counterSeries = new Map([...series].filter(([, sample]) => sample.name === counter).map(([key, sample]) => [key, sample.value]));
  return { load, series: new Set(series.keys()), counter: counterSeries };
}

/** The load in a Prometheus text page; null when it names no server's running and waiting gauges that we know. */
export function parseServerLoad(text: string): ServerLoad | null {
  return parseMetricsReading(text)?.load ?? null;
}

/** Where a server's metrics are, from its OpenAI base URL. */
export function metricsUrlOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = url.pathname.replace(/\/v1\/?$/, '/').replace(/\/?$/, '/') + 'metrics';
  url.search = '';
  return url.toString();
}

/**
 * The text of a /metrics page, through `transport` (the proxy the environment
 * names for it included); rejects on a failure, a status not 2xx, a page over
 * MAX_METRICS_BYTES, or no whole answer within `timeoutMs`.
 */
export async function metricsText(transport: HttpTransport, metricsUrl: string, headers: Record<string, string>, timeoutMs: number): Promise<string> {
  // AbortSignal.timeout throws on a fraction of a ms: a wait computed from a measured time is rounded up.
  const response = await transport.request(metricsUrl, { headers, signal: AbortSignal.timeout(Math.ceil(timeoutMs)) });
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (!response.ok || declared > MAX_METRICS_BYTES) {
    response.body.cancel();
    throw new Error(response.ok ? `larger than ${MAX_METRICS_BYTES / 2 ** 20} MiB` : `HTTP ${response.status}`);
  }
  const gathered = new ByteBuilder();
  for await (const chunk of response.body) {
    if (gathered.length + chunk.byteLength > MAX_METRICS_BYTES) {
      response.body.cancel();
      throw new Error(`larger than ${MAX_METRICS_BYTES / 2 ** 20} MiB`);
    }
    gathered.push(chunk);
  }
  return gathered.text();
}

/**
 * Reads a server's load. Resolves null when the server has no usable
 * metrics (no route, another format, too large, too slow); never rejects.
 */
export async function readServerLoad(transport: HttpTransport, metricsUrl: string, headers: Record<string, string> = {}, timeoutMs = METRICS_TIMEOUT_MS): Promise<MetricsReading | null> {
  try {
    return parseMetricsReading(await metricsText(transport, metricsUrl, headers, timeoutMs));
  } catch {
    return null;
  }
}
