/**
 * A replica's capacity read from a live server: its Prometheus /metrics
 * (vLLM's names, as src/gateway/load/server-load.ts reads them) watched for a
 * bounded while. The decode throughput is what the server decoded in that
 * while, and the per-sequence rate that throughput over the sequences it ran:
 * figures of the load it had, so it should be busy while it is watched.
 */
import { UserError } from '../kernel/errors.ts';
import { metricsUrlOf, parseServerLoad, type ServerLoad } from '../gateway/load/server-load.ts';

/** What the watch gave. */
export interface MeasuredCapacity {
  decodeTokensPerSecond: number;
  sequenceTokensPerSecond: number;
  /** Mean sequences running while watched. */
  running: number;
  seconds: number;
}

const READ_TIMEOUT_MS = 5_000;

async function readLoad(metricsUrl: string): Promise<{ load: ServerLoad; at: number }> {
  let text: string;
  try {
    const response = await fetch(metricsUrl, { signal: AbortSignal.timeout(READ_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch (error) {
    throw new UserError('TMAS_ENDPOINT', `--metrics-from: GET ${metricsUrl} failed (${(error as Error).message}). Give the base URL of a running vLLM or tmas sim-server, or describe the server with --decode-tokens-per-second and --sequence-tokens-per-second.`, { cause: error });
  }
  const load = parseServerLoad(text);
  if (load === null || load.generationTokens === null) {
    throw new UserError('TMAS_ENDPOINT', `--metrics-from: ${metricsUrl} has no vllm:num_requests_running or vllm:generation_tokens_total. Describe the server with --decode-tokens-per-second and --sequence-tokens-per-second instead.`);
  }
  return { load, at: load.generationTokensAtMs ?? Date.now() };
}

/** Watches the server at `baseUrl` (its OpenAI base URL) for `seconds`, reading its metrics once a second. */
export async function measureCapacity(baseUrl: string, seconds: number): Promise<MeasuredCapacity> {
  const metricsUrl = metricsUrlOf(baseUrl);
  const first = await readLoad(metricsUrl);
  let last = first;
  let runningSum = first.load.running;
  let samples = 1;
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Math.max(0, until - Date.now()))));
    last = await readLoad(metricsUrl);
    runningSum += last.load.running;
    samples++;
  }
  const elapsed = (last.at - first.at) / 1000;
  const decoded = (last.load.generationTokens as number) - (first.load.generationTokens as number);
  const running = runningSum / samples;
  if (!(elapsed > 0) || !(decoded > 0) || !(running > 0)) {
    throw new UserError('TMAS_USAGE', `--metrics-from: ${metricsUrl} decoded nothing in ${seconds} s of watching. Watch it while it is busy (a longer --metrics-seconds), or describe it with --decode-tokens-per-second and --sequence-tokens-per-second.`);
  }
  const decodeTokensPerSecond = decoded / elapsed;
  return { decodeTokensPerSecond, sequenceTokensPerSecond: decodeTokensPerSecond / running, running, seconds: elapsed };
}
