import { describe, expect, test } from 'vitest';
import { createManualClock } from '../../src/sim/capacity/clock.ts';
import { createCapacityEngine, type SequenceRequest } from '../../src/sim/capacity/engine.ts';
import { resolveCapacity, type CapacityOptions } from '../../src/sim/capacity/options.ts';
import { outputLengthOf } from '../../src/sim/capacity/output-length.ts';
import { BLOCK_TOKENS } from '../../src/sim/capacity/prefix-cache.ts';

/** An engine on a manual clock, and a way to submit requests that records when things happened (simulated seconds). */
function harness(options: CapacityOptions) {
  const clock = createManualClock();
  const engine = createCapacityEngine(resolveCapacity(options), clock);
  const submit = (name: string, request: Partial<SequenceRequest> & { outputTokens: number }) => {
    const seen = { name, firstToken: Number.NaN, finished: Number.NaN, steps: [] as number[] };
    const handle = engine.submit({
      prompt: name,
      promptTokens: 10,
      steps: 1,
      ...request,
      onFirstToken: () => (seen.firstToken = clock.now()),
      onStep: (step) => seen.steps.push(step),
      onFinish: () => (seen.finished = clock.now()),
    });
    return { seen, handle };
  };
  return { clock, engine, submit };
}

/** Prefill so fast it does not show at the precision the tests check. */
const INSTANT_PREFILL = 1e12;

describe('decode throughput', () => {
  test('one sequence decodes at the per-sequence ceiling', () => {
    const { clock, submit } = harness({ prefillTokensPerSecond: INSTANT_PREFILL });
    const { seen } = submit('a', { outputTokens: 1000 });
    clock.runAll();
    expect(seen.finished - seen.firstToken).toBeCloseTo(1000 / 100, 6);
  });

  test('more sequences than D/c share D equally, and the tokens decoded equal D times the busy time', () => {
    const { clock, engine, submit } = harness({ prefillTokensPerSecond: INSTANT_PREFILL, decodeTokensPerSecond: 8000, sequenceTokensPerSecond: 100 });
    const runs = Array.from({ length: 160 }, (_, i) => submit(`s${i}`, { outputTokens: 1000 }));
    clock.runAll();
    // 160 sequences: 8000 / 160 = 50 tokens/s each, so 1000 tokens take 20 s.
    for (const { seen } of runs) expect(seen.finished).toBeCloseTo(20, 6);
    const stats = engine.stats();
    expect(stats.tokens.decoded).toBeCloseTo(160_000, 3);
    expect(stats.busyFraction * stats.elapsedSeconds * 8000).toBeCloseTo(stats.tokens.decoded, 3);
    expect(stats.requests).toMatchObject({ finished: 160, aborted: 0, running: 0, waiting: 0 });
  });

  test('streamed steps fire in order before the end', () => {
    const { clock, submit } = harness({ prefillTokensPerSecond: INSTANT_PREFILL });
    const { seen } = submit('a', { outputTokens: 1600, steps: 16 });
    clock.runAll();
    expect(seen.steps).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(seen.finished).toBeCloseTo(16, 6);
  });
});

describe('KV capacity', () => {
  test('requests that do not fit wait in FIFO order and start as room frees', () => {
    // K = 10,000 with a 1% watermark: three 3,000-token prompts fit, the fourth and fifth wait.
    const { clock, engine, submit } = harness({ kvTokens: 10_000, prefillTokensPerSecond: INSTANT_PREFILL });
    const runs = ['a', 'b', 'c', 'd', 'e'].map((name) => submit(name, { promptTokens: 3000, outputTokens: 100 }));
    clock.advanceTo(0.5);
    expect(engine.stats().requests).toMatchObject({ running: 3, waiting: 2 });
    clock.runAll();
    const [a, b, c, d, e] = runs.map((run) => run.seen);
    expect(d?.firstToken).toBeGreaterThanOrEqual(Math.min(a?.finished ?? 0, b?.finished ?? 0, c?.finished ?? 0));
    expect(e?.firstToken).toBeGreaterThanOrEqual(d?.firstToken ?? Number.NaN);
    const stats = engine.stats();
    expect(stats.requests).toMatchObject({ finished: 5, preemptions: 0, waiting: 0 });
    expect(stats.queueWaitSeconds.p90).toBeGreaterThan(0.9);
    expect(stats.waiting.p90).toBeGreaterThanOrEqual(1);
  });

  test('growth past K preempts the most recently admitted sequence, which later resumes without losing tokens', () => {
    const { clock, engine, submit } = harness({ kvTokens: 1000, prefillTokensPerSecond: 1000 });
    const first = submit('first', { promptTokens: 100, outputTokens: 1000 });
    const second = submit('second', { promptTokens: 100, outputTokens: 1000 });
    clock.runAll();
    const stats = engine.stats();
    expect(stats.requests.preemptions).toBe(1);
    expect(stats.requests.finished).toBe(2);
    expect(second.seen.finished).toBeGreaterThan(first.seen.finished);
    // Both decoded their 1,000 tokens once: recompute preemption re-prefills but does not regenerate.
    expect(stats.tokens.decoded).toBeCloseTo(2000, 3);
    expect(stats.tokens.wasted).toBe(0);
    // The second's recompute prefill (its prompt and what it had generated) shows in the prefill tokens.
    expect(stats.tokens.prefill).toBeGreaterThan(200);
  });
});

describe('shared prefix blocks in the KV cache', () => {
  /** `count` prompts that share `prefixBlocks` full blocks and end in a tail of their own (`tailChars` characters). */
  const sharing = (count: number, prefixBlocks: number, tailChars: number) => {
    const prefix = 'x'.repeat(64 * prefixBlocks);
    return Array.from({ length: count }, (_, i) => {
      const prompt = `${prefix}${String(i).padEnd(tailChars, '-')}`;
      return { prompt, promptTokens: Math.ceil(prompt.length / 4) };
    });
  };

  test('M running requests that share a long prompt prefix hold it once: the KV use is the prefix plus M tails, not M prompts', () => {
    const { engine, submit } = harness({ prefillTokensPerSecond: INSTANT_PREFILL });
    const M = 8;
    // 1,000 shared blocks (16,000 tokens), then 94 characters of each one's own: one full block and 30 characters.
    const prompts = sharing(M, 1000, 94);
    for (const [i, prompt] of prompts.entries()) submit(`v${i}`, { ...prompt, outputTokens: 1000 });
    const promptTokens = prompts[0]?.promptTokens ?? Number.NaN;
    expect(promptTokens).toBe(16_024);
    const K = 2_000_000;
    // Read at the moment they are admitted, before any has decoded: 16,000 shared + 8 × 24 of each one's own.
    expect(engine.stats().requests).toMatchObject({ running: M, waiting: 0 });
    expect(engine.stats().kvUsage * K).toBeCloseTo(16_000 + M * (promptTokens - 16_000), 6);
    expect(engine.metrics().kvUsage * K).toBeCloseTo(16_192, 6);
  });

  test('requests whose prompts share a prefix run together where their whole prompts would not fit side by side', () => {
    // Eight 8,008-token prompts in a 20,000-token cache: 64,064 tokens counted whole, 8,064 shared.
    const { clock, engine, submit } = harness({ kvTokens: 20_000, prefillTokensPerSecond: INSTANT_PREFILL });
    const runs = sharing(8, 500, 30).map((prompt, i) => submit(`v${i}`, { ...prompt, outputTokens: 100 }));
    expect(engine.stats().requests).toMatchObject({ running: 8, waiting: 0 });
    clock.runAll();
    // At 8 × 100 tok/s, 100 tokens each take 1 s: all eight finish together, none having waited.
    for (const { seen } of runs) expect(seen.finished).toBeCloseTo(1, 6);
    expect(engine.stats().requests).toMatchObject({ finished: 8, preemptions: 0 });
  });

  test('a sequence whose prefix is shared is preempted only when the cache is really full, and re-prefills only what the cache lost', () => {
    // Two 8,008-token prompts sharing 8,000 tokens in a 20,000-token cache: 8,016 held at the start, growing 200 tokens/s.
    const { clock, engine, submit } = harness({ kvTokens: 20_000, prefillTokensPerSecond: INSTANT_PREFILL });
    const [first, second] = sharing(2, 500, 30).map((prompt, i) => submit(`v${i}`, { ...prompt, outputTokens: 7000 }));
    const fullAt = (20_000 - 8016) / 200;
    // Counting each prompt whole, the cache would fill at (20,000 - 16,016) / 200 = 19.9 s.
    clock.advanceTo(fullAt - 1);
    expect(engine.stats().requests.preemptions).toBe(0);
    expect(engine.stats().kvUsage * 20_000).toBeCloseTo(20_000 - 200, 3);
    clock.advanceTo(fullAt + 1);
    expect(engine.stats().requests.preemptions).toBe(1);
    clock.runAll();
    const stats = engine.stats();
    expect(stats.requests).toMatchObject({ finished: 2, preemptions: 1 });
    expect(second?.seen.finished).toBeGreaterThan(first?.seen.finished ?? Number.NaN);
    expect(stats.tokens.decoded).toBeCloseTo(14_000, 3);
    // The first prefills 8,008; the second its 8 own tokens, and on re-admission those 8 and the 5,992 it had generated:
    // the shared 8,000 were still cached.
    expect(stats.tokens.prefill).toBeCloseTo(8008 + 8 + 8 + (fullAt * 100), 3);
  });

  test('cached blocks nobody holds live in the free room: a long prompt that takes the room evicts them, a prompt\'s last blocks first', () => {
    const { clock, engine, submit } = harness({ kvTokens: 20_000, prefillTokensPerSecond: INSTANT_PREFILL });
    const [first, again] = sharing(2, 500, 30);
    submit('first', { ...(first as { prompt: string; promptTokens: number }), outputTokens: 10 });
    clock.runAll();
    // 15,000 tokens of another prompt leave room for 5,000 / 16 = 312 of the first prompt's 500 cached blocks.
    submit('other', { prompt: 'y'.repeat(60_000), promptTokens: 15_000, outputTokens: 10 });
    clock.runAll();
    submit('again', { ...(again as { prompt: string; promptTokens: number }), outputTokens: 10 });
    clock.runAll();
    // The leading 312 blocks were kept, so the prompt asked again finds them.
    expect(engine.stats().tokens.cachedPrompt).toBe(312 * BLOCK_TOKENS);
  });
});

describe('prefix cache', () => {
  test('M prompts that share a long prefix pay its prefill once', () => {
    const { clock, engine, submit } = harness({});
    const prefix = 'x'.repeat(64 * 100);
    const M = 8;
    const promptTokens = Math.ceil((prefix.length + 64) / 4);
    for (let i = 0; i < M; i++) submit(`v${i}`, { prompt: `${prefix}${String(i).padStart(64, '-')}`, promptTokens, outputTokens: 10 });
    clock.runAll();
    const stats = engine.stats();
    const cachedEach = 100 * BLOCK_TOKENS;
    expect(stats.tokens.cachedPrompt).toBe((M - 1) * cachedEach);
    expect(stats.prefixCacheHitRate).toBeCloseTo(((M - 1) * cachedEach) / (M * promptTokens), 9);
    expect(stats.tokens.prefill).toBe(M * promptTokens - (M - 1) * cachedEach);
    expect(engine.metrics()).toMatchObject({ prefixQueries: M * promptTokens, prefixHits: (M - 1) * cachedEach });
  });

  test('prompts that differ in their first block share nothing', () => {
    const { clock, engine, submit } = harness({});
    submit('a', { prompt: `a${'x'.repeat(6400)}`, promptTokens: 1601, outputTokens: 10 });
    submit('b', { prompt: `b${'x'.repeat(6400)}`, promptTokens: 1601, outputTokens: 10 });
    clock.runAll();
    expect(engine.stats().tokens.cachedPrompt).toBe(0);
  });
});

describe('determinism', () => {
  test('the output length is a function of the request: same key, same length; capped by max_tokens', () => {
    const shape = { median: 12_000, p99: 60_000 };
    expect(outputLengthOf('k1', shape, null)).toBe(outputLengthOf('k1', shape, null));
    const draws = Array.from({ length: 4000 }, (_, i) => outputLengthOf(`key-${i}`, shape, null)).sort((x, y) => x - y);
    expect(new Set(draws).size).toBeGreaterThan(3000);
    expect(draws[2000]).toBeGreaterThan(12_000 * 0.9);
    expect(draws[2000]).toBeLessThan(12_000 * 1.1);
    expect(draws[3960]).toBeGreaterThan(60_000 * 0.75);
    expect(draws[3960]).toBeLessThan(60_000 * 1.33);
    expect(outputLengthOf('k1', shape, 50)).toBe(Math.min(50, outputLengthOf('k1', shape, null)));
  });

  test('with a problem spread, a problem\'s calls share its factor: medians differ by problem, not by call', () => {
    const medianOf = (problem: string, spread: number) => {
      const draws = Array.from({ length: 2001 }, (_, i) => outputLengthOf(`${problem}-call-${i}`, { median: 12_000, p99: 60_000, problemSpread: spread, problem }, null));
      return draws.sort((x, y) => x - y)[1000] as number;
    };
    const problems = Array.from({ length: 12 }, (_, i) => `problem-${i}`);
    const spread = problems.map((problem) => medianOf(problem, 0.5));
    // σ = 0.5 between problems: a dozen medians span well over a factor of 2.
    expect(Math.max(...spread) / Math.min(...spread)).toBeGreaterThan(2);
    // Without it, every problem's median is the call median.
    for (const problem of problems.slice(0, 3)) {
      expect(medianOf(problem, 0)).toBeGreaterThan(12_000 * 0.9);
      expect(medianOf(problem, 0)).toBeLessThan(12_000 * 1.1);
    }
    // The factor is the problem's: the same problem gives the same lengths whatever else is asked.
    expect(outputLengthOf('k', { median: 12_000, p99: 60_000, problemSpread: 0.5, problem: 'p' }, null)).toBe(
      outputLengthOf('k', { median: 12_000, p99: 60_000, problemSpread: 0.5, problem: 'p' }, null),
    );
  });

  test('the same schedule gives the same simulated timeline', () => {
    const play = () => {
      const { clock, engine, submit } = harness({ kvTokens: 50_000 });
      const runs: Array<ReturnType<typeof submit>['seen']> = [];
      for (let i = 0; i < 40; i++) {
        clock.advanceTo(i * 0.7);
        runs.push(submit(`r${i}`, { promptTokens: 2000 + 37 * i, outputTokens: outputLengthOf(`r${i}`, { median: 500, p99: 3000 }, null), steps: 4 }).seen);
      }
      clock.runAll();
      return { runs, stats: engine.stats() };
    };
    expect(play()).toEqual(play());
  });

  test('below saturation, an unrelated request does not change another one’s timeline', () => {
    const alone = harness({});
    const a1 = alone.submit('a', { outputTokens: 2000 }).seen;
    alone.clock.runAll();
    const shared = harness({});
    const a2 = shared.submit('a', { outputTokens: 2000 }).seen;
    shared.clock.advanceTo(3);
    shared.submit('b', { outputTokens: 500 });
    shared.clock.runAll();
    expect(a2).toEqual(a1);
  });
});

describe('wasted tokens', () => {
  test('a sequence aborted mid-decode wastes what it had generated', () => {
    const { clock, engine, submit } = harness({ prefillTokensPerSecond: INSTANT_PREFILL });
    const { handle, seen } = submit('a', { outputTokens: 1000 });
    clock.advanceTo(5);
    handle.abort();
    clock.runAll();
    const stats = engine.stats();
    expect(stats.tokens.wasted).toBeCloseTo(500, 3);
    expect(stats.requests).toMatchObject({ aborted: 1, finished: 0, running: 0 });
    expect(seen.finished).toBeNaN();
  });

  test('nothing is wasted when nothing is aborted', () => {
    const { clock, engine, submit } = harness({});
    for (let i = 0; i < 20; i++) submit(`r${i}`, { outputTokens: 300 });
    clock.runAll();
    expect(engine.stats().tokens.wasted).toBe(0);
    expect(engine.stats().requests.finished).toBe(20);
  });
});
