/**
 * Who sends next: the dispatcher's order and limits, the server-load readings
 * that move each server's limit, and the gateway doing both over real HTTP.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { createDispatcher, type Slots } from '../../../src/gateway/dispatch/dispatcher.ts';
import { HeldCalls } from '../../../src/gateway/dispatch/held-calls.ts';
import { createLoadLimit, marginOf } from '../../../src/gateway/load/load-limit.ts';
import { metricsUrlOf, parseServerLoad } from '../../../src/gateway/load/server-load.ts';
import { createFirstTokenWatch } from '../../../src/gateway/load/first-token.ts';
import { createGateway, type CompletionRequest } from '../../../src/gateway/gateway.ts';
import type { CallRank } from '../../../src/gateway/reply/completion.ts';
import { createCallRanks, createRankScale } from '../../../src/host/calls/call-ranks.ts';
import { tmasStrategy } from '../../../machines/strategies/tmas/index.ts';
import { chatChunkEvent } from '../../fixtures.ts';

function replica(limit: number): Slots & { limit: number; drained: boolean } {
  return { inFlight: 0, limit, drained: false };
}

const rank = (remaining: number, grading = false): CallRank => ({ grading, remaining });

describe('dispatcher', () => {
  test('held calls leave by rank: the problems with the most left first, equals by arrival; grading calls last', async () => {
    const server = replica(1);
    const dispatcher = createDispatcher(10);
    const first = await dispatcher.admit({ pool: 'a', replicas: [server], rank: rank(4), sequence: 0, tieBreak: 0 });
    const order: string[] = [];
    const calls: Array<[string, CallRank]> = [
      ['judge', rank(9, true)],
      ['two ahead', rank(2)],
      ['one ahead', rank(3)],
      ['verification a', rank(4)],
      ['verification b', rank(4)],
      ['solution', rank(4)],
    ];
    const sent = calls.map(([name, callRank], index) =>
      dispatcher.admit({ pool: 'a', replicas: [server], rank: callRank, sequence: index + 1, tieBreak: 0 }).then((slot) => {
        order.push(name);
        // Each call finishes at once, freeing the one slot for the next.
        queueMicrotask(() => dispatcher.release(slot));
      }),
    );
    expect(dispatcher.held).toBe(6);
    dispatcher.release(first);
    await Promise.all(sent);
    expect(order).toEqual(['verification a', 'verification b', 'solution', 'one ahead', 'two ahead', 'judge']);
    expect(dispatcher.inFlight).toBe(0);
  });

  test('the held calls a replica may take instead of the next are looked at in the order they would leave, without taking any', () => {
    const held = new HeldCalls<{ rank: CallRank; sequence: number }>();
    // Drawn in a scrambled order, so that the heap's array order is not the leaving order.
    const remaining = Array.from({ length: 200 }, (_, index) => (index * 7919) % 50);
    remaining.forEach((left, sequence) => held.push({ rank: rank(left, sequence % 13 === 0), sequence }));
    const looked = [...held.leading(40)];
    // Asked for more than it holds: every call, in leaving order, and no more.
    const all = [...held.leading(250)];
    const left: Array<{ rank: CallRank; sequence: number }> = [];
    for (let call = held.pop(); call !== undefined; call = held.pop()) left.push(call);
    expect(looked).toEqual(left.slice(0, 40));
    expect(all).toEqual(left);
    expect(left).toHaveLength(200);
  });

  test('calls taken from inside the line (the one ranked last, one further down) leave it at once, and the rest still leave in order', () => {
    const held = new HeldCalls<{ rank: CallRank; sequence: number }>();
    const remaining = Array.from({ length: 300 }, (_, index) => (index * 7919) % 60);
    remaining.forEach((left, sequence) => held.push({ rank: rank(left, sequence % 17 === 0), sequence }));
    const expected: Array<{ rank: CallRank; sequence: number }> = [...held.leading(300)];
    // A slower replica takes the call ranked last, a hundred times; a replica with room, every third call further down.
    for (let pick = 0; pick < 100; pick++) {
      const last = held.last(() => true);
      expect(last).toBe(expected.pop());
      held.remove(last as { rank: CallRank; sequence: number });
    }
    const inside = [...held.leading(200)].filter((_, index) => index % 3 === 1);
    for (const call of inside) held.remove(call);
    const kept = expected.filter((call) => !inside.includes(call));
    expect(held.size).toBe(kept.length);
    // Accept passes over calls it refuses: the last of the even sequences.
    expect(held.last((call) => call.sequence % 2 === 0)).toBe(kept.filter((call) => call.sequence % 2 === 0).at(-1));
    const left: Array<{ rank: CallRank; sequence: number }> = [];
    for (let call = held.pop(); call !== undefined; call = held.pop()) left.push(call);
    expect(left).toEqual(kept);
  });

  test('fifo order ignores ranks', async () => {
    const server = replica(1);
    const dispatcher = createDispatcher(10, 'fifo');
    const first = await dispatcher.admit({ pool: 'a', replicas: [server], rank: rank(0), sequence: 0, tieBreak: 0 });
    const order: number[] = [];
    const sent = [rank(1), rank(3), rank(4, true)].map((callRank, index) =>
      dispatcher.admit({ pool: 'a', replicas: [server], rank: callRank, sequence: index + 1, tieBreak: 0 }).then((slot) => {
        order.push(index);
        queueMicrotask(() => dispatcher.release(slot));
      }),
    );
    dispatcher.release(first);
    await Promise.all(sent);
    expect(order).toEqual([0, 1, 2]);
  });

  test('an abort while held rejects the call, which never takes a slot', async () => {
    const server = replica(1);
    const dispatcher = createDispatcher(10);
    const first = await dispatcher.admit({ pool: 'a', replicas: [server], rank: rank(0), sequence: 0, tieBreak: 0 });
    const controller = new AbortController();
    const aborted = dispatcher.admit({ pool: 'a', replicas: [server], rank: rank(0), sequence: 1, tieBreak: 0 }, controller.signal);
    const next = dispatcher.admit({ pool: 'a', replicas: [server], rank: rank(5), sequence: 2, tieBreak: 0 });
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    expect(dispatcher.held).toBe(1);
    dispatcher.release(first);
    expect(await next).toBe(server);
    expect(server.inFlight).toBe(1);
  });

  test('the run-wide limit and each replica limit both hold; a call goes to the freest replica, never to a drained one', async () => {
    const small = replica(1);
    const large = replica(3);
    const dispatcher = createDispatcher(3);
    const admit = (sequence: number) => dispatcher.admit({ pool: 'p', replicas: [small, large], rank: rank(0), sequence, tieBreak: 0 });
    expect(await admit(0)).toBe(large);
    expect(await admit(1)).toBe(large);
    // Both have one free slot now: the tie goes by the call's tie-break order.
    expect([small, large]).toContain(await admit(2));
    expect(dispatcher.inFlight).toBe(3);
    let fourth = false;
    const held = admit(3).then((slot) => ((fourth = true), slot));
    await Promise.resolve();
    expect(fourth).toBe(false);
    small.drained = true;
    dispatcher.release(small.inFlight > 0 ? small : large);
    expect(await held).toBe(large);
  });

  test('calls held for a pool that goes down are refused, not left waiting', async () => {
    const server = replica(1);
    const dispatcher = createDispatcher(10);
    await dispatcher.admit({ pool: 'a', replicas: [server], rank: rank(0), sequence: 0, tieBreak: 0 });
    const held = dispatcher.admit({ pool: 'a', replicas: [server], rank: rank(0), sequence: 1, tieBreak: 0 });
    dispatcher.rejectPool('a', new Error('down'));
    await expect(held).rejects.toThrow('down');
    expect(dispatcher.held).toBe(0);
  });
});

describe('server load', () => {
  test("reads vLLM's, SGLang's, TGI's and llama.cpp's gauges and vLLM's and SGLang's token counters, summed over engines (the KV cache's fraction: the fullest engine's), and nothing from other pages", () => {
    const vllm = [
      '# HELP vllm:num_requests_running Number of requests in model execution batches.',
      '# TYPE vllm:num_requests_running gauge',
      'vllm:num_requests_running{engine="0",model_name="Qwen/Qwen3-32B"} 120.0',
      'vllm:num_requests_running{engine="1",model_name="Qwen/Qwen3-32B"} 100.0',
      'vllm:num_requests_waiting{engine="0",model_name="Qwen/Qwen3-32B"} 7.0',
      'vllm:num_requests_waiting{engine="1",model_name="Qwen/Qwen3-32B"} 0.0 1700000000000',
      'vllm:kv_cache_usage_perc{engine="0",model_name="Qwen/Qwen3-32B"} 0.93',
      'vllm:kv_cache_usage_perc{engine="1",model_name="Qwen/Qwen3-32B"} 0.41',
      '# TYPE vllm:generation_tokens_total counter',
      'vllm:generation_tokens_total{engine="0",model_name="Qwen/Qwen3-32B"} 1.5e+06',
      'vllm:generation_tokens_total{engine="1",model_name="Qwen/Qwen3-32B"} 500000.0 1700000000250',
      'vllm:time_to_first_token_seconds_bucket{le="0.001",model_name="Qwen/Qwen3-32B"} 0.0',
    ].join('\n');
    expect(parseServerLoad(vllm)).toEqual({ running: 220, waiting: 7, kvUsage: 0.93, generationTokens: 2_000_000, generationTokensAtMs: 1_700_000_000_250 });
    const older = 'vllm:num_requests_running{model_name="m"} 3\nvllm:num_requests_waiting{model_name="m"} 1\nvllm:gpu_cache_usage_perc{model_name="m"} 0.5\n';
    expect(parseServerLoad(older)).toEqual({ running: 3, waiting: 1, kvUsage: 0.5, generationTokens: null, generationTokensAtMs: null });
    const sglang = 'sglang:num_running_reqs{model_name="a b"} 64\nsglang:num_queue_reqs{model_name="a b"} 12\nsglang:token_usage{model_name="a b"} 0.8\nsglang:generation_tokens_total{model_name="a b"} 7557572\n';
    expect(parseServerLoad(sglang)).toEqual({ running: 64, waiting: 12, kvUsage: 0.8, generationTokens: 7_557_572, generationTokensAtMs: null });
    const tgi = '# TYPE tgi_batch_current_size gauge\ntgi_batch_current_size 48\n# TYPE tgi_queue_size gauge\ntgi_queue_size 3\ntgi_request_count 900\n';
    expect(parseServerLoad(tgi)).toEqual({ running: 48, waiting: 3, kvUsage: null, generationTokens: null, generationTokensAtMs: null });
    const llamacpp = 'llamacpp:tokens_predicted_total 7801\nllamacpp:kv_cache_usage_ratio 0.25\nllamacpp:requests_processing 4\nllamacpp:requests_deferred 12\n';
    expect(parseServerLoad(llamacpp)).toEqual({ running: 4, waiting: 12, kvUsage: 0.25, generationTokens: null, generationTokensAtMs: null });
    expect(parseServerLoad('# nothing here\nhttp_requests_total 5\n')).toBeNull();
    // A broken exporter's samples (negative, past 2^53) are left out, not read as a load.
    expect(parseServerLoad('vllm:num_requests_running 1e308\nvllm:num_requests_waiting -3\n')).toBeNull();
    expect(parseServerLoad('vllm:num_requests_running{e="0"} 1e308\nvllm:num_requests_running{e="1"} 5\nvllm:num_requests_waiting 0\n')).toMatchObject({ running: 5, waiting: 0 });
    expect(metricsUrlOf('http://gpu-1:8000/v1')).toBe('http://gpu-1:8000/metrics');
    expect(metricsUrlOf('http://gpu-1:8000/v1/')).toBe('http://gpu-1:8000/metrics');
    expect(metricsUrlOf('https://proxy/team/vllm/v1')).toBe('https://proxy/team/vllm/metrics');
  });

  test('the limit drops by the excess waiting in the server, and grows back while our calls fill it and the queue stays empty', () => {
    const limit = createLoadLimit(800);
    // 800 sent, the server runs 260 and queues the rest.
    limit.onReading({ running: 260, waiting: 540 }, 800);
    expect(limit.limit).toBe(800 - 540 + marginOf(260));
    // Our calls fill the limit and the server's queue is empty: it has room again.
    const before = limit.limit;
    limit.onReading({ running: 273, waiting: 0 }, before);
    expect(limit.limit).toBeGreaterThan(before);
    // Not filling it: no growth.
    const now = limit.limit;
    limit.onReading({ running: 100, waiting: 0 }, 100);
    expect(limit.limit).toBe(now);
  });

  test('on a server shared with another client, whose requests wait beyond all of ours, the limit does not yield to them', () => {
    const limit = createLoadLimit(800);
    limit.onReading({ running: 260, waiting: 540 }, 800);
    const alone = limit.limit;
    expect(alone).toBe(800 - 540 + marginOf(260));
    // Another client queues 400: more wait than we have in flight, so they are not all ours.
    limit.onReading({ running: 260, waiting: 400 + 10 }, alone);
    expect(limit.limit).toBeGreaterThan(alone);
    // More waiting than the 40 of ours left, by the margin: but 300 were ours while the server
    // counted (the rest ended as it answered), so the queue can be all ours, and the limit drops,
    // to its floor.
    limit.onReading({ running: 260, waiting: 40 + marginOf(260) }, 40, 300);
    expect(limit.limit).toBe(1);
  });

  test('without metrics, streams silent well past the usual first token count as queued', () => {
    const watch = createFirstTokenWatch();
    expect(watch.reading()).toBeNull();
    const a = watch.watch();
    a.started();
    const b = watch.watch();
    const c = watch.watch();
    const now = performance.now();
    // Just sent: not yet late.
    expect(watch.reading(now)).toEqual({ running: 1, waiting: 0 });
    // Long silent: queued.
    expect(watch.reading(now + 60_000)).toEqual({ running: 1, waiting: 2 });
    b.started();
    c.ended();
    a.ended();
    expect(watch.reading(now + 60_000)).toEqual({ running: 1, waiting: 0 });
  });

  test('a server whose first event usually takes seconds (hidden reasoning) has no load inferred', async () => {
    let now = 0;
    const watch = createFirstTokenWatch(() => now);
    const silent = watch.watch();
    // The first event after 2.5 s, as a hosted reasoning model sends it.
    const stream = watch.watch();
    now = 2_500;
    stream.started();
    // The other one has been silent a minute: no queue is read into it.
    now = 60_000;
    expect(watch.reading()).toBeNull();
    silent.ended();
  });

  test('a call ranks by what is left of its problem: iterations to go, times how long its calls run against the run\'s', () => {
    const ranks = createCallRanks(4);
    const remaining = (problem: string, iteration: number) => ranks.rankOf({ problem, iteration, role: 'solution', grading: false }).remaining;
    // Nothing known yet: iterations alone.
    expect(remaining('p', 0)).toBe(4);
    expect(remaining('q', 3)).toBe(1);
    expect(ranks.rankOf({ problem: 'p', iteration: 1, role: 'judge', grading: true })).toEqual({ ...rank(3, true), costsDiffer: false });
    // p thinks three times as long as q: at the same iteration p goes first, by more as its calls add up.
    for (let call = 0; call < 8; call++) {
      ranks.record('p', 30_000);
      ranks.record('q', 10_000);
    }
    expect(remaining('p', 2)).toBeGreaterThan(remaining('q', 2));
    const early = remaining('p', 2) / remaining('q', 2);
    for (let call = 0; call < 56; call++) {
      ranks.record('p', 30_000);
      ranks.record('q', 10_000);
    }
    expect(remaining('p', 2) / remaining('q', 2)).toBeGreaterThan(early);
    // Shrunk toward the run's mean, the ratio stays under the raw 3; an iteration more to go still outweighs it.
    expect(remaining('p', 2) / remaining('q', 2)).toBeLessThan(3);
    expect(remaining('q', 0)).toBeGreaterThan(remaining('p', 3));
    // A problem not seen yet counts as the run's mean.
    expect(remaining('r', 2)).toBe(2);
  });

  test('the problems are seen to cost differently once 32 calls each say so, beyond what lengths independent of the problem vary by', () => {
    // Every problem draws from the same lengths (a p99 five times the median), each from its own place in the cycle.
    const cycle = [3_000, 6_000, 9_000, 12_000, 15_000, 20_000, 30_000, 60_000];
    const feed = (ranks: ReturnType<typeof createCallRanks>, factors: number[], calls: number) => {
      for (let call = 0; call < calls; call++) factors.forEach((factor, problem) => ranks.record(`p${problem}`, factor * (cycle[(call + problem) % cycle.length] as number)));
    };
    const differ = (ranks: ReturnType<typeof createCallRanks>) => ranks.rankOf({ problem: 'p0', iteration: 0, role: 'solution', grading: false }).costsDiffer;
    const alike = createCallRanks(4);
    feed(alike, [1, 1, 1, 1, 1, 1], 36);
    expect(differ(alike)).toBe(false);
    // Problems that think half, once, twice and four times as long: not after 31 calls each, yes after 32.
    const unlike = createCallRanks(4);
    feed(unlike, [0.5, 1, 2, 4], 31);
    expect(differ(unlike)).toBe(false);
    feed(unlike, [0.5, 1, 2, 4], 1);
    expect(differ(unlike)).toBe(true);
  });

  test('runs sharing a gateway rank on one scale: the problem whose calls run longer goes first whichever run it is in, where each run alone would weigh them the same', () => {
    const scale = createRankScale();
    const [long, short] = [createCallRanks(2, {}, scale), createCallRanks(2, {}, scale)];
    const [longAlone, shortAlone] = [createCallRanks(2), createCallRanks(2)];
    for (let call = 0; call < 16; call++) {
      for (const ranks of [long, longAlone]) ranks.record('p', 30_000);
      for (const ranks of [short, shortAlone]) ranks.record('p', 10_000);
    }
    const remaining = (ranks: ReturnType<typeof createCallRanks>) => ranks.rankOf({ problem: 'p', iteration: 0, role: 'solution', grading: false }).remaining;
    expect(remaining(long)).toBeGreaterThan(1.5 * remaining(short));
    expect(remaining(longAlone)).toBe(remaining(shortAlone));
  });

  test('within an iteration, a call ranks by the stages of its problem\'s chain still to run: problems move through their iterations together', () => {
    const ranks = createCallRanks(3, tmasStrategy.stages);
    const order = (calls: Array<[problem: string, iteration: number, role: string]>) =>
      calls
        .map(([problem, iteration, role]) => ({ call: `${problem} ${iteration} ${role}`, remaining: ranks.rankOf({ problem, iteration, role, grading: false }).remaining }))
        .sort((a, b) => b.remaining - a.remaining)
        .map(({ call }) => call);
    expect(
      order([
        ['a', 1, 'solution'],
        ['b', 0, 'guideline'],
        ['c', 0, 'summary'],
        ['d', 0, 'verification'],
        ['e', 2, 'experience'],
        ['f', 0, 'solution'],
      ]),
    ).toEqual(['f 0 solution', 'd 0 verification', 'c 0 summary', 'b 0 guideline', 'a 1 solution', 'e 2 experience']);
    // The last stage of the last iteration still ranks above nothing: at least one stage is left.
    expect(ranks.rankOf({ problem: 'e', iteration: 2, role: 'guideline', grading: false }).remaining).toBe(1);
  });
});

/** A server that reports a load on /metrics and answers chat requests (streamed) only when released. */
async function heldServer(load: { running: number; waiting: number }) {
  const arrivals: number[] = [];
  const waiting: Array<() => void> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/metrics') {
      res.end(`vllm:num_requests_running{model_name="m"} ${load.running}\nvllm:num_requests_waiting{model_name="m"} ${load.waiting}\n`);
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      arrivals.push((JSON.parse(body) as { seed: number }).seed);
      waiting.push(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(chatChunkEvent({ role: 'assistant', content: 'ok' }, null, 'm') + chatChunkEvent({}, 'stop', 'm') + 'data: [DONE]\n\n');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    arrivals,
    held: () => waiting.length,
    releaseOne: () => waiting.shift()?.(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())).then(() => server.closeAllConnections()),
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('the gateway over HTTP', () => {
  test("a server whose /metrics show a queue gets fewer calls; the held ones are sent by rank as the server's calls finish", async () => {
    const load = { running: 2, waiting: 0 };
    const server = await heldServer(load);
    const gateway = createGateway({ concurrency: 20, timeoutMs: 10_000, maxRetries: 0, loadPollMs: 20 });
    try {
      const request = (seed: number, callRank: CallRank): CompletionRequest => ({
        endpoint: { baseUrl: server.url, model: 'm', apiKey: 'k' },
        messages: [{ role: 'user', content: 'hi' }],
        maxTokens: 10,
        seed,
        rank: callRank,
      });
      // Four calls reach the server; it says it runs 2 and queues 3 more than its margin.
      const early = [1, 2, 3, 4].map((seed) => gateway.complete(request(seed, rank(3))));
      await until(() => server.held() === 4);
      load.waiting = 3 + marginOf(2);
      // Our share drops by the excess: one call at a time from now on, so the server sees them in the order sent.
      await until(() => gateway.stats.endpoints[0]?.limit === 1);
      expect(gateway.stats.endpoints[0]?.server).toEqual({ running: 2, waiting: load.waiting, source: 'metrics' });
      // Later calls are held in the gateway, then sent best rank first.
      const late = [
        [10, rank(2)],
        [11, rank(3)],
        [12, rank(4, true)],
        [13, rank(4)],
      ] as const;
      const lateCalls = late.map(([seed, callRank]) => gateway.complete(request(seed, callRank)));
      await until(() => gateway.stats.queued === 4);
      expect(server.arrivals).toEqual([1, 2, 3, 4]);
      while (server.arrivals.length < 8) {
        server.releaseOne();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      while (server.held() > 0) server.releaseOne();
      await Promise.all([...early, ...lateCalls]);
      expect(server.arrivals.slice(4)).toEqual([13, 11, 10, 12]);
    } finally {
      gateway.close();
      await server.close();
    }
  });
});
