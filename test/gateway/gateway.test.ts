/**
 * The gateway's adaptive per-endpoint concurrency (AIMD) and its "endpoint
 * stays down" breaker, against the real simulated model over HTTP.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { createAimdLimit, OVERLOADS_IN_A_ROW } from '../../src/gateway/load/aimd.ts';
import { CallFailedError, createGateway, type CompletionRequest } from '../../src/gateway/gateway.ts';
import { isUserError } from '../../src/kernel/errors.ts';
import { createPool } from '../../src/pool/pool.ts';
import { startSimServer, type FaultRates } from '../../src/sim/server.ts';
import { chatCompletionBody } from '../fixtures.ts';

const PROBLEMS = [{ id: 'p1', question: 'What is 2+3?', answer: '5' }];

function request(url: string, seed: number): CompletionRequest {
  return {
    endpoint: { baseUrl: url, model: 'tmas-sim', apiKey: 'sim' },
    messages: [
      { role: 'system', content: 'You are the Solution agent of a team that solves hard mathematics problems.' },
      { role: 'user', content: `<problem>\n${PROBLEMS[0]?.question}\n</problem>` },
    ],
    maxTokens: 2000,
    seed,
  };
}

async function withSim<T>(faults: FaultRates, body: (url: string, requests: () => number) => Promise<T>): Promise<T> {
  const sim = await startSimServer({ problems: PROBLEMS, faults });
  try {
    return await body(sim.url, () => sim.stats().byRole.solution ?? 0);
  } finally {
    await sim.close();
  }
}

describe('AIMD limit', () => {
  test('halves after overloads in a row, once per window, never below 1; isolated overloads do not count', () => {
    const gate = createAimdLimit(8);
    gate.onOverload();
    gate.onSuccess();
    gate.onOverload();
    gate.onOverload();
    expect(gate.limit).toBe(8);
    for (let i = 0; i < OVERLOADS_IN_A_ROW; i++) gate.onOverload();
    expect(gate.limit).toBe(4);
    // The rest of the window's overloads were sent under the old limit: no second halving yet.
    for (let i = 0; i < OVERLOADS_IN_A_ROW; i++) gate.onOverload();
    expect(gate.limit).toBe(4);
    for (let halving = 0; halving < 5; halving++) {
      // A window's worth of completed calls.
      for (let i = 0; i < 8; i++) gate.onDone();
      for (let i = 0; i < OVERLOADS_IN_A_ROW; i++) gate.onOverload();
    }
    expect(gate.limit).toBe(1);
    expect(gate.decreases).toBe(3);
  });

  test('grows by one per window of successes, up to the maximum', () => {
    const gate = createAimdLimit(4);
    for (let i = 0; i < OVERLOADS_IN_A_ROW; i++) gate.onOverload();
    expect(gate.limit).toBe(2);
    gate.onSuccess();
    expect(gate.limit).toBe(2);
    gate.onSuccess();
    expect(gate.limit).toBe(3);
    for (let i = 0; i < 20; i++) gate.onSuccess();
    expect(gate.limit).toBe(4);
  });
});

describe('gateway', () => {
  test('429s in a row lower the endpoint limit, which stats show, and every call still succeeds', async () => {
    await withSim({ '429': 0.6 }, async (url) => {
      const gateway = createGateway({ concurrency: 16, timeoutMs: 5000, maxRetries: 30, backoff: { baseMs: 1, capMs: 5 } });
      try {
        // Half of the sim's 429s say Retry-After: 1 s; the cap keeps the test short.
        const results = await Promise.all(Array.from({ length: 40 }, (_, i) => gateway.complete(request(url, i))));
        expect(results.every((r) => r.content.length > 0)).toBe(true);
        const [endpoint] = gateway.stats.endpoints;
        expect(endpoint?.baseUrl).toBe(url);
        expect(endpoint?.decreases).toBeGreaterThan(0);
        expect(endpoint?.limit).toBeLessThan(16);
        expect(gateway.stats.retriesByCause['429']).toBe(gateway.stats.retries);
      } finally {
        gateway.close();
      }
    });
  });

  test('an endpoint that keeps failing is declared down: `down` rejects naming it, later calls are not sent', async () => {
    await withSim({ '503': 1 }, async (url, sent) => {
      const gateway = createGateway({ concurrency: 4, timeoutMs: 5000, maxRetries: 2, backoff: { baseMs: 1, capMs: 5 }, downAfter: 3 });
      try {
        const calls = await Promise.allSettled([0, 1, 2].map((i) => gateway.complete(request(url, i))));
        expect(calls.every((c) => c.status === 'rejected' && c.reason instanceof CallFailedError && c.reason.code === 'TMAS_CALL_FAILED')).toBe(true);
        const down = await gateway.down.catch((error: unknown) => error);
        expect(isUserError(down) && down.code).toBe('TMAS_ENDPOINT_DOWN');
        expect(String((down as Error).message)).toContain(url);
        expect(String((down as Error).message)).toContain('HTTP 503');
        const before = sent();
        const later = await gateway.complete(request(url, 9)).catch((error: unknown) => error);
        expect(later instanceof CallFailedError && later.code).toBe('TMAS_ENDPOINT_DOWN');
        expect(sent()).toBe(before);
        expect(gateway.stats.endpoints[0]?.down).toBe(true);
      } finally {
        gateway.close();
      }
    });
  });

  test('many calls waiting out a backoff at once print no warning about listeners (a replica lost with its calls under way)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      await withSim({ reset: 0.6 }, async (url) => {
        // Every call in flight at once, none held: their resets fail them together, and they wait out their backoff together.
        const gateway = createGateway({ concurrency: 40, timeoutMs: 5000, maxRetries: 30, backoff: { baseMs: 50, capMs: 50 }, serverQueue: 'server' });
        try {
          const results = await Promise.all(Array.from({ length: 40 }, (_, i) => gateway.complete(request(url, i))));
          expect(results).toHaveLength(40);
          expect(gateway.stats.retries).toBeGreaterThan(11);
        } finally {
          gateway.close();
        }
      });
      // Node prints a warning on the next tick: let it come.
      await new Promise((resolve) => setImmediate(resolve));
      // Before: "MaxListenersExceededWarning: Possible EventTarget memory leak detected. 11 abort listeners added to [AbortSignal]", on the run's stderr.
      expect(warnings.filter((warning) => warning.includes('MaxListeners'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('a success between failures keeps the endpoint up', async () => {
    await withSim({ '503': 0.5 }, async (url) => {
      const gateway = createGateway({ concurrency: 1, timeoutMs: 5000, maxRetries: 0, backoff: { baseMs: 1, capMs: 5 }, downAfter: 3 });
      try {
        const outcomes = [];
        for (let i = 0; i < 12; i++) outcomes.push(await gateway.complete(request(url, i)).then(() => 'ok', (e: CallFailedError) => e.code));
        let run = 0;
        let longest = 0;
        for (const outcome of outcomes) longest = Math.max(longest, (run = outcome === 'ok' ? 0 : run + 1));
        // This seed's draws must hold both outcomes, or the test proves nothing.
        expect(outcomes).toContain('ok');
        expect(outcomes).toContain('TMAS_CALL_FAILED');
        expect(gateway.stats.endpoints[0]?.down).toBe(longest >= 3);
      } finally {
        gateway.close();
      }
    });
  });
});

describe('the request on the wire', () => {
  test.each(['on the main thread', 'on a pool thread'])('is the chat completion request, any text intact, and a retry resends it unchanged (large bodies serialised %s)', async (where) => {
    const pool = where === 'on a pool thread' ? createPool({ threads: 1 }) : null;
    const bodies: Array<{ contentType: string | undefined; body: unknown }> = [];
    const server = createServer((req, res) => {
      // A server without metrics, as many are: the gateway asks once at the start.
      if (req.method === 'GET') {
        res.writeHead(404).end();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push({ contentType: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        // The first request fails, so that the same one is sent again.
        if (bodies.length === 1) {
          res.writeHead(503).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(chatCompletionBody('ok', { model: 'm' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const gateway = createGateway({
      concurrency: 2,
      timeoutMs: 5000,
      maxRetries: 1,
      backoff: { baseMs: 1, capMs: 5 },
      // This server answers whole replies; streamed requests are checked in test/gateway/servers.test.ts.
      stream: false,
      ...(pool ? { encodeJson: (value: unknown) => pool.encodeJson(value) } : {}),
    });
    try {
      const messages = [
        { role: 'system' as const, content: 'Σ system "quoted" \\ back\nslash' },
        { role: 'user' as const, content: `prove ∀ε>0 ∃δ — 数学 😀 ${'x'.repeat(100_000)}` },
      ];
      const completion = await gateway.complete({ endpoint: { baseUrl: url, model: 'my-model', apiKey: 'k' }, messages, maxTokens: 123, temperature: 0.7, seed: 42 });
      expect(completion.content).toBe('ok');
      expect(completion.attempts).toBe(2);
      const expected = { model: 'my-model', max_tokens: 123, seed: 42, temperature: 0.7, messages };
      expect(bodies).toEqual([
        { contentType: 'application/json', body: expected },
        { contentType: 'application/json', body: expected },
      ]);
    } finally {
      gateway.close();
      server.close();
      await pool?.close();
    }
  });
});
