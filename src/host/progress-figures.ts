/** The figures the progress display reads from the gateway beyond its counters: the rate of generation in open streams and each replica of a pool. */
import type { Gateway } from '../gateway/gateway.ts';
import type { RunConfig } from '../settings/config.ts';

/** The rate of generation in the open streams, from the gateway's streamed characters (about 4 per token) since the last look. */
export function streamRateOf(gateway: Gateway): () => number | null {
  let last = { chars: 0, at: performance.now() };
  return () => {
    if (gateway.stats.streamedChars === 0) return null;
    const now = { chars: gateway.stats.streamedChars, at: performance.now() };
    const rate = (now.chars - last.chars) / 4 / Math.max((now.at - last.at) / 1000, 0.001);
    last = now;
    return rate;
  };
}

/** Each replica of a pool as the progress line shows it: `host:port in-flight/limit calls n errors n`. */
export function replicaFigures(gateway: Gateway, config: RunConfig): string[] {
  const pooled = new Set(Object.values(config.roles.endpoints).flatMap((endpoint) => (endpoint.baseUrl !== null && endpoint.baseUrl.length > 1 ? endpoint.baseUrl : [])));
  if (pooled.size === 0) return [];
  const endpoints = gateway.stats.endpoints;
  const label = endpointLabels(endpoints.map((endpoint) => endpoint.baseUrl));
  return endpoints
    .filter((endpoint) => pooled.has(endpoint.baseUrl))
    .map((e) => `${label(e.baseUrl)} ${e.inFlight}/${e.limit} calls ${e.calls} errors ${e.errors}${e.drained ? ' drained' : ''}`);
}

/**
 * The adaptive limits below --concurrency, `host:port limit`, with the
 * server's own queue when its load is known and its throughput knee once
 * found. Not a drained replica's: its last reading is of a server gone, and
 * the replicas' figures say it is drained.
 */
export function limitFigures(gateway: Gateway, config: RunConfig): string[] {
  const endpoints = gateway.stats.endpoints;
  const label = endpointLabels(endpoints.map((endpoint) => endpoint.baseUrl));
  return endpoints
    .filter((e) => e.limit < config.gateway.concurrency && !e.drained)
    .map((e) => `${label(e.baseUrl)} ${e.limit}${e.server === null ? '' : ` (server: ${e.server.running} running, ${e.server.waiting} queued${e.knee === null ? '' : `, knee ${Math.round(e.knee)}`})`}`);
}

/**
 * How the progress line names each of `urls`: its host and port, and its
 * path too where another shares them (replicas behind one gateway at
 * /a/v1 and /b/v1 were shown as the same host twice, their figures not
 * told apart).
 */
function endpointLabels(urls: readonly string[]): (url: string) => string {
  const perHost = new Map<string, number>();
  for (const { host } of urls.map((url) => new URL(url))) perHost.set(host, (perHost.get(host) ?? 0) + 1);
  return (url) => {
    const { host, pathname } = new URL(url);
    return (perHost.get(host) ?? 0) > 1 ? `${host}${pathname}` : host;
  };
}
