/**
 * GET /metrics in Prometheus' text exposition format, under vLLM's own metric
 * names and `model_name` label, so a client written for vLLM reads the
 * simulator unchanged. Both KV cache names are sent: `gpu_cache_usage_perc`
 * (vLLM before V1) and `kv_cache_usage_perc` (V1). Times are simulated seconds.
 */
import type { CapacityMetrics } from './engine.ts';
import type { Histogram } from './histogram.ts';

/** What the simulator reports when the capacity model is off: requests in progress, nothing waiting, no cache. */
export function idleMetrics(running: number): Pick<CapacityMetrics, 'running' | 'waiting' | 'kvUsage'> {
  return { running, waiting: 0, kvUsage: 0 };
}

/** The label value, escaped as the exposition format asks. */
function labelOf(model: string): string {
  return `{model_name="${model.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"}`;
}

function family(lines: string[], name: string, type: 'gauge' | 'counter' | 'histogram', help: string): void {
  lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
}

function histogramLines(lines: string[], name: string, model: string, histogram: Histogram): void {
  const escaped = labelOf(model).slice(1, -1);
  let cumulative = 0;
  histogram.bounds.forEach((bound, index) => {
    cumulative += histogram.counts[index] ?? 0;
    lines.push(`${name}_bucket{${escaped},le="${bound}"} ${cumulative}`);
  });
  lines.push(`${name}_bucket{${escaped},le="+Inf"} ${histogram.count}`, `${name}_sum${labelOf(model)} ${histogram.sum}`, `${name}_count${labelOf(model)} ${histogram.count}`);
}

/**
 * The exposition text. With only the gauges (the model off), only the gauges
 * are sent; with the full metrics, the counters and histograms too.
 */
export function toPrometheusText(model: string, metrics: Pick<CapacityMetrics, 'running' | 'waiting' | 'kvUsage'> | CapacityMetrics, readAtMs?: number): string {
  const label = labelOf(model);
  const lines: string[] = [];
  const gauge = (name: string, help: string, value: number) => {
    family(lines, name, 'gauge', help);
    lines.push(`${name}${label} ${value}`);
  };
  const counter = (name: string, help: string, value: number) => {
    family(lines, `${name}_total`, 'counter', help);
    // The counters carry the (wall-clock) moment they were read, as the text format allows: a client
    // measuring rates from them is then not misled by the time the answer took to reach it.
    lines.push(`${name}_total${label} ${value}${readAtMs === undefined ? '' : ` ${readAtMs}`}`);
  };
  gauge('vllm:num_requests_running', 'Number of requests in model execution batches (simulated).', metrics.running);
  gauge('vllm:num_requests_waiting', 'Number of requests waiting to be processed (simulated).', metrics.waiting);
  gauge('vllm:gpu_cache_usage_perc', 'GPU KV-cache usage. 1 means 100 percent usage (simulated; the pre-V1 name).', metrics.kvUsage);
  gauge('vllm:kv_cache_usage_perc', 'KV-cache usage. 1 means 100 percent usage (simulated).', metrics.kvUsage);
  if ('ttft' in metrics) {
    counter('vllm:prompt_tokens', 'Number of prefill tokens processed (simulated).', Math.round(metrics.promptTokens));
    counter('vllm:generation_tokens', 'Number of generation tokens processed (simulated).', Math.round(metrics.generationTokens));
    counter('vllm:num_preemptions', 'Cumulative number of preemptions (simulated).', metrics.preemptions);
    counter('vllm:prefix_cache_queries', 'Prefix cache queries, in terms of number of queried tokens (simulated).', metrics.prefixQueries);
    counter('vllm:prefix_cache_hits', 'Prefix cache hits, in terms of number of cached tokens (simulated).', metrics.prefixHits);
    family(lines, 'vllm:time_to_first_token_seconds', 'histogram', 'Histogram of time to first token in simulated seconds.');
    histogramLines(lines, 'vllm:time_to_first_token_seconds', model, metrics.ttft);
    family(lines, 'vllm:e2e_request_latency_seconds', 'histogram', 'Histogram of end to end request latency in simulated seconds.');
    histogramLines(lines, 'vllm:e2e_request_latency_seconds', model, metrics.e2e);
  }
  return `${lines.join('\n')}\n`;
}
