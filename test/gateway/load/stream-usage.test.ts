/**
 * A server whose metrics have no token counter (SGLang without
 * --enable-metrics, a proxy, an exporter of gauges only): the gateway asks its
 * streams for their usage in every chunk (`continuous_usage_stats`) and
 * measures the throughput knee from them. A server that refuses the field, or
 * ignores it, is asked no more, and the knee is measured from the text its
 * streams carry, unless that text comes only after a hidden reasoning; no
 * call fails for it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { createGateway, type CompletionRequest, type Gateway } from '../../../src/gateway/gateway.ts';
import { CALLS_TO_JUDGE } from '../../../src/gateway/load/streamed-text.ts';
import { SLOW_START_CAP } from '../../../src/gateway/load/throughput-knee.ts';
import { startSimServer } from '../../../src/sim/server.ts';
import { additionRequest, chatChunkEvent } from '../../fixtures.ts';

const call = (url: string, seed: number): CompletionRequest => additionRequest(url, seed, 1000);

/** Whether a request body asked for usage in every chunk. */
function asksUsage(body: string): boolean {
  return (JSON.parse(body) as { stream_options?: { continuous_usage_stats?: boolean } }).stream_options?.continuous_usage_stats === true;
}

/** A test server without /metrics; `handler` answers each chat request, given its body and how many came before. */
async function serve(handler: (res: ServerResponse, body: string, index: number) => void) {
  const bodies: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.endsWith('/metrics')) return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      handler(res, body, bodies.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    bodies,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

type TestServer = Awaited<ReturnType<typeof serve>>;

/** Runs `body` against a test server answering by `handler` and a gateway that holds calls by the server's load; closes both. */
async function withServer(handler: Parameters<typeof serve>[0], body: (gateway: Gateway, server: TestServer) => Promise<void>, maxRetries = 0): Promise<void> {
  const server = await serve(handler);
  const gateway = createGateway({ concurrency: 800, maxRetries, timeoutMs: 30_000, loadPollMs: 25 });
  try {
    await body(gateway, server);
  } finally {
    gateway.close();
    await server.close();
  }
}

/** A streamed reply in two text chunks without usage, as a server that ignores `continuous_usage_stats` sends it. */
function replyWithoutUsage(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(chatChunkEvent({ role: 'assistant', content: 'The answer ' }));
  res.end(`${chatChunkEvent({ content: 'is 2.' }, 'stop')}data: [DONE]\n\n`);
}

/** The chunk that carries a stream's usage at its end (`include_usage`). */
function usageChunkEvent(completionTokens: number): string {
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [], usage: { prompt_tokens: 10, completion_tokens: completionTokens, total_tokens: 10 + completionTokens } })}\n\n`;
}

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function endpointOf(gateway: Gateway) {
  const [endpoint] = gateway.stats.endpoints;
  if (endpoint === undefined) throw new Error('no endpoint');
  return endpoint;
}

describe('the knee from our streams', () => {
  test('on a simulated GPU without /metrics, the knee is measured from the usage our streams carry', async () => {
    const sim = await startSimServer({
      problems: [{ id: 'p1', question: 'What is 6 times 7?', answer: '42' }],
      capacity: { timeScale: 2_000, outputTokensMedian: 2_000, outputTokensP99: 4_000 },
      metrics: 'none',
    });
    const gateway = createGateway({ concurrency: 800, maxRetries: 0, timeoutMs: 30_000, loadPollMs: 25 });
    try {
      // Bare prompts (no system message): the simulator answers them as such.
      const bare = (seed: number): CompletionRequest => ({ ...call(sim.url, seed), messages: [{ role: 'user', content: `What is ${seed} + 1?` }] });
      const replies = await Promise.all(Array.from({ length: 60 }, (_, seed) => gateway.complete(bare(seed))));
      expect(replies.every((reply) => reply.finishReason === 'stop' && (reply.usage?.completionTokens ?? 0) > 0)).toBe(true);
      expect(endpointOf(gateway).kneeSource).toBe('streams');
      expect(endpointOf(gateway).server?.source).toBe('streams');
    } finally {
      gateway.close();
      await sim.close();
    }
  });

  test('a server whose streams ignore the field and carry their usage only at the end, with a text steady in characters per token (TGI, llama.cpp): the field is asked no more, and the knee is counted from the text once enough calls have ended', async () => {
    await withServer(
      (res, _body, index) => {
        // 100 tokens of 3.8 to 4.2 characters each, the usage in the last chunk only.
        const text = 'x'.repeat(380 + (index % 5) * 10);
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (let at = 0; at < text.length; at += 40) res.write(chatChunkEvent({ content: text.slice(at, at + 40) }));
        res.write(chatChunkEvent({}, 'stop'));
        res.end(`${usageChunkEvent(100)}data: [DONE]\n\n`);
      },
      async (gateway, server) => {
        for (let seed = 0; seed < CALLS_TO_JUDGE - 1; seed++) await gateway.complete(call(server.url, seed));
        expect(server.bodies.map(asksUsage)).toEqual([true, ...Array(CALLS_TO_JUDGE - 2).fill(false)]);
        // Not judged yet: no cap.
        expect(endpointOf(gateway).kneeSource).toBeNull();
        await gateway.complete(call(server.url, CALLS_TO_JUDGE));
        expect(endpointOf(gateway).kneeSource).toBe('text');
      },
    );
  });

  test("a text that is not what the server decodes (the simulator's: its usage is drawn, its text is not) is judged unsteady: no cap, and no call fails", async () => {
    const sim = await startSimServer({
      problems: [{ id: 'p1', question: 'What is 6 times 7?', answer: '42' }],
      capacity: { timeScale: 2_000 },
      metrics: 'gauges',
      continuousUsage: false,
    });
    const gateway = createGateway({ concurrency: 800, maxRetries: 0, timeoutMs: 30_000, loadPollMs: 25 });
    try {
      const bare = (seed: number): CompletionRequest => ({ ...call(sim.url, seed), messages: [{ role: 'user', content: `What is ${seed} + 1?` }] });
      const replies = await Promise.all(Array.from({ length: 40 }, (_, seed) => gateway.complete(bare(seed))));
      expect(replies.every((reply) => reply.finishReason === 'stop' && (reply.usage?.completionTokens ?? 0) > 0)).toBe(true);
      expect(endpointOf(gateway).kneeSource).toBeNull();
      expect(endpointOf(gateway).server?.source).toBe('metrics');
    } finally {
      gateway.close();
      await sim.close();
    }
  });

  test('a server that ignores the field and never says its usage is asked it no more, and gets no cap', async () => {
    await withServer(replyWithoutUsage, async (gateway, server) => {
      await gateway.complete(call(server.url, 0));
      await Promise.all(Array.from({ length: 5 }, (_, seed) => gateway.complete(call(server.url, seed + 1))));
      expect(server.bodies.map(asksUsage)).toEqual([true, false, false, false, false, false]);
      expect(endpointOf(gateway).kneeSource).toBeNull();
    });
  });

  // The slow start holds such a server's calls for 5 s (UNCONFIRMED_HOLD_MS) before it lets them all go;
  // its text, 5 s after the request, then says it cannot be counted: it gets no cap.
  test('a server without metrics whose first text comes late (a hidden reasoning) is held at the slow start for seconds, not until its first text, and gets no cap', async () => {
    const held: ServerResponse[] = [];
    const calls = SLOW_START_CAP * 2;
    // No reply until every call is in: capped at the slow start, they never would be.
    await withServer(
      (res) => {
        held.push(res);
        if (held.length === calls) for (const waiting of held) replyWithoutUsage(waiting);
      },
      async (gateway, server) => {
        const replies = await Promise.all(Array.from({ length: calls }, (_, seed) => gateway.complete(call(server.url, seed))));
        expect(replies).toHaveLength(calls);
        expect(endpointOf(gateway).kneeSource).toBeNull();
      },
    );
  });

  test("a server that answers the field with a 422 naming nothing (FastAPI's validation error) gets the call again without it", async () => {
    await withServer(
      (res, body) => {
        if (!asksUsage(body)) return replyWithoutUsage(res);
        res.writeHead(422, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: [{ type: 'extra_forbidden', loc: ['body', 'stream_options', 'continuous_usage_stats'], msg: 'Extra inputs are not permitted' }] }));
      },
      async (gateway, server) => {
        const first = await gateway.complete(call(server.url, 0));
        expect(first).toMatchObject({ content: 'The answer is 2.', attempts: 1 });
        const later = await gateway.complete(call(server.url, 1));
        expect(later.content).toBe('The answer is 2.');
        // Asked once, answered without; the next call was not asked at all.
        expect(server.bodies.map(asksUsage)).toEqual([true, false, false]);
        expect(endpointOf(gateway).kneeSource).toBeNull();
      },
    );
  });

  test('a 400 that is not about the field still fails the call, after one request without the field', async () => {
    await withServer(
      (res) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'This request cannot be served in this universe.', type: 'invalid_request_error', param: 'messages', code: null } }));
      },
      async (gateway, server) => {
        await expect(gateway.complete(call(server.url, 0))).rejects.toMatchObject({ code: 'TMAS_CALL_REJECTED' });
        expect(server.bodies.map(asksUsage)).toEqual([true, false]);
      },
      3,
    );
  });

  test('a server that refuses the field with a 400 gets the call again without it, and no call fails', async () => {
    await withServer(
      (res, body) => {
        if (!asksUsage(body)) return replyWithoutUsage(res);
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: "Unrecognized request argument supplied: stream_options.continuous_usage_stats", type: 'invalid_request_error', param: 'stream_options', code: null } }));
      },
      async (gateway, server) => {
        const replies = await Promise.all(Array.from({ length: 5 }, (_, seed) => gateway.complete(call(server.url, seed))));
        expect(replies.map((reply) => reply.content)).toEqual(Array(5).fill('The answer is 2.'));
        expect(replies.every((reply) => reply.attempts === 1)).toBe(true);
        expect(endpointOf(gateway).kneeSource).toBeNull();
        expect(gateway.stats.failures).toBe(0);
        await until(() => server.bodies.length >= 5);
        expect(asksUsage(server.bodies.at(-1) as string)).toBe(false);
      },
    );
  });
});
