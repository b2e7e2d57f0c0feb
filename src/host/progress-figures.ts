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
  return gateway.stats.endpoints
    .filter((endpoint) => pooled.has(endpoint.baseUrl))
    .map((e) => `${new URL(e.baseUrl).host} ${e.inFlight}/${e.limit} calls ${e.calls} errors ${e.errors}${e.drained ? ' drained' : ''}`);
}
