/**
 * Keep-alives alone keep a call alive only up to `--keepalive-timeout`: a
 * proxy in front of a hung server that pings (`: ping`) forever is given up
 * within that bound and retried (each ping had restarted the idle limit, so
 * only the total limit, hours, ended it); a proxy that pings for a while and
 * then streams the answer is kept. Real servers over real sockets.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect } from 'vitest';
import { CallFailedError, createGateway, type GatewayOptions } from '../../../src/gateway/gateway.ts';
import { additionRequest, chatChunkEvent, serveHttp, test } from '../../fixtures.ts';

const FAST: Omit<GatewayOptions, 'timeoutMs'> = { concurrency: 4, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 }, totalFloor: { baseMs: 3_600_000, tokensPerSecond: 1 } };

/** Writes `event` every `ms` until the client hangs up or `until` passes (then calls `then`, if given). */
function ping(res: ServerResponse, event: string, ms: number, until = Number.POSITIVE_INFINITY, then?: () => void): void {
  res.on('error', () => {});
  const started = performance.now();
  const tick = () => {
    if (res.destroyed) return;
    if (performance.now() - started >= until) return then?.();
    res.write(event);
    setTimeout(tick, ms).unref();
  };
  tick();
}

/** The answer `4`, streamed, finished and closed by `[DONE]`. */
function answer(res: ServerResponse): void {
  if (res.destroyed) return;
  res.end(`${chatChunkEvent({ role: 'assistant', content: '4' })}${chatChunkEvent({}, 'stop')}data: [DONE]\n\n`);
}

/** One call against a server that answers each request with `send(res, n)` (n from 1); its outcome, the time it took, the requests, the gateway's stats and what it was told. */
async function callAgainst(send: (res: ServerResponse, n: number) => void, options: Partial<GatewayOptions>) {
  let n = 0;
  const server = await serveHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    send(res, ++n);
  });
  const told: Array<[string, number]> = [];
  const gateway = createGateway({ ...FAST, timeoutMs: 30_000, onKeepAlivesOnly: (endpoint, limitMs) => told.push([endpoint, limitMs]), ...options });
  const started = performance.now();
  try {
    // A completion limit of 2 tokens: at the 10 tokens/s of a hidden reasoning, 0.2 s, under twice --timeout, so the default is that.
    const outcome = await gateway.complete(additionRequest(server.url, 1, 2)).catch((error: unknown) => error);
    return { outcome, ms: performance.now() - started, requests: server.requests(), stats: gateway.stats, told };
  } finally {
    gateway.close();
    await server.close();
  }
}

describe('keep-alives alone keep a call alive up to --keepalive-timeout', () => {
  test('a proxy in front of a hung server, pinging every 20 ms, is given up at the bound, retried, and the call fails naming the flag', async () => {
    const { outcome, ms, requests, stats, told } = await callAgainst((res) => ping(res, ': ping\n\n', 20), { keepAliveTimeoutMs: 300 });
    expect(outcome).toBeInstanceOf(CallFailedError);
    expect((outcome as CallFailedError).message).toMatch(/sent only keep-alives \(comments such as ": ping", events without text\) or bytes too slow to end one, for 0\.\d s \(--keepalive-timeout 0\.3\)/);
    expect(requests).toBe(2);
    expect(stats.retriesByCause).toEqual({ keepalive: 1 });
    // Two attempts of 300 ms each, not the idle limit (30 s) nor the total limit (an hour).
    expect(ms).toBeLessThan(3_000);
    expect(told).toHaveLength(1);
    expect(told[0]?.[1]).toBe(300);
  });

  test('the bound defaults to twice --timeout; blank lines, empty and non-JSON events, chunks without text are keep-alives too', async () => {
    const emptyChoices = `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [] })}\n\n`;
    const events = ['\n', 'data:\n\n', 'data: ping\n\n', ': OPENROUTER PROCESSING\n\n', emptyChoices, chatChunkEvent({ role: 'assistant', content: '' })];
    for (const [index, event] of events.entries()) {
      // An idle limit of 0.4 s, not less: on a loaded machine a pause of the event loop read as the server's silence ('timeout').
      // The default (0.8 s) once; the other keep-alives at a bound given, 0.3 s, which keeps the test short.
      const bound = index === 0 ? {} : { keepAliveTimeoutMs: 300 };
      const { outcome, ms, stats } = await callAgainst((res) => ping(res, event, 20), { timeoutMs: 400, ...bound });
      expect(outcome, JSON.stringify(event)).toBeInstanceOf(CallFailedError);
      expect((outcome as CallFailedError).message).toMatch(index === 0 ? /--keepalive-timeout 0\.8\)/ : /--keepalive-timeout 0\.3\)/);
      expect(stats.retriesByCause).toEqual({ keepalive: 1 });
      expect(ms).toBeLessThan(3_000);
    }
  });

  test('a stream that hangs after its first text, pinged meanwhile, is given up at the bound too; its retry that answers is the reply', async () => {
    const { outcome, requests, stats, told } = await callAgainst((res, n) => {
      if (n > 1) return answer(res);
      res.write(chatChunkEvent({ role: 'assistant', content: 'Let me' }));
      ping(res, ': ping\n\n', 20);
    }, { keepAliveTimeoutMs: 300 });
    expect(outcome).toMatchObject({ content: '4', attempts: 2 });
    expect(requests).toBe(2);
    expect(stats.retriesByCause).toEqual({ keepalive: 1 });
    expect(told).toHaveLength(1);
  });

  test('a proxy that pings for 600 ms while the model reasons in hidden, then streams the answer, is kept: one request, nothing retried', async () => {
    const { outcome, requests, stats, told } = await callAgainst((res) => ping(res, ': ping\n\n', 20, 600, () => answer(res)), { timeoutMs: 200, keepAliveTimeoutMs: 1_000 });
    expect(outcome).toMatchObject({ content: '4', attempts: 1 });
    expect(requests).toBe(1);
    expect(stats.retries).toBe(0);
    expect(told).toEqual([]);
  });

  test('events that bring data restart the bound: a stream of one token every 100 ms for 1 s, pinged between, is kept', async () => {
    const { outcome, requests } = await callAgainst((res) => {
      let sent = 0;
      res.write(chatChunkEvent({ role: 'assistant', content: '' }));
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(': ping\n\n');
        if (++sent % 5 !== 0) return;
        if (sent < 50) res.write(chatChunkEvent({ content: 'x' }));
        else {
          clearInterval(timer);
          answer(res);
        }
      }, 20);
    }, { timeoutMs: 200, keepAliveTimeoutMs: 250 });
    expect(outcome).toMatchObject({ content: 'xxxxxxxxx4', attempts: 1 });
    expect(requests).toBe(1);
  });
});

describe('a server that accepts connections and never answers', () => {
  test('every call fails at the idle limit with the message that names --timeout, never the client\'s bare "Request timed out."', async () => {
    const { createServer } = await import('node:net');
    const sockets = new Set<import('node:net').Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/v1`;
    const gateway = createGateway({ concurrency: 8, timeoutMs: 300, maxRetries: 2, backoff: { baseMs: 1, capMs: 5 }, downAfter: 100 });
    try {
      const outcomes = await Promise.all(Array.from({ length: 8 }, (_, seed) => gateway.complete(additionRequest(url, seed, 16)).catch((error: unknown) => (error as Error).message)));
      // Before, calls whose retries met the client's own timeout (set at the same 300 ms) failed as 'Error: Request timed out.'.
      for (const message of outcomes) expect(message).toMatch(/no byte from the server for 0\.\d s \(--timeout 0\.3\)/);
    } finally {
      gateway.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
