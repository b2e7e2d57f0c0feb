/**
 * A model that reasons in hidden behind a proxy that pings meanwhile
 * (OpenRouter) sends keep-alives alone for as long as it thinks: the default
 * keep-alive limit lets it think its whole completion limit at a slow hosted
 * rate, so such a call is answered once, not cut at twice --timeout and paid
 * again. Real server over a real socket.
 */
import { describe, expect } from 'vitest';
import { createGateway } from '../../../src/gateway/gateway.ts';
import { additionRequest, chatChunkEvent, serveHttp, test } from '../../fixtures.ts';

/** A proxy that pings every 25 ms while its model thinks for `thinkMs`, then streams the answer `2`. */
async function thinkingProxy(thinkMs: number) {
  return serveHttp((_req, res) => {
    res.on('error', () => {});
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const started = performance.now();
    const tick = () => {
      if (res.destroyed) return;
      if (performance.now() - started < thinkMs) {
        res.write(': OPENROUTER PROCESSING\n\n');
        setTimeout(tick, 25).unref();
        return;
      }
      res.end(`${chatChunkEvent({ role: 'assistant', content: '2' })}${chatChunkEvent({}, 'stop')}data: [DONE]\n\n`);
    };
    tick();
  });
}

/** A server that reasons in hidden and streams its usage meanwhile on chunks of no choice (`counts(n)`: the count of the n-th), then the answer `2`. */
async function countingServer(thinkMs: number, counts: (n: number) => number) {
  return serveHttp((_req, res) => {
    res.on('error', () => {});
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const started = performance.now();
    let n = 0;
    const tick = () => {
      if (res.destroyed) return;
      if (performance.now() - started < thinkMs) {
        const tokens = counts(++n);
        const usage = { prompt_tokens: 20, completion_tokens: tokens, total_tokens: 20 + tokens };
        res.write(`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [], usage })}\n\n`);
        setTimeout(tick, 25).unref();
        return;
      }
      res.end(`${chatChunkEvent({ role: 'assistant', content: '2' })}${chatChunkEvent({}, 'stop')}data: [DONE]\n\n`);
    };
    tick();
  });
}

/** One call of 4,096 completion tokens under --timeout 1 and --keepalive-timeout 0.4: its outcome, and the server's requests. */
async function callUnder(server: Awaited<ReturnType<typeof serveHttp>>) {
  const gateway = createGateway({ concurrency: 2, timeoutMs: 1_000, keepAliveTimeoutMs: 400, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 } });
  try {
    const outcome = await gateway.complete(additionRequest(server.url, 1, 4_096)).catch((error: unknown) => error);
    return { outcome, requests: server.requests(), retries: gateway.stats.retriesByCause };
  } finally {
    gateway.close();
    await server.close();
  }
}

describe('the default keep-alive limit and a model that reasons in hidden', () => {
  test('pinged for 2 s under --timeout 0.4, a call of 4,096 completion tokens is answered at once, not cut at 0.8 s', async () => {
    const server = await thinkingProxy(2_000);
    const gateway = createGateway({ concurrency: 2, timeoutMs: 400, maxRetries: 2, backoff: { baseMs: 1, capMs: 5 } });
    try {
      const reply = await gateway.complete(additionRequest(server.url, 1, 4_096));
      expect(reply.content).toBe('2');
      expect(server.requests()).toBe(1);
      expect(gateway.stats.retriesByCause).toEqual({});
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test('a usage that grows on chunks of no choice (choices: []) is the server at work: kept for 1.5 s past a keep-alive limit of 0.4 s', async () => {
    const { outcome, requests, retries } = await callUnder(await countingServer(1_500, (n) => 8 * n));
    expect((outcome as { content?: string }).content).toBe('2');
    expect(requests).toBe(1);
    expect(retries).toEqual({});
  });

  test('the same usage said again and again is no sign of work: cut at the keep-alive limit', async () => {
    const { outcome, retries } = await callUnder(await countingServer(5_000, () => 8));
    expect(String(outcome)).toMatch(/--keepalive-timeout 0\.4\)/);
    expect(retries).toEqual({ keepalive: 1 });
  });
});
