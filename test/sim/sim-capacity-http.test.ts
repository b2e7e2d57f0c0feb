/**
 * The capacity model end to end: a real sim server at a large time scale,
 * the real `openai` client, GET /metrics and GET /sim/stats over HTTP.
 * Assertions are on results and counts, never on wall time.
 */
import OpenAI from 'openai';
import { describe, expect, test as base } from 'vitest';
import { runSimServerCommand } from '../../src/cli/tools/sim-server.command.ts';
import { parseServerLoad } from '../../src/gateway/load/server-load.ts';
import { outputLengthOf } from '../../src/sim/capacity/output-length.ts';
import { promptTokensOf } from '../../src/sim/http/completion.ts';
import { isRequestProblem, toChatRequest } from '../../src/sim/http/request.ts';
import { replyKeyOf } from '../../src/sim/chat/respond.ts';
import { startSimServer, type SimOptions, type SimServer } from '../../src/sim/server.ts';

const PROBLEM = { id: 'p1', question: 'What is 6 times 7?', answer: '42' };
const SHAPE = { median: 2000, p99: 8000 };

const test = base.extend<{ startSim: (options: Omit<SimOptions, 'problems'>) => Promise<SimServer> }>({
  startSim: async ({}, use) => {
    const servers: SimServer[] = [];
    await use(async (options) => {
      const server = await startSimServer({ problems: [PROBLEM], ...options });
      servers.push(server);
      return server;
    });
    await Promise.all(servers.map((server) => server.close()));
  },
});

/** The root of a server (its base URL minus /v1), where vLLM serves /metrics. */
const rootOf = (server: SimServer): string => server.url.replace(/\/v1$/, '');

/** Prometheus text as a map from `name{labels}` to value; throws on a line that is not a sample or a comment. */
async function readMetrics(server: SimServer): Promise<Map<string, number>> {
  const response = await fetch(`${rootOf(server)}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    // A sample may end with the moment it was read (the counters do).
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)(?: (\d+))?$/.exec(line);
    if (!match?.[1] || !match[2]) throw new Error(`not a Prometheus sample: ${line}`);
    samples.set(match[1], Number(match[2]));
  }
  return samples;
}

const LABEL = '{model_name="tmas-sim"}';

/** /metrics once `count` requests have reached the server (running or waiting), or after 4 s of asking. */
async function readMetricsOnceArrived(server: SimServer, count: number): Promise<Map<string, number>> {
  let metrics = await readMetrics(server);
  for (let tries = 0; tries < 200 && (metrics.get(`vllm:num_requests_running${LABEL}`) ?? 0) + (metrics.get(`vllm:num_requests_waiting${LABEL}`) ?? 0) < count; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    metrics = await readMetrics(server);
  }
  return metrics;
}

/** The output length the server draws for this body. */
function drawnLength(body: Record<string, unknown>, maxTokens: number | null): number {
  const request = toChatRequest(body, 'tmas-sim');
  if (isRequestProblem(request)) throw new Error(request.message);
  return outputLengthOf(replyKeyOf(0, request), SHAPE, maxTokens);
}

describe('the capacity model over HTTP', () => {
  test('a streamed reply arrives whole, and usage reports the drawn length capped by max_tokens', async ({ startSim }) => {
    const sim = await startSim({ capacity: { timeScale: 100_000, outputTokensMedian: SHAPE.median, outputTokensP99: SHAPE.p99 } });
    const client = new OpenAI({ baseURL: sim.url, apiKey: 'sim', maxRetries: 0 });
    const messages = [{ role: 'user' as const, content: PROBLEM.question }];
    const whole = await client.chat.completions.create({ model: 'tmas-sim', messages, max_tokens: 50_000 });
    const stream = await client.chat.completions.create({ model: 'tmas-sim', messages, max_tokens: 50_000, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(whole.choices[0]?.message.content);
    expect(text).toContain('\\boxed');
    const drawn = drawnLength({ model: 'tmas-sim', messages, max_tokens: 50_000 }, 50_000);
    expect(usage?.completion_tokens).toBe(drawn);
    expect(whole.usage?.completion_tokens).toBe(drawn);
    expect(chunks).toBeGreaterThan(2);

    const capped = await client.chat.completions.create({ model: 'tmas-sim', messages, max_tokens: 7 });
    expect(capped.usage?.completion_tokens).toBe(7);

    const stats = sim.capacityStats();
    expect(stats).toMatchObject({ simulated: true, requests: { finished: 3, aborted: 0, running: 0, waiting: 0 } });
    expect(stats?.tokens.decoded).toBeCloseTo(2 * drawn + 7, 3);
    expect(stats?.tokens.wasted).toBe(0);
  });

  test('/metrics shows running and waiting requests while the cache is full; /sim/stats counts the aborted ones as wasted', async ({ startSim }) => {
    // A cache of 100 tokens (less vLLM's 1% watermark) cannot hold ten of these ~12-token prompts, so one at least
    // always waits; how many depends on how far the running ones have grown (their tokens count too) when read.
    const sim = await startSim({ capacity: { kvTokens: 100, outputTokensMedian: 1_000_000, outputTokensP99: 1_000_000 } });
    const client = new OpenAI({ baseURL: sim.url, apiKey: 'sim', maxRetries: 0 });
    const controller = new AbortController();
    const calls = Array.from({ length: 10 }, (_, i) =>
      client.chat.completions.create({ model: 'tmas-sim', messages: [{ role: 'user', content: `${PROBLEM.question} (${i})` }] }, { signal: controller.signal }).catch(() => null),
    );
    const metrics = await readMetricsOnceArrived(sim, 10);
    expect(metrics.get(`vllm:num_requests_running${LABEL}`)).toBeGreaterThanOrEqual(1);
    expect(metrics.get(`vllm:num_requests_waiting${LABEL}`)).toBeGreaterThanOrEqual(1);
    expect(metrics.get(`vllm:kv_cache_usage_perc${LABEL}`)).toBeGreaterThan(0);
    expect(metrics.get(`vllm:gpu_cache_usage_perc${LABEL}`)).toBe(metrics.get(`vllm:kv_cache_usage_perc${LABEL}`));
    for (const name of ['vllm:prompt_tokens_total', 'vllm:generation_tokens_total', 'vllm:num_preemptions_total', 'vllm:prefix_cache_queries_total', 'vllm:prefix_cache_hits_total']) {
      expect(metrics.has(`${name}${LABEL}`), name).toBe(true);
    }
    // The token counter says when it was read, so that a client's rates do not depend on when the answer reached it.
    const asked = Date.now();
    const load = parseServerLoad(await (await fetch(`${rootOf(sim)}/metrics`)).text());
    expect(load?.generationTokensAtMs).toBeGreaterThanOrEqual(asked);
    expect(load?.generationTokensAtMs).toBeLessThanOrEqual(Date.now());
    expect(metrics.get('vllm:time_to_first_token_seconds_bucket{model_name="tmas-sim",le="+Inf"}')).toBe(metrics.get(`vllm:time_to_first_token_seconds_count${LABEL}`));
    expect(metrics.has(`vllm:e2e_request_latency_seconds_sum${LABEL}`)).toBe(true);

    controller.abort();
    await Promise.all(calls);
    let stats = sim.capacityStats();
    for (let tries = 0; tries < 200 && (stats?.requests.aborted ?? 0) < 10; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      stats = sim.capacityStats();
    }
    const response = await fetch(`${rootOf(sim)}/sim/stats`);
    const json = (await response.json()) as Record<string, unknown>;
    for (const field of ['simulated', 'elapsedSeconds', 'busyFraction', 'timeline', 'tokens', 'prefixCacheHitRate', 'requests', 'waiting', 'queueWaitSeconds', 'kvUsage']) {
      expect(json, field).toHaveProperty(field);
    }
    expect(json).toMatchObject({ simulated: true, requests: { aborted: 10, finished: 0, running: 0, waiting: 0 } });
    expect((json['tokens'] as { wasted: number }).wasted).toBeGreaterThan(0);
  });

  test('requests sharing a long prompt prefix hold it once in the KV cache: all run, and /metrics shows the prefix plus their tails', async ({ startSim }) => {
    // Eight prompts of about 4,015 tokens, sharing a 4,000-token system message, in a 12,000-token cache:
    // counted whole, two fit and six wait; sharing their prefix, all eight fit.
    const K = 12_000;
    const sim = await startSim({ capacity: { kvTokens: K, outputTokensMedian: 1_000_000, outputTokensP99: 1_000_000 } });
    const client = new OpenAI({ baseURL: sim.url, apiKey: 'sim', maxRetries: 0 });
    const controller = new AbortController();
    const system = `You are the Verification agent. ${'Check the solution step by step. '.repeat(500)}`.slice(0, 16_000);
    const messagesOf = (i: number) => [
      { role: 'system' as const, content: system },
      { role: 'user' as const, content: `${PROBLEM.question} (${i})` },
    ];
    const promptTokens = promptTokensOf(messagesOf(0));
    const calls = Array.from({ length: 8 }, (_, i) => client.chat.completions.create({ model: 'tmas-sim', messages: messagesOf(i) }, { signal: controller.signal }).catch(() => null));
    const metrics = await readMetricsOnceArrived(sim, 8);
    expect(metrics.get(`vllm:num_requests_running${LABEL}`)).toBe(8);
    expect(metrics.get(`vllm:num_requests_waiting${LABEL}`)).toBe(0);
    expect(metrics.get(`vllm:num_preemptions_total${LABEL}`)).toBe(0);
    const used = (metrics.get(`vllm:kv_cache_usage_perc${LABEL}`) ?? Number.NaN) * K;
    // The shared 4,000 tokens once and eight tails (plus what they generated since, at 100 tokens/s each): less than two whole prompts.
    expect(used).toBeGreaterThanOrEqual(4000);
    expect(used).toBeLessThan(2 * promptTokens);
    expect(metrics.get(`vllm:gpu_cache_usage_perc${LABEL}`)).toBe(metrics.get(`vllm:kv_cache_usage_perc${LABEL}`));
    controller.abort();
    await Promise.all(calls);
  });

  test('with the model off, /metrics still answers (requests in progress, nothing waiting) and /sim/stats is a 404', async ({ startSim }) => {
    const sim = await startSim({});
    const metrics = await readMetrics(sim);
    expect(metrics.get(`vllm:num_requests_running${LABEL}`)).toBe(0);
    expect(metrics.get(`vllm:num_requests_waiting${LABEL}`)).toBe(0);
    expect(metrics.get(`vllm:kv_cache_usage_perc${LABEL}`)).toBe(0);
    expect((await fetch(`${rootOf(sim)}/sim/stats`)).status).toBe(404);
    expect(sim.capacityStats()).toBeNull();
  });

  test('with continuous_usage_stats every chunk carries the usage so far, growing to the drawn length; without it none does', async ({ startSim }) => {
    const sim = await startSim({ capacity: { timeScale: 100_000, outputTokensMedian: SHAPE.median, outputTokensP99: SHAPE.p99 } });
    const client = new OpenAI({ baseURL: sim.url, apiKey: 'sim', maxRetries: 0 });
    const messages = [{ role: 'user' as const, content: PROBLEM.question }];
    const streamed = async (streamOptions: Record<string, boolean>) => {
      const stream = await client.chat.completions.create({ model: 'tmas-sim', messages, max_tokens: 50_000, stream: true, stream_options: streamOptions as { include_usage: boolean } });
      const sofar: Array<number | null> = [];
      for await (const chunk of stream) if (chunk.choices.length > 0) sofar.push(chunk.usage?.completion_tokens ?? null);
      return sofar;
    };
    const drawn = drawnLength({ model: 'tmas-sim', messages, max_tokens: 50_000 }, 50_000);
    const continuous = await streamed({ include_usage: true, continuous_usage_stats: true });
    expect(continuous.length).toBeGreaterThan(3);
    expect(continuous.every((tokens) => tokens !== null)).toBe(true);
    expect(continuous[0]).toBe(0);
    expect(continuous.at(-1)).toBe(drawn);
    expect(continuous).toEqual([...continuous].sort((a, b) => (a as number) - (b as number)));
    expect((await streamed({ include_usage: true })).every((tokens) => tokens === null)).toBe(true);
  });

  test('with textCharsPerToken the streamed text grows with the drawn length, and the answer is still in it; without it the text is the answer alone', async ({ startSim }) => {
    const messages = [{ role: 'user' as const, content: PROBLEM.question }];
    const drawn = drawnLength({ model: 'tmas-sim', messages, max_tokens: 50_000 }, 50_000);
    const textOf = async (textCharsPerToken: number) => {
      const sim = await startSim({ capacity: { timeScale: 100_000, outputTokensMedian: SHAPE.median, outputTokensP99: SHAPE.p99, textCharsPerToken } });
      const client = new OpenAI({ baseURL: sim.url, apiKey: 'sim', maxRetries: 0 });
      const stream = await client.chat.completions.create({ model: 'tmas-sim', messages, max_tokens: 50_000, stream: true, stream_options: { include_usage: true } });
      let text = '';
      let content = '';
      let tokens = 0;
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta as { content?: string | null; reasoning_content?: string } | undefined;
        text += (delta?.reasoning_content ?? '') + (delta?.content ?? '');
        content += delta?.content ?? '';
        tokens = chunk.usage?.completion_tokens ?? tokens;
      }
      return { text, content, tokens };
    };
    const padded = await textOf(2);
    expect(padded.tokens).toBe(drawn);
    // The padding ends at a sentence: within one sentence of two characters a token.
    expect(Math.abs(padded.text.length - 2 * drawn)).toBeLessThan(150);
    expect(padded.content).toContain('\\boxed{');
    const plain = await textOf(0);
    expect(plain.tokens).toBe(drawn);
    expect(plain.text.length).toBeLessThan(drawn);
    expect(plain.content).toBe(padded.content);
  });

  test('--metrics gauges serves the request and cache gauges only; --metrics none has no /metrics', async ({ startSim }) => {
    const gauges = await startSim({ capacity: { timeScale: 100_000 }, metrics: 'gauges' });
    const metrics = await readMetrics(gauges);
    expect(metrics.get(`vllm:num_requests_running${LABEL}`)).toBe(0);
    expect(metrics.has(`vllm:kv_cache_usage_perc${LABEL}`)).toBe(true);
    expect([...metrics.keys()].filter((name) => name.includes('_total') || name.includes('_seconds'))).toEqual([]);
    const none = await startSim({ capacity: { timeScale: 100_000 }, metrics: 'none' });
    expect((await fetch(`${rootOf(none)}/metrics`)).status).toBe(404);
    expect((await fetch(`${rootOf(none)}/sim/stats`)).status).toBe(200);
  });

  test('faults still strike with the model on', async ({ startSim }) => {
    const sim = await startSim({ capacity: { timeScale: 100_000, outputTokensMedian: 100, outputTokensP99: 200 }, faults: { '503': 1 } });
    const client = new OpenAI({ baseURL: sim.url, apiKey: 'sim', maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'tmas-sim', messages: [{ role: 'user', content: PROBLEM.question }] })).rejects.toMatchObject({ status: 503 });
  });
});

describe('the sim-server capacity flags', () => {
  const flags = { port: 0, host: '127.0.0.1', seed: 0, latencyMedianMs: 0, latencyP99Ms: 0, outputTokens: 100, reasoning: false, problems: 'unused.jsonl' };
  const io = { stdout: () => undefined };

  test('--metrics takes vllm, gauges or none', async () => {
    await expect(runSimServerCommand({ ...flags, metrics: 'prometheus' }, io)).rejects.toMatchObject({ code: 'TMAS_USAGE', message: expect.stringContaining('--metrics must be one of vllm, gauges, none') });
  });

  test('a capacity flag without --capacity is a usage error naming it', async () => {
    await expect(runSimServerCommand({ ...flags, kvTokens: 1000 }, io)).rejects.toMatchObject({ code: 'TMAS_USAGE', message: expect.stringContaining('--kv-tokens') });
  });

  test('--capacity with a latency or a stream pace is a usage error', async () => {
    await expect(runSimServerCommand({ ...flags, capacity: true, latencyMedianMs: 100, latencyP99Ms: 100 }, io)).rejects.toMatchObject({ code: 'TMAS_USAGE', message: expect.stringContaining('--latency-median-ms') });
    await expect(runSimServerCommand({ ...flags, capacity: true, streamTokensPerSecond: 50 }, io)).rejects.toMatchObject({ code: 'TMAS_USAGE' });
    await expect(runSimServerCommand({ ...flags, capacity: true, outputTokensMedian: 500, outputTokensP99: 100 }, io)).rejects.toMatchObject({ code: 'TMAS_USAGE', message: expect.stringContaining('--output-tokens-p99') });
  });
});
