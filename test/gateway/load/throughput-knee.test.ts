/**
 * The throughput knee: found on the simulator's capacity model (a server
 * with a sharp knee), grown back on a server without one, and off where a
 * server does not count its tokens.
 */
import { describe, expect, test } from 'vitest';
import { createLoadLimit } from '../../../src/gateway/load/load-limit.ts';
import { CAP_OVER_KNEE, SLOW_START_CAP, createThroughputKnee, type ThroughputKnee } from '../../../src/gateway/load/throughput-knee.ts';
import { createCapacityEngine } from '../../../src/sim/capacity/engine.ts';
import { createManualClock } from '../../../src/sim/capacity/clock.ts';
import { resolveCapacity } from '../../../src/sim/capacity/options.ts';

/** The reading period of the tests (the gateway's default). */
const READING_MS = 500;
/** On the capacity model, a reading every 5 simulated seconds. */
const SIMULATED_READING_MS = 5_000;

/**
 * Keeps up to the knee's cap of long sequences (and at most `ready`) on a
 * capacity model decoding `decode` tokens/s at most 100 a sequence, reading
 * its metrics every 5 simulated seconds; returns the sequences it ran and the
 * caps it had at each reading. With `refill`, the calls that ended are
 * replaced before each reading, as the gateway replaces them at once.
 */
function runOnCapacityModel(knee: ThroughputKnee, readings: number, { decode = 8000, ready = 300, refill = false } = {}): { running: number[]; caps: number[] } {
  const clock = createManualClock();
  const engine = createCapacityEngine(resolveCapacity({ decodeTokensPerSecond: decode, sequenceTokensPerSecond: 100, kvTokens: 2_000_000 }), clock);
  let inFlight = 0;
  let sent = 0;
  const running: number[] = [];
  const caps: number[] = [];
  const fill = () => {
    // At most 300 in flight by default, as the load limit keeps a server with room for about 260 sequences.
    while (inFlight < Math.min(knee.cap, ready)) {
      inFlight++;
      sent++;
      // 5,000 to 20,000 tokens each, so that sequences finish and are replaced all along.
      engine.submit({ prompt: `p${sent}`, promptTokens: 100, outputTokens: 5_000 + ((sent * 7_919) % 15_000), steps: 1, onFinish: () => inFlight-- });
    }
  };
  fill();
  for (let reading = 1; reading <= readings; reading++) {
    clock.advanceTo(reading * 5);
    if (refill) fill();
    const metrics = engine.metrics();
    knee.onReading({ running: metrics.running, generationTokens: metrics.generationTokens }, reading * SIMULATED_READING_MS, inFlight);
    running.push(metrics.running);
    caps.push(knee.cap);
    fill();
  }
  engine.close();
  return { running, caps };
}

/**
 * Reads `knee` `readings` times, READING_MS apart, on a server running every
 * call it is sent (up to `ready`, the batch) that decodes `tokensPerSecond(batch,
 * reading)`; returns the cap after each reading.
 */
function readAtRates(knee: ThroughputKnee, readings: number, ready: number, tokensPerSecond: (batch: number, reading: number) => number): number[] {
  let tokens = 0;
  const caps: number[] = [];
  for (let reading = 1; reading <= readings; reading++) {
    const batch = Math.min(knee.cap, ready);
    tokens += tokensPerSecond(batch, reading) * (READING_MS / 1000);
    knee.onReading({ running: batch, waiting: 0, generationTokens: tokens }, reading * READING_MS, batch);
    caps.push(knee.cap);
  }
  return caps;
}

describe('throughput knee', () => {
  test('on a server that shares 8,000 tokens/s at most 100 per sequence, the cap settles just over 80 sequences', () => {
    const knee = createThroughputKnee();
    expect(knee.cap).toBe(SLOW_START_CAP);
    const { running } = runOnCapacityModel(knee, 300);
    expect(knee.knee).toBeCloseTo(80, 0);
    expect(knee.cap).toBe(Math.round(80 * CAP_OVER_KNEE));
    // The slow start went past the knee once to see the throughput stop growing, then came back.
    expect(Math.max(...running)).toBeGreaterThan(128);
    expect(running.at(-1)).toBeGreaterThan(80);
    expect(running.at(-1)).toBeLessThanOrEqual(knee.cap);
  });

  test('on a replica of a pool whose other replicas were found to take 88, the slow start steps no higher than 88, then by a quarter: it finds its own knee, 80 on an equal server, 160 on one twice as large', () => {
    const equal = createThroughputKnee({ ceiling: () => 88 });
    const onEqual = runOnCapacityModel(equal, 300);
    expect(equal.knee).toBeCloseTo(80, 0);
    expect(equal.cap).toBe(88);
    // 16, 64, then 88 and 110 (a quarter more), where the throughput stopped growing: never 256.
    expect(Math.max(...onEqual.caps)).toBe(110);
    const larger = createThroughputKnee({ ceiling: () => 88 });
    const onLarger = runOnCapacityModel(larger, 300, { decode: 16_000, ready: 400, refill: true });
    expect(larger.knee).toBeCloseTo(160, -1);
    expect(Math.max(...onLarger.caps)).toBeLessThan(256);
  });

  test("a slow start that stepped far past its pool's ceiling before the other replicas found theirs comes down to it at once", () => {
    let ceiling: number | null = null;
    const knee = createThroughputKnee({ ceiling: () => ceiling });
    let tokens = 0;
    for (let reading = 1; reading <= 12 && knee.cap < 256; reading++) {
      // No knee within reach: each step of the slow start quadruples the throughput.
      tokens += 0.1 * knee.cap * READING_MS;
      knee.onReading({ running: knee.cap, waiting: 0, generationTokens: tokens }, reading * READING_MS, knee.cap);
    }
    expect(knee.cap).toBe(256);
    ceiling = 88;
    // The router sees the lower cap before the next reading.
    expect(knee.cap).toBe(88);
  });

  test('a slow start whose sequences run well past the knee under a cap its calls do not fill ends there', () => {
    // 200 calls ready against a cap of 256 (a replica's share of a pool's calls): the cap never binds
    // again, yet the knee (80) is found from the windows at 200.
    const knee = createThroughputKnee();
    const { caps } = runOnCapacityModel(knee, 100, { ready: 200 });
    expect(Math.max(...caps)).toBe(256);
    expect(knee.knee).toBeCloseTo(80, 0);
    expect(knee.cap).toBe(88);
  });

  test('on a server whose throughput keeps growing with its batch, a cap that costs throughput grows back', () => {
    // No sharp knee: 2,000 tokens/s × b / (b + 20), so 44% of it at a batch of 16, 93% at 256, 98% at 1,024.
    const throughputOf = (batch: number) => (2000 * batch) / (batch + 20);
    const knee = createThroughputKnee();
    let tokens = 0;
    const caps: number[] = [];
    for (let reading = 1; reading <= 300; reading++) {
      const batch = Math.min(knee.cap, 2000);
      tokens += throughputOf(batch) * 0.5;
      knee.onReading({ running: batch, generationTokens: tokens }, reading * READING_MS, batch);
      caps.push(knee.cap);
    }
    // The knee read from the slow start (the peak over the rate of one sequence at 16: about 35) is too low for this server:
    // the cap went there, then grew back until the server gave at least 90% of the most it was seen to give.
    expect(knee.knee).toBeLessThan(40);
    expect(Math.min(...caps)).toBeLessThan(40);
    expect(throughputOf(caps.at(-1) as number)).toBeGreaterThanOrEqual(0.9 * throughputOf(1024));
    expect(caps.at(-1)).toBeLessThan(1024);
  });

  test('a slow start that overshot and misread the saturated throughput (its window full of prefill) does not hold the cap under the knee: the cap grows while its sequences run at full speed', () => {
    // 8,000 tokens/s at most 100 per sequence (knee 80). Above 200 sequences the server spends a
    // quarter of its time on the prefill of those just admitted, so the window that ends the slow
    // start reads 6,000 tokens/s: a knee of 60.
    const throughputOf = (batch: number) => Math.min(8_000, 100 * batch) * (batch > 200 ? 0.75 : 1);
    const caps = readAtRates(createThroughputKnee(), 200, 500, throughputOf);
    // The misread knee put the cap under 80 for a while, then the cap grew to the knee or above.
    expect(Math.min(...caps.slice(20))).toBeLessThan(80);
    expect(caps.at(-1)).toBeGreaterThanOrEqual(80);
    expect(caps.at(-1)).toBeLessThan(500);
  });

  test('the knee it reports is the one its cap follows: after a misread knee the cap outgrew, the knee is at least the batch that ran at full speed', () => {
    // A server that runs 100 tokens/s per sequence at any batch up to 500 (no knee in reach), but
    // whose slow start read a stalled window at 64 as sharing: a knee of 16. Its sequences then
    // run at full speed at the cap, which grows by a quarter at a time; the knee it reported stayed
    // at 16 (progress: "limit 75 (…, knee 16)" with 75 calls in flight).
    const knee = createThroughputKnee();
    let stalledReadings = 0;
    readAtRates(knee, 400, 500, (batch) => {
      // The first readings at 64 decode no more than the 16 before (a CPU-bound server, a stalled counter).
      const stall = batch === 64 && stalledReadings < 8;
      if (stall) stalledReadings++;
      return (stall ? 16 : batch) * 100;
    });
    expect(knee.cap).toBeGreaterThan(100);
    expect((knee.knee as number) * CAP_OVER_KNEE).toBeGreaterThanOrEqual(knee.cap / 1.25 - 1);
  });

  test('on servers whose readings dip now and then (a stall, a burst of prefill), the cap stays near the knee: a dip is no proof that the cap is under it', () => {
    // Twenty servers of knee 80 (8,000 tokens/s, 100 per sequence), each reading off by up to ±10%
    // and one in thirty a dip to a fifth, read for 1,200 readings with 2,000 calls ready.
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const endCaps: number[] = [];
    for (let server = 0; server < 20; server++) {
      const caps = readAtRates(createThroughputKnee(), 1_200, 2_000, (batch) => {
        const dip = random() < 1 / 30 ? 0.2 : 1;
        return Math.min(8_000, 100 * batch) * (0.9 + 0.2 * random()) * dip;
      });
      endCaps.push(caps.at(-1) as number);
    }
    // Before: a median of 165 and up to 293 (each sequence at less than a third of its speed).
    endCaps.sort((a, b) => a - b);
    expect(endCaps[10]).toBeLessThanOrEqual(1.5 * 80);
    expect(endCaps.at(-1)).toBeLessThan(2 * 80);
    expect(endCaps[0]).toBeGreaterThanOrEqual(80);
  });

  test('a server that counts fewer running than we have in flight (calls in transit) but queues none of them still takes more: the slow start moves on', () => {
    // 8,000 tokens/s at most 100 per sequence; a fifth of our calls are always between us and the
    // server (sent and not yet admitted, finished and not yet received), as when outputs last seconds.
    const knee = createThroughputKnee();
    let tokens = 0;
    let running = 0;
    for (let reading = 1; reading <= 120; reading++) {
      const inFlight = Math.min(knee.cap, 800);
      running = Math.floor(0.8 * inFlight);
      tokens += Math.min(8, running * 0.1) * READING_MS;
      knee.onReading({ running, waiting: 0, generationTokens: tokens }, reading * READING_MS, inFlight);
    }
    // The server ends up running at least its knee (80), not held at the slow start's first steps.
    expect(knee.knee).toBeCloseTo(80, 0);
    expect(running).toBeGreaterThanOrEqual(80);
  });

  test('a run that has fewer calls ready than the knee for a while does not take its own batches for the server\'s saturation', () => {
    // 8,000 tokens/s at most 100 per sequence (knee 80). For the first 80 readings the run has
    // 30 to 100 calls ready (short outputs, problems waiting on their chains), then 800.
    const knee = createThroughputKnee();
    let tokens = 0;
    let running = 0;
    for (let reading = 1; reading <= 200; reading++) {
      const ready = reading <= 80 ? 30 + ((reading * 37) % 71) : 800;
      running = Math.min(knee.cap, ready);
      tokens += Math.min(8, running * 0.1) * READING_MS;
      knee.onReading({ running, waiting: 0, generationTokens: tokens }, reading * READING_MS, running);
    }
    // Within 5% (its batch swung under the knee in most windows), and the server runs at least its knee.
    expect(Math.abs((knee.knee as number) - 80)).toBeLessThan(4);
    expect(running).toBeGreaterThanOrEqual(80);
  });

  test.each([
    ['says how full its KV cache is', true],
    ['says only what it queues', false],
  ])('on a server whose memory holds fewer sequences than its decode could serve (and that %s), the cap never holds it under what its memory holds', (_, saysKv) => {
    // Decode would serve 80 sequences at 100 tokens/s each. Early in the run sequences are short and
    // its KV cache holds 120 of them; then it holds 40, the rest wait in its queue, and it preempts
    // sequences to make room: a quarter of those it counts as running are prefilling again (recompute),
    // so each of them gives three quarters of its rate while the batch is far under the knee.
    const HELD = 40;
    const knee = createThroughputKnee();
    const load = createLoadLimit(800);
    const caps: number[] = [];
    let tokens = 0;
    for (let reading = 1; reading <= 300; reading++) {
      const inFlight = Math.min(knee.cap, load.limit);
      const held = reading <= 12 ? 3 * HELD : HELD;
      const running = Math.min(inFlight, held);
      const waiting = inFlight - running;
      const recomputing = reading <= 12 ? 1 : 0.75;
      tokens += Math.min(8, running * 0.1) * recomputing * READING_MS;
      load.onReading({ running, waiting }, inFlight);
      knee.onReading({ running, waiting, kvUsage: saysKv ? (0.98 * running) / held : null, generationTokens: tokens }, reading * READING_MS, inFlight);
      caps.push(knee.cap);
    }
    expect(Math.min(...caps.slice(20))).toBeGreaterThanOrEqual(HELD);
  });

  test('a server whose memory fills once the slow start has stepped past the knee still gets its knee from the windows that shared the throughput before', () => {
    // Decode serves 80 sequences at 100 tokens/s each. From 64 to 256 the throughput still grows by a
    // quarter (6,400 to 8,000 tokens/s), so the slow start steps on; by then its sequences have grown
    // and the KV cache holds 200 of them: the rest wait, and no later window measures the decode.
    const knee = createThroughputKnee();
    const load = createLoadLimit(800);
    let tokens = 0;
    for (let reading = 1; reading <= 200; reading++) {
      const inFlight = Math.min(knee.cap, load.limit);
      const held = reading <= 15 ? 800 : 200;
      const running = Math.min(inFlight, held);
      const waiting = inFlight - running;
      tokens += Math.min(8, running * 0.1) * READING_MS;
      load.onReading({ running, waiting }, inFlight);
      knee.onReading({ running, waiting, kvUsage: running >= held ? 0.99 : 0.5, generationTokens: tokens }, reading * READING_MS, inFlight);
    }
    expect(knee.knee).toBeCloseTo(80, 0);
    expect(knee.cap).toBe(Math.round(80 * CAP_OVER_KNEE));
  });

  test('a stall at a batch the server already ran at full speed is not its knee: the slow start goes on', () => {
    // 8,000 tokens/s at most 100 per sequence (knee 80). Ten calls run at full speed, then one
    // call stalls at a third of its speed for six seconds (the server, or the client reading it,
    // paused), then 300 calls are ready.
    const knee = createThroughputKnee();
    let tokens = 0;
    for (let reading = 1; reading <= 36; reading++) {
      const ready = reading <= 12 ? 10 : reading <= 24 ? 1 : 300;
      const running = Math.min(knee.cap, ready);
      const stalled = reading > 12 && reading <= 24 ? 1 / 3 : 1;
      tokens += Math.min(8, running * 0.1) * stalled * READING_MS;
      knee.onReading({ running, waiting: 0, generationTokens: tokens }, reading * READING_MS, running);
      // Read as sharing, the stall set a knee of 0.3 sequences and a cap of 4.
      if (reading === 24) expect([knee.knee, knee.cap]).toEqual([null, SLOW_START_CAP]);
    }
    expect(knee.cap).toBeGreaterThanOrEqual(80);
  });

  test('readings at uneven times (two a millisecond apart, one late) still measure: the slow start moves on', () => {
    const knee = createThroughputKnee();
    const rate = 0.1; // tokens per ms per sequence: no knee within reach
    let at = 0;
    let tokens = 0;
    for (let reading = 0; reading < 40; reading++) {
      const step = reading % 5 === 0 ? 1 : reading % 7 === 0 ? 900 : READING_MS;
      at += step;
      tokens += rate * knee.cap * step;
      knee.onReading({ running: knee.cap, generationTokens: tokens }, at, knee.cap);
    }
    expect(knee.cap).toBeGreaterThanOrEqual(SLOW_START_CAP * 16);
    expect(knee.knee).toBeNull();
  });

  test('on a server that other clients share, ours are not capped: that would only hand them our share', () => {
    const knee = createThroughputKnee();
    knee.onReading({ running: 16, generationTokens: 0 }, 0, 16);
    expect(knee.cap).toBe(SLOW_START_CAP);
    // 200 running, 16 of them ours.
    knee.onReading({ running: 200, generationTokens: 1_000 }, READING_MS, 16);
    expect(knee.cap).toBe(Number.POSITIVE_INFINITY);
    // The others are gone: the slow start goes on where it was.
    knee.onReading({ running: 16, generationTokens: 2_000 }, 2 * READING_MS, 16);
    expect(knee.cap).toBe(SLOW_START_CAP);
  });

  test('counted from our streams, the batch is ours, and the server\'s own count still tells that other clients share it', () => {
    const knee = createThroughputKnee();
    knee.onReading({ running: 16, serverRunning: 16, generationTokens: 0 }, 0, 16);
    expect(knee.cap).toBe(SLOW_START_CAP);
    knee.onReading({ running: 16, serverRunning: 200, generationTokens: 1_000 }, READING_MS, 16);
    expect(knee.cap).toBe(Number.POSITIVE_INFINITY);
    knee.onReading({ running: 16, serverRunning: 16, generationTokens: 2_000 }, 2 * READING_MS, 16);
    expect(knee.cap).toBe(SLOW_START_CAP);
  });

  test('a server without a token counter, or one that restarts, never holds calls back for it', () => {
    const none = createThroughputKnee();
    none.onReading({ running: 3, generationTokens: null }, 0, 3);
    expect(none.cap).toBe(Number.POSITIVE_INFINITY);
    const off = createThroughputKnee();
    off.disable();
    expect(off.cap).toBe(Number.POSITIVE_INFINITY);
    // A counter that goes back (a restarted server), or a pause (no calls, so no readings), is not read as a slow server.
    const restarted = createThroughputKnee();
    restarted.onReading({ running: 16, generationTokens: 1_000_000 }, 0, 16);
    restarted.onReading({ running: 16, generationTokens: 1_000_800 }, 500, 16);
    restarted.onReading({ running: 16, generationTokens: 10 }, 1_000, 16);
    restarted.pause();
    for (let reading = 1; reading <= 4; reading++) restarted.onReading({ running: 16, generationTokens: 11 + reading }, 60_000 + reading * 500, 16);
    expect(restarted.knee).toBeNull();
    expect(restarted.cap).toBeGreaterThanOrEqual(SLOW_START_CAP);
  });

  test('when the tokens move to another counter (ours to the server\'s), the knee is measured afresh: a jump is not a throughput', () => {
    const knee = createThroughputKnee();
    let at = 0;
    let tokens = 0;
    // Our streams' count: 16 sequences at 0.1 tokens/ms.
    for (let reading = 0; reading < 6; reading++) {
      knee.onReading({ running: knee.cap, generationTokens: tokens }, (at += READING_MS), knee.cap);
      tokens += 0.1 * knee.cap * READING_MS;
    }
    const inFlight = knee.cap;
    // The server's own counter appears, millions of tokens ahead (other clients, earlier runs).
    knee.restart(inFlight);
    tokens += 5_000_000;
    for (let reading = 0; reading < 12; reading++) {
      knee.onReading({ running: Math.min(knee.cap, 300), generationTokens: tokens }, (at += READING_MS), Math.min(knee.cap, 300));
      tokens += 0.1 * Math.min(knee.cap, 300) * READING_MS;
      expect(knee.cap).toBeGreaterThanOrEqual(inFlight);
    }
    expect(knee.knee).toBeNull();
  });
});
