/**
 * Which replica of a pool a call goes to (`--routing`): the router on its
 * own (replicas as plain objects, their prefix memories real), then the
 * gateway on replicas of the simulator's capacity model of different speeds,
 * sharing prompts. Replicas lost and back: test/gateway/dispatch/replica-loss.test.ts.
 */
import { describe, expect } from 'vitest';
import { createDispatcher } from '../../../src/gateway/dispatch/dispatcher.ts';
import { createGateway, type Completion, type CompletionRequest, type EndpointStats } from '../../../src/gateway/gateway.ts';
import { prefixKeysOf } from '../../../src/gateway/dispatch/prefix-keys.ts';
import { createPrefixMemory } from '../../../src/gateway/dispatch/prefix-memory.ts';
import { createRouter, type Routable, type Routing } from '../../../src/gateway/dispatch/routing.ts';
import { startSimServer, type SimServer } from '../../../src/sim/server.ts';
import type { CapacityOptions } from '../../../src/sim/capacity/options.ts';
import { smallProblems, startSimProcess, test, writeProblems } from '../../fixtures.ts';

/** A replica as the router sees it. */
function replica(fields: Partial<Pick<Routable, 'limit' | 'inFlight' | 'sequenceSpeed' | 'kneeSize' | 'failedAttempts' | 'trialAt'>> = {}): Routable {
  return { limit: 100, inFlight: 0, drained: false, sequenceSpeed: null, kneeSize: null, failedAttempts: 0, trialAt: 0, prefixes: createPrefixMemory(), ...fields };
}

/** The messages of a verification of candidate `candidate` of problem `problem`: equal for all of one candidate's verifications. */
function verification(problem: number, candidate: number): CompletionRequest['messages'] {
  return [
    { role: 'system', content: 'You are the Verification agent of a team that solves hard mathematics problems.' },
    { role: 'user', content: `Problem ${problem}: ${'a long statement '.repeat(40)}\n\nSolution ${candidate}: ${'a long argument '.repeat(200)}` },
  ];
}

/** The calls `send` sent where their prompt's prefix was, by replica. */
const prefixHits = new Map<Routable, number>();

/** Routes `count` calls of the same prompt, each sent (its slot taken) before the next. */
function send(router: ReturnType<typeof createRouter<Routable>>, replicas: Routable[], messages: CompletionRequest['messages'], count: number, tieBreak = 0): Routable[] {
  const prefix = prefixKeysOf(messages);
  const chosen: Routable[] = [];
  const onPrefixHit = (to: Routable) => void prefixHits.set(to, (prefixHits.get(to) ?? 0) + 1);
  for (let call = 0; call < count; call++) {
    const target = router.choose(replicas, { tieBreak: tieBreak + call, prefix });
    if (target === null) break;
    router.sent(target, { tieBreak: tieBreak + call, prefix, onPrefixHit });
    target.inFlight++;
    chosen.push(target);
  }
  return chosen;
}

describe('the router', () => {
  test('when every replica is full and one frees a slot, the next call waits for the replica holding its prompt: the one with room takes a call further down that it holds, else one no replica holds', async () => {
    const router = createRouter<Routable>('prefix');
    const [a, b] = [replica({ limit: 1 }), replica({ limit: 1 })];
    const dispatcher = createDispatcher<Routable>(10, 'rank', router);
    const admit = (messages: CompletionRequest['messages'], sequence: number, remaining: number) =>
      dispatcher.admit({ pool: 'p', replicas: [a, b], rank: { grading: false, remaining }, sequence, tieBreak: sequence, prefix: prefixKeysOf(messages) });
    // Candidate 0's prompt goes to one replica, candidate 1's to the other: both are full.
    const first = await admit(verification(1, 0), 0, 9);
    const second = await admit(verification(1, 1), 1, 9);
    expect(second).not.toBe(first);
    // Held, best first: a verification of candidate 0 (cached on `first`), one of candidate 1 (on `second`), one of candidate 2 (nowhere).
    const sent: Array<[string, Routable]> = [];
    void admit(verification(1, 0), 2, 9).then((to) => sent.push(['candidate 0', to]));
    void admit(verification(1, 1), 3, 5).then((to) => sent.push(['candidate 1', to]));
    void admit(verification(1, 2), 4, 1).then((to) => sent.push(['candidate 2', to]));
    // `second` frees a slot: candidate 0's call waits for `first`; candidate 1's, though after it in line, takes the slot.
    dispatcher.release(second);
    await Promise.resolve();
    expect(sent).toEqual([['candidate 1', second]]);
    // Again: nothing further down is cached on `second`, so the call no replica holds goes there, not candidate 0's.
    dispatcher.release(second);
    await Promise.resolve();
    expect(sent).toEqual([['candidate 1', second], ['candidate 2', second]]);
    // `first` frees a slot: candidate 0's call finds its prompt there.
    dispatcher.release(first);
    await Promise.resolve();
    expect(sent).toEqual([['candidate 1', second], ['candidate 2', second], ['candidate 0', first]]);
  });

  test('a replica holding the prompt is waited for only on a pool of equally fast replicas, and when it is neither failing nor drained', async () => {
    const router = createRouter<Routable>('prefix');
    const holder = replica({ limit: 1, sequenceSpeed: 0.1 });
    const other = replica({ limit: 1, sequenceSpeed: 0.1 });
    const call = { tieBreak: 0, prefix: prefixKeysOf(verification(1, 0)) };
    router.sent(holder, call);
    holder.inFlight = 1;
    // Full, as fast: the call is cached elsewhere and waits for it.
    expect(router.cachedElsewhere?.(other, call, [holder, other])).toBe(holder);
    expect(router.cachedElsewhere?.(holder, call, [holder, other])).toBeNull();
    // Half as fast, failing or drained: nothing to wait for.
    for (const changed of [{ sequenceSpeed: 0.05 }, { failedAttempts: 2 }, { drained: true }]) {
      const unlike = { ...holder, ...changed } as Routable;
      expect(router.cachedElsewhere?.(other, call, [unlike, other]), JSON.stringify(changed)).toBeNull();
    }
    // A pool with a replica half as fast, even one that is neither of the two: calls go as they come.
    const slow = replica({ limit: 1, sequenceSpeed: 0.05 });
    expect(router.cachedElsewhere?.(other, call, [holder, other, slow])).toBeNull();
    expect(router.cachedElsewhere?.(slow, call, [holder, other, slow])).toBeNull();
    expect(createRouter<Routable>('least-loaded').cachedElsewhere).toBeUndefined();
  });

  test('prefix: a candidate\'s eight verifications go to one replica, the next candidate\'s to the freest; a holder with far more calls than the least loaded gives way', () => {
    const router = createRouter<Routable>('prefix');
    const replicas = [replica(), replica(), replica(), replica()];
    const first = send(router, replicas, verification(1, 0), 8);
    expect(new Set(first).size).toBe(1);
    const second = send(router, replicas, verification(1, 1), 8, 3);
    expect(new Set(second).size).toBe(1);
    expect(second[0]).not.toBe(first[0]);
    // The first candidate's replica got 8 prefix hits out of 8 calls (the first found nothing).
    expect(prefixHits.get(first[0] as Routable)).toBe(7);
    // A replica holding the prompt, but 40 calls busier than an empty one, gives the call away.
    const holder = first[0] as Routable;
    holder.inFlight = 48;
    const [next] = send(router, replicas, verification(1, 0), 1);
    expect(next).not.toBe(holder);
  });

  test('least-loaded: the freest replica, whatever the prompt', () => {
    const router = createRouter<Routable>('least-loaded');
    const replicas = [replica(), replica(), replica(), replica()];
    const chosen = send(router, replicas, verification(1, 0), 8);
    expect(new Set(chosen).size).toBe(4);
    expect(replicas.every((r) => r.inFlight === 2)).toBe(true);
  });

  test('a slower replica gets calls only while the faster ones are full; of these, a replica under its knee goes before one past it', () => {
    const router = createRouter<Routable>('prefix');
    const fast = replica({ limit: 10, sequenceSpeed: 10, kneeSize: 9 });
    const alsoFast = replica({ limit: 10, sequenceSpeed: 9, kneeSize: 9 });
    const slow = replica({ limit: 10, sequenceSpeed: 5, kneeSize: 9 });
    const replicas = [slow, fast, alsoFast];
    // Different prompts, so that only speed and load decide.
    const order = Array.from({ length: 30 }, (_, call) => send(router, replicas, verification(call, call), 1, call)[0]);
    // The 18 first fill the two fast replicas to their knee; the next 2 take them past it, to their limit; the slow one only then.
    expect(order.slice(0, 18).filter((r) => r === fast)).toHaveLength(9);
    expect(order.slice(0, 18).filter((r) => r === alsoFast)).toHaveLength(9);
    expect(order.slice(18, 20).every((r) => r !== slow)).toBe(true);
    expect(order.slice(20)).toEqual(Array(10).fill(slow));
  });

  test('a replica whose pace is not measured yet holds no more calls than the measured ones hold on average, then takes calls again as they do', () => {
    const router = createRouter<Routable>('prefix');
    // Its first calls still decoding (a slow replica's take longest), no knee found, no cap: the freest by far.
    const unknown = replica({ limit: 512, inFlight: 4 });
    const fast = replica({ limit: 40, inFlight: 0, sequenceSpeed: 0.1 });
    const alsoFast = replica({ limit: 40, inFlight: 0, sequenceSpeed: 0.1 });
    const replicas = [unknown, fast, alsoFast];
    const order = Array.from({ length: 60 }, (_, call) => send(router, replicas, verification(call, call), 1, call)[0]);
    // Before, all 60 went to it while the measured replicas sat idle.
    expect(unknown.inFlight).toBeLessThanOrEqual(Math.ceil((fast.inFlight + alsoFast.inFlight) / 2));
    expect(order.filter((r) => r === unknown).length).toBeGreaterThan(0);
    expect(fast.inFlight + alsoFast.inFlight).toBeGreaterThanOrEqual(40);
    // Measured replicas full: the call waits for one of them rather than go to it.
    (fast as { inFlight: number }).inFlight = 40;
    (alsoFast as { inFlight: number }).inFlight = 40;
    unknown.inFlight = 40;
    expect(router.choose(replicas, { tieBreak: 0, prefix: null })).toBeNull();
    // No pace measured anywhere (the run's first calls): the freest, as before.
    const fresh = [replica({ limit: 512, inFlight: 4 }), replica({ limit: 16 })];
    expect(router.choose(fresh, { tieBreak: 0, prefix: null })).toBe(fresh[0]);
  });

  test('a slower replica with the only free slot takes the held call ranked last (a judge\'s before the loop\'s), a fast one the next; on equally fast replicas, or under least-loaded, each takes the next', async () => {
    const hold = async (router: ReturnType<typeof createRouter<Routable>>, fast: Routable, slow: Routable) => {
      const dispatcher = createDispatcher<Routable>(10, 'rank', router);
      const admit = (sequence: number, rank: { grading: boolean; remaining: number }) => dispatcher.admit({ pool: 'p', replicas: [fast, slow], rank, sequence, tieBreak: sequence });
      // Nothing held: the fast replica first, then the slow one takes what comes.
      expect([await admit(0, { grading: false, remaining: 9 }), await admit(1, { grading: false, remaining: 9 })]).toEqual([fast, slow]);
      const sent: Array<[string, Routable]> = [];
      const held: Array<[string, { grading: boolean; remaining: number }]> = [['first', { grading: false, remaining: 9 }], ['middle', { grading: false, remaining: 5 }], ['last of the loop', { grading: false, remaining: 1 }], ['judge', { grading: true, remaining: 9 }]];
      held.forEach(([name, rank], index) => void admit(2 + index, rank).then((to) => sent.push([name, to])));
      for (const freed of [slow, slow, fast, slow]) {
        dispatcher.release(freed);
        await Promise.resolve();
      }
      return sent;
    };
    const router = createRouter<Routable>('prefix');
    const [fast, slow] = [replica({ limit: 1, sequenceSpeed: 0.1 }), replica({ limit: 1, sequenceSpeed: 0.05 })];
    expect(await hold(router, fast, slow)).toEqual([['judge', slow], ['last of the loop', slow], ['first', fast], ['middle', slow]]);
    // Equally fast (within a fifth), or routed least-loaded: by rank, whichever replica frees the slot.
    const byRank = (a: Routable, b: Routable) => [['first', b], ['middle', b], ['last of the loop', a], ['judge', b]];
    const [a, b] = [replica({ limit: 1, sequenceSpeed: 0.1 }), replica({ limit: 1, sequenceSpeed: 0.09 })];
    expect(await hold(createRouter<Routable>('prefix'), a, b)).toEqual(byRank(a, b));
    const [c, d] = [replica({ limit: 1, sequenceSpeed: 0.1 }), replica({ limit: 1, sequenceSpeed: 0.05 })];
    expect(await hold(createRouter<Routable>('least-loaded'), c, d)).toEqual(byRank(c, d));
  });

  test('where the problems cost differently, a slower replica stays idle rather than take a call ranked near the next, while a faster one will free a slot', async () => {
    const router = createRouter<Routable>('prefix');
    const [fast, slow] = [replica({ limit: 1, sequenceSpeed: 0.1 }), replica({ limit: 1, sequenceSpeed: 0.05 })];
    const dispatcher = createDispatcher<Routable>(10, 'rank', router);
    const admit = (sequence: number, remaining: number, grading = false) => dispatcher.admit({ pool: 'p', replicas: [fast, slow], rank: { grading, remaining, costsDiffer: true }, sequence, tieBreak: sequence });
    expect([await admit(0, 9), await admit(1, 9)]).toEqual([fast, slow]);
    const sent: Array<[number, Routable]> = [];
    for (const [sequence, remaining] of [[2, 9], [3, 8]] as const) void admit(sequence, remaining).then((to) => sent.push([remaining, to]));
    // The call ranked last has 8 of the next one's 9 left: the slow replica's free slot stays free.
    dispatcher.release(slow);
    await Promise.resolve();
    expect(sent).toEqual([]);
    // A call with far less left, and a judge's, it takes.
    void admit(4, 5).then((to) => sent.push([5, to]));
    await Promise.resolve();
    expect(sent).toEqual([[5, slow]]);
    dispatcher.release(fast);
    await Promise.resolve();
    expect(sent).toEqual([[5, slow], [9, fast]]);
    // With no call in flight on the fast replica, nothing would free a slot there: the slow one takes the call.
    fast.inFlight = 0;
    (fast as { limit: number }).limit = 0;
    dispatcher.release(slow);
    await Promise.resolve();
    expect(sent).toEqual([[5, slow], [9, fast], [8, slow]]);
  });

  test('a retry goes to another replica than the one it failed on; a replica whose attempts fail takes one trial call at a time, once its backoff has passed', () => {
    const router = createRouter<Routable>('prefix');
    const [a, b] = [replica(), replica()];
    const prefix = prefixKeysOf(verification(1, 0));
    router.sent(a, { tieBreak: 0, prefix });
    // The prompt is held by a, but its last attempt failed there.
    expect(router.choose([a, b], { tieBreak: 0, prefix, avoid: a })).toBe(b);
    const failing = replica({ failedAttempts: 2 });
    // Nothing under way on it: it takes a trial call, which drains it or makes it healthy again; not before its backoff has passed.
    expect(router.choose([failing, b], { tieBreak: 0, prefix: null })).toBe(failing);
    expect(router.choose([replica({ failedAttempts: 2, trialAt: performance.now() + 60_000 }), b], { tieBreak: 0, prefix: null })).toBe(b);
    failing.inFlight = 1;
    expect(router.choose([failing, b], { tieBreak: 0, prefix: null })).toBe(b);
    // Its trial under way and the healthy replica full, the call waits for the healthy one.
    b.inFlight = b.limit;
    expect(router.choose([failing, b], { tieBreak: 0, prefix: null })).toBeNull();
    // A retry waits for it too rather than go back where it failed; with no healthy replica left, it goes where there is room.
    failing.inFlight = 0;
    expect(router.choose([failing, b], { tieBreak: 0, prefix: null, avoid: failing })).toBeNull();
    expect(router.choose([failing, replica({ failedAttempts: 1, inFlight: 1 })], { tieBreak: 0, prefix: null, avoid: failing })).toBe(failing);
  });
});

/** Capacity servers on a small problem set, closed after the test. */
async function withServers<T>(capacities: CapacityOptions[], body: (servers: SimServer[]) => Promise<T>): Promise<T> {
  const servers = await Promise.all(capacities.map((capacity) => startSimServer({ problems: [{ id: 'p1', question: 'What is 6 times 7?', answer: '42' }], capacity })));
  try {
    return await body(servers);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}

/** A call to the pool of `urls` with these messages and seed. */
function poolCall(urls: string[], messages: CompletionRequest['messages'], seed: number): CompletionRequest {
  return { endpoint: { baseUrl: urls[0] as string, model: 'tmas-sim', apiKey: 'k', replicas: urls }, messages, maxTokens: 50_000, seed };
}

const GATEWAY = { concurrency: 600, timeoutMs: 60_000, maxRetries: 2, backoff: { baseMs: 5, capMs: 50 } };

describe('a pool of capacity servers', () => {
  test('of different speeds: a burst fills both; with few calls left they run on the fast one', async ({ dir }) => {
    // Each its own process, so that the servers keep their pace while the gateway is busy. The fast one decodes
    // 8,000 tokens/s at most 100 a sequence (knee 80); the slow one 2,000 at most 50 (knee 40). At five times
    // real speed a loaded machine's scheduling delays barely blur the pace the gateway reads: at fifty times (every 25 ms, replies of 3,000 tokens) a load of 14 on two cores read the
    // fast server's pace as 15 tokens/ms (it is 5) and its knee as 2 sequences, and the few calls spilled onto the
    // slow one; at ten times, a whole suite on two cores sent 3 of the 10 to the slow one once.
    const problems = await writeProblems(dir, smallProblems(1));
    const shape = ['--problems', problems, '--capacity', '--time-scale', '5', '--output-tokens-median', '1000', '--output-tokens-p99', '2000'];
    const sims = await Promise.all([
      startSimProcess([...shape, '--decode-tokens-per-second', '2000', '--sequence-tokens-per-second', '50']),
      startSimProcess(shape),
    ]);
    const [slow, fast] = sims.map((sim) => sim.url) as [string, string];
    const gateway = createGateway({ ...GATEWAY, routing: 'prefix' });
    try {
      const call = (seed: number) => gateway.complete({ ...poolCall([slow, fast], verification(seed, 0), seed) });
      const burst = await Promise.all(Array.from({ length: 200 }, (_, seed) => call(seed)));
      const stats = (url: string) => gateway.stats.endpoints.find((e) => e.baseUrl === url) as EndpointStats;
      // While the burst filled the fast one, the slow one took the rest.
      expect(burst.filter((c) => c.replica === slow).length).toBeGreaterThan(0);
      expect(burst.filter((c) => c.replica === fast).length).toBeGreaterThan(0);
      expect(stats(fast).calls + stats(slow).calls).toBe(200);
      // Ten calls at once, fewer than the fast server's knee: they all go to the fast one (routed by load alone, five would not).
      const few = await Promise.all(Array.from({ length: 10 }, (_, index) => call(5_000 + index)));
      expect(few.filter((c) => c.replica === fast), JSON.stringify({ fast: stats(fast), slow: stats(slow) })).toHaveLength(10);
    } finally {
      gateway.close();
      for (const sim of sims) sim.child.kill();
    }
  });

  test('a replica that answers every call with a 429 counts no prefix hit: hits count the attempts that answered, as calls do', async () => {
    const sims = await Promise.all([{ '429': 1 }, {}].map((faults) => startSimServer({ problems: [{ id: 'p1', question: 'What is 6 times 7?', answer: '42' }], faults, latency: { medianMs: 5, p99Ms: 10 } })));
    const urls = sims.map((sim) => sim.url);
    const gateway = createGateway({ ...GATEWAY, maxRetries: 6, routing: 'prefix' });
    try {
      // Four candidates' eight verifications each, a candidate's sent together; the seeds' tie-break sends every other candidate's first to the refusing replica.
      for (let candidate = 0; candidate < 4; candidate++) await Promise.all(Array.from({ length: 8 }, (_, call) => gateway.complete(poolCall(urls, verification(1, candidate), candidate * 9 + call))));
      const [refusing, answering] = urls.map((url) => gateway.stats.endpoints.find((e) => e.baseUrl === url) as EndpointStats);
      expect(refusing?.errors).toBeGreaterThan(0);
      // Before, the attempts sent to it where their prompt was counted as hits: calls 0, prefixHits up to 12.
      expect(refusing).toMatchObject({ calls: 0, prefixHits: 0 });
      expect(answering?.calls).toBe(32);
      expect(answering?.prefixHits).toBeLessThanOrEqual(answering?.calls as number);
      expect(answering?.prefixHits).toBeGreaterThan(0);
    } finally {
      gateway.close();
      await Promise.all(sims.map((sim) => sim.close()));
    }
  });

  test("a candidate's verifications find their prompt cached: more prefix-cache hits than least-loaded routing", async () => {
    const shape = { timeScale: 2_000, outputTokensMedian: 500, outputTokensP99: 1_000 };
    const hits: Record<string, number> = {};
    for (const routing of ['prefix', 'least-loaded'] as Routing[]) {
      await withServers([shape, shape, shape, shape], async (servers) => {
        const gateway = createGateway({ ...GATEWAY, routing });
        try {
          // 24 candidates' 8 verifications each, a candidate's sent together, as TMAS sends them.
          const done: Completion[] = [];
          for (let round = 0; round < 3; round++) {
            const calls = Array.from({ length: 8 * 8 }, (_, call) => poolCall(servers.map((server) => server.url), verification(round, Math.floor(call / 8)), round * 100 + call));
            done.push(...(await Promise.all(calls.map((call) => gateway.complete(call)))));
          }
          expect(done).toHaveLength(192);
          const stats = servers.map((server) => server.capacityStats()!);
          hits[routing] = stats.reduce((sum, s) => sum + s.tokens.cachedPrompt, 0) / stats.reduce((sum, s) => sum + s.tokens.prompt, 0);
        } finally {
          gateway.close();
        }
      });
    }
    // Each candidate's prompt computed once (7 of its 8 verifications find it cached), against about once per replica.
    expect(hits.prefix).toBeGreaterThan(0.8);
    expect(hits.prefix).toBeGreaterThan((hits['least-loaded'] as number) + 0.1);
  });
});
