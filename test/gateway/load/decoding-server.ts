/**
 * A server that decodes at a known throughput knee, for the gateway's load
 * readings to find: a real node:http server of two data-parallel engines
 * whose /metrics go wrong as `ScrapeFaults` say, and a gateway that always
 * has 150 calls ready for it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway, type CompletionRequest, type GatewayOptions } from '../../../src/gateway/gateway.ts';
import { chatChunkEvent } from '../../fixtures.ts';

/** How a scrape goes wrong: which scrapes lose engine 1's series, or the token counter. */
export interface ScrapeFaults {
  /** Every this many scrapes, engine "1" is absent from the page (0: never). */
  engineMissingEvery: number;
  /** Every this many scrapes, the token counter is absent from the page (0: never). */
  counterMissingEvery: number;
  /** The gauges say 0 running and 0 waiting whatever runs (a stuck exporter, a gateway's own page); the counter still counts. */
  gaugesAtZero?: boolean;
  /** Past its first scrapes (idle), each page answers this late: a server busy with our calls. */
  slowMetricsMs?: number;
  /** Past this many scrapes, /metrics answers 404 (a gateway put in front midway, a server restarted without them). */
  metricsGoneAfter?: number;
  /** Until this many ms after the server started, /metrics answers 404 with an HTML page (SGLang before its exporter, a proxy's route not yet added). */
  metricsFromMs?: number;
}

/** Tokens per ms of one sequence below the knee. */
export const PER_SEQUENCE = 10;
/** The server's decode shares its throughput past this many sequences. */
export const KNEE = 40;
/** How long each call decodes. */
const CALL_MS = 300;

/**
 * A server of two data-parallel engines that holds each chat open after its
 * first chunk and decodes PER_SEQUENCE × min(batch, KNEE) tokens per ms in all,
 * half on each engine; its /metrics say so, with `faults`.
 */
async function dataParallelServer(faults: ScrapeFaults) {
  const held: ServerResponse[] = [];
  const tokens = [0, 0];
  let lastAt = performance.now();
  let scrapes = 0;
  let arrivals = 0;
  let asked = 0;
  const startedAt = performance.now();
  const advance = () => {
    const now = performance.now();
    const decoded = PER_SEQUENCE * Math.min(held.length, KNEE) * (now - lastAt);
    tokens[0] = (tokens[0] ?? 0) + decoded / 2;
    tokens[1] = (tokens[1] ?? 0) + decoded / 2;
    lastAt = now;
  };
  const metricsPage = (): string => {
    advance();
    scrapes++;
    const engines = faults.engineMissingEvery > 0 && scrapes % faults.engineMissingEvery === 0 ? [0] : [0, 1];
    const withCounter = !(faults.counterMissingEvery > 0 && scrapes % faults.counterMissingEvery === 0);
    const lines = ['# HELP vllm:num_requests_running Number of requests in model execution batches.', '# TYPE vllm:num_requests_running gauge'];
    for (const engine of engines) {
      const running = faults.gaugesAtZero === true ? 0 : Math.floor(held.length / 2) + (engine === 0 ? held.length % 2 : 0);
      lines.push(`vllm:num_requests_running{engine="${engine}",model_name="m"} ${running}.0`);
      lines.push(`vllm:num_requests_waiting{engine="${engine}",model_name="m"} 0.0`);
      lines.push(`vllm:kv_cache_usage_perc{engine="${engine}",model_name="m"} 0.1`);
      // Stamped with the moment counted (as the simulator does), so that a loaded test machine's delays do not move the rates.
      if (withCounter) lines.push(`vllm:generation_tokens_total{engine="${engine}",model_name="m"} ${Math.floor(tokens[engine] ?? 0)}.0 ${Math.round(performance.timeOrigin + lastAt)}`);
    }
    return lines.join('\n') + '\n';
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/metrics') {
      asked++;
      if (faults.metricsFromMs !== undefined && performance.now() - startedAt < faults.metricsFromMs) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>');
        return;
      }
      if (faults.metricsGoneAfter !== undefined && scrapes >= faults.metricsGoneAfter) {
        res.writeHead(404).end('<html><body>Not Found</body></html>');
        return;
      }
      if (faults.slowMetricsMs !== undefined && scrapes >= 2) {
        // The page is read when asked, and arrives late.
        const page = metricsPage();
        setTimeout(() => res.end(page), faults.slowMetricsMs);
      } else res.end(metricsPage());
      return;
    }
    req.resume();
    req.on('end', () => {
      advance();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chatChunkEvent({ role: 'assistant', content: 'ok' }, null, 'm'));
      held.push(res);
      // Each call decodes for CALL_MS on average (spread evenly from half to one and a half times it), then ends.
      arrivals++;
      setTimeout(() => {
        advance();
        held.splice(held.indexOf(res), 1);
        res.end(chatChunkEvent({}, 'stop', 'm') + 'data: [DONE]\n\n');
      }, CALL_MS * (0.5 + ((arrivals * 0.618) % 1)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    running: () => held.length,
    metricsAsked: () => asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => server.closeAllConnections()),
  };
}

/** What the gateway tells a user about metrics it no longer uses, and the moment it first does (settle's `after`). */
export function metricsUnusedWatch() {
  const told: Array<{ endpoint: string; reason: string }> = [];
  let first = () => {};
  const once = new Promise<void>((resolve) => (first = resolve));
  const onMetricsUnused = (endpoint: string, reason: string) => {
    told.push({ endpoint, reason });
    first();
  };
  return { told, once, onMetricsUnused };
}

/** What `settle` reads: the gateway's knee and its source, the median of the server's batch over the last second, and the /metrics asked. */
export interface Settled {
  knee: number | null;
  kneeSource: string | null;
  running: number;
  metricsAsked: number;
}

/**
 * What a gateway that always has 150 calls ready settles at on a server with
 * `faults`: its knee, and the median of the server's batch over the last
 * second of `ms`, sampled every 50 ms. With `enough`, the settling ends as
 * soon as what it reads (a second sampled at least) passes it: a test whose
 * defect never reaches that state still waits `ms` and fails on it, a fixed
 * one stops waiting once the state is there.
 */
export async function settle(faults: ScrapeFaults, ms: number, options: Pick<GatewayOptions, 'onMetricsUnused' | 'onMetricsFound'> = {}, after?: Promise<unknown>, enough?: (settled: Settled) => boolean): Promise<Settled> {
  const server = await dataParallelServer(faults);
  const gateway = createGateway({ concurrency: 200, timeoutMs: 30_000, maxRetries: 0, loadPollMs: 20, ...options });
  let endAt = performance.now() + ms;
  // Measured `ms` after `after` (a gateway's decision that takes seconds of readings, longer on a loaded machine), 30 s at most.
  void after?.then(() => (endAt = performance.now() + ms));
  if (after !== undefined) endAt += 30_000;
  const calls: Array<Promise<unknown>> = [];
  const request = (seed: number): CompletionRequest => ({ endpoint: { baseUrl: server.url, model: 'm', apiKey: 'k' }, messages: [{ role: 'user', content: 'hi' }], maxTokens: 10, seed });
  // One call ready in place of each that ends, until the end.
  const keepReady = (seed: number): void => {
    if (performance.now() < endAt) calls.push(gateway.complete(request(seed)).then(() => keepReady(seed + 150)));
  };
  const samples: Array<{ at: number; running: number }> = [];
  const read = (): Settled => {
    const lastSecond = samples.filter(({ at }) => at > performance.now() - 1_000).map(({ running }) => running).sort((a, b) => a - b);
    const endpoint = gateway.stats.endpoints[0];
    return { knee: endpoint?.knee ?? null, kneeSource: endpoint?.kneeSource ?? null, running: lastSecond[Math.floor(lastSecond.length / 2)] ?? 0, metricsAsked: server.metricsAsked() };
  };
  const startedAt = performance.now();
  try {
    for (let seed = 0; seed < 150; seed++) keepReady(seed);
    while (performance.now() < endAt) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      samples.push({ at: performance.now(), running: server.running() });
      if (enough !== undefined && performance.now() - startedAt > 1_000 && enough(read())) endAt = performance.now();
    }
    const settled = read();
    // The calls still in flight end within CALL_MS.
    while (calls.length > 0) await Promise.allSettled(calls.splice(0));
    return settled;
  } finally {
    gateway.close();
    await server.close();
  }
}
