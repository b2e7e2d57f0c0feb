/**
 * A server whose /metrics page is taken when asked for and comes a while
 * later (vLLM's API server, busy with our streams, sends it late), while the
 * knee's slow start steps our calls up meanwhile: the page says fewer than
 * stream when it arrives, and is no less the server's own. A real node:http
 * server that decodes at a knee of 500, the real gateway over real sockets.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { createGateway } from '../../../src/gateway/gateway.ts';
import { chatChunkEvent } from '../../fixtures.ts';

/** Tokens per ms each sequence decodes, below the knee; the sequences the server batches at full speed; the tokens of each call. */
const PER_SEQUENCE = 2;
const KNEE = 500;
const CALL_TOKENS = 4_000;

/** A server whose /metrics page, taken when asked for, comes `lateMs` later; returns its URL, its batch, and close. */
async function lateMetricsServer(lateMs: number) {
  const calls: Array<{ res: ServerResponse; left: number }> = [];
  let tokens = 0;
  let lastAt = performance.now();
  const decode = setInterval(() => {
    const now = performance.now();
    const each = calls.length === 0 ? 0 : (PER_SEQUENCE * Math.min(calls.length, KNEE) * (now - lastAt)) / calls.length;
    lastAt = now;
    for (const call of [...calls]) {
      const step = Math.min(each, call.left);
      call.left -= step;
      tokens += step;
      if (call.left > 0) continue;
      calls.splice(calls.indexOf(call), 1);
      call.res.end(chatChunkEvent({}, 'stop', 'm') + 'data: [DONE]\n\n');
    }
  }, 10);
  const server = createServer((req, res) => {
    if (req.url === '/metrics') {
      const page = `vllm:num_requests_running{model_name="m"} ${calls.length}\nvllm:num_requests_waiting{model_name="m"} 0\nvllm:generation_tokens_total{model_name="m"} ${Math.floor(tokens)}\n`;
      setTimeout(() => res.end(page), lateMs);
      return;
    }
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chatChunkEvent({ role: 'assistant', content: 'ok' }, null, 'm'));
      calls.push({ res, left: CALL_TOKENS });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    batch: () => calls.length,
    close: async () => {
      clearInterval(decode);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test('pages that come 1.8 s after they were taken, while the slow start steps up, still steer the cap: it steps on', async () => {
  const server = await lateMetricsServer(1_800);
  const told: string[] = [];
  const gateway = createGateway({ concurrency: 1_000, timeoutMs: 60_000, maxRetries: 0, onMetricsUnused: (_, reason) => told.push(reason) });
  const request = { endpoint: { baseUrl: server.url, model: 'm', apiKey: 'k' }, messages: [{ role: 'user' as const, content: 'hi' }], maxTokens: 10 };
  const calls = Array.from({ length: 600 }, (_, seed) => gateway.complete({ ...request, seed }));
  try {
    // The median batch of 6 s (waves of calls end together), sampled every 100 ms: of the last 6 s by 14 s at the latest,
    // or of the first 6 s whose median passes the slow start's 16. Before, each page said the 16 running when asked while 64
    // streamed when it came: set aside as belied, the knee fed no reading, and the server ran 0 of 600 ready calls.
    const samples: number[] = [];
    const medianOfLast = (count: number) => samples.slice(-count).sort((a, b) => a - b)[Math.floor(Math.min(count, samples.length) / 2)] ?? 0;
    for (let at = 0; at < 140 && !(samples.length >= 60 && medianOfLast(60) > 16); at++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      samples.push(server.batch());
    }
    expect(medianOfLast(60)).toBeGreaterThan(16);
    expect(told).toEqual([]);
  } finally {
    gateway.close();
    await Promise.allSettled(calls);
    await server.close();
  }
}, 60_000);
