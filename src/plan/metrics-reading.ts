/**
 * A replica's capacity read from a live server: its Prometheus /metrics
 * (vLLM's names, as src/gateway/load/server-load.ts reads them) watched for a
 * bounded while. The decode throughput is what the server decoded in that
 * while, and the per-sequence rate that throughput over the sequences it ran:
 * figures of the load it had, so it should be busy while it is watched.
 */
import { UserError } from '../kernel/errors.ts';
import { metricsText, metricsUrlOf, parseServerLoad, type ServerLoad } from '../gateway/load/server-load.ts';
import { createHttpTransport, type HttpTransport } from '../gateway/request/http-transport.ts';
import { proxyFailure } from '../gateway/request/proxy/proxy-failure.ts';
import { throughProxy } from '../gateway/request/proxy/proxy-env.ts';

/** What the watch gave. */
export interface MeasuredCapacity {
  decodeTokensPerSecond: number;
  sequenceTokensPerSecond: number;
  /** Mean sequences running while watched. */
  running: number;
  seconds: number;
}

const READ_TIMEOUT_MS = 5_000;

// The gateway's transport, not the global fetch: a server reached through the site's proxy (HTTP_PROXY, NO_PROXY) is
// reached so here too, as the run's calls reach it, and the page is bounded in bytes.
async function readLoad(transport: HttpTransport, metricsUrl: string): Promise<{ load: ServerLoad; at: number }> {
  let text: string;
  try {
    text = await metricsText(transport, metricsUrl, {}, READ_TIMEOUT_MS);
  } catch (error) {
    const proxy = proxyFailure(error, metricsUrl);
    if (proxy !== null) throw new UserError('TMAS_PROXY', `--metrics-from: GET ${metricsUrl} was not sent: ${proxy}.`, { cause: error });
    throw new UserError('TMAS_ENDPOINT', `--metrics-from: GET ${metricsUrl}${throughProxy(metricsUrl)} failed (${(error as Error).message}). Give the base URL of a running vLLM or tmas sim-server, or describe the server with --decode-tokens-per-second and --sequence-tokens-per-second.`, { cause: error });
  }
  const load = parseServerLoad(text);
  if (load === null || load.generationTokens === null) {
    throw new UserError('TMAS_ENDPOINT', `--metrics-from: ${metricsUrl} has no vllm:num_requests_running or vllm:generation_tokens_total. Describe the server with --decode-tokens-per-second and --sequence-tokens-per-second instead.`);
  }
  return { load, at: load.generationTokensAtMs ?? Date.now() };
}

/** Watches the server at `baseUrl` (its OpenAI base URL) for `seconds`, reading its metrics once a second. */
export async function measureCapacity(baseUrl: string, seconds: number): Promise<MeasuredCapacity> {
  const transport = createHttpTransport();
  try {
    return await watchLoad(transport, metricsUrlOf(baseUrl), seconds);
  } finally {
    transport.close();
  }
}

/** The metrics at `metricsUrl` read once a second for `seconds`, and what they show. */
async function watchLoad(transport: HttpTransport, metricsUrl: string, seconds: number): Promise<MeasuredCapacity> {
  const first = await readLoad(transport, metricsUrl);
  let last = first;
  let runningSum = first.load.running;
  let samples = 1;
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Math.max(0, until - Date.now()))));
    last = await readLoad(transport, metricsUrl);
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
