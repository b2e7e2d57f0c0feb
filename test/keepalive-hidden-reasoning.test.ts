/**
 * A model that reasons in hidden behind a proxy that pings meanwhile
 * (OpenRouter) sends keep-alives alone for as long as it thinks: the default
 * keep-alive limit lets it think its whole completion limit at a slow hosted
 * rate, so such a call is answered once, not cut at twice --timeout and paid
 * again. Real server over a real socket.
 */
import { describe, expect } from 'vitest';
import { createGateway } from '../src/gateway/gateway.ts';
import { additionRequest, chatChunkEvent, serveHttp, test } from './fixtures.ts';

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

describe('the default keep-alive limit and a model that reasons in hidden', () => {
  test('pinged for 1.2 s under --timeout 0.2, a call of 4,096 completion tokens is answered at once, not cut at 0.4 s', async () => {
    const server = await thinkingProxy(1_200);
    const gateway = createGateway({ concurrency: 2, timeoutMs: 200, maxRetries: 2, backoff: { baseMs: 1, capMs: 5 } });
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
});
