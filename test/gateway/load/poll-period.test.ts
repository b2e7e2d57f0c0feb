/**
 * The period of a server's load readings follows how fast its sequences
 * decode: a real reasoning model is read every 500 ms, a simulator running
 * 200 times faster than real time every 25 ms, and a server that gives no
 * pace at all is not read quickly for long.
 */
import { describe, expect, test } from 'vitest';
import { createPollPeriod, FASTEST_MS, READ_EVERY_TOKENS } from '../../../src/gateway/load/poll-period.ts';

/** Feeds `period` readings of a server whose `running` sequences each decode `pace` tokens per ms. */
function readServer(period: ReturnType<typeof createPollPeriod>, pace: number, running: number, readings: number): void {
  let tokens = 0;
  let at = 0;
  for (let reading = 0; reading < readings; reading++) {
    period.onReading(tokens, running, at);
    const ms = period.ms;
    at += ms;
    tokens += pace * running * ms;
  }
}

describe('load reading period', () => {
  test('a server decoding 100 tokens/s per sequence is read every 500 ms, one 200 times faster every 25 ms', () => {
    const real = createPollPeriod(500);
    readServer(real, 0.1, 80, 30);
    expect(real.ms).toBe(500);

    const simulated = createPollPeriod(500);
    readServer(simulated, 0.1 * 200, 80, 30);
    expect(simulated.ms).toBe(FASTEST_MS);

    // In between: a read each time a sequence decodes READ_EVERY_TOKENS tokens.
    const fast = createPollPeriod(500);
    readServer(fast, 1, 80, 30);
    expect(fast.ms).toBeCloseTo(READ_EVERY_TOKENS / 1, 5);
  });

  test('before any pace is known the first readings come quickly; a server that never gives one is read every maxMs', () => {
    const period = createPollPeriod(500);
    expect(period.ms).toBe(FASTEST_MS);
    for (let reading = 0; reading < 100; reading++) period.onReading(null, 0, reading * 25);
    expect(period.ms).toBe(500);
  });

  test('without a counter, the pace of ended calls sets it; short calls and one odd interval do not', () => {
    const period = createPollPeriod(500);
    // 12,000 tokens in 6 s: 2 tokens per ms, a read every 50 ms.
    for (let call = 0; call < 5; call++) period.onCall(12_000, 6_000);
    expect(period.ms).toBeCloseTo(50, 5);
    // A one-token call "decoded" in 0.01 ms says nothing.
    period.onCall(1, 0.01);
    expect(period.ms).toBeCloseTo(50, 5);

    const counted = createPollPeriod(500);
    readServer(counted, 0.1, 80, 30);
    // One reading a microsecond after the last (a jittery clock) gives an absurd pace; the median ignores it.
    counted.onReading(1e9, 80, 30 * 500 + 0.001);
    expect(counted.ms).toBe(500);
  });

  test('--load-poll-ms below the fastest period is the period', () => {
    expect(createPollPeriod(10).ms).toBe(10);
    expect(() => createPollPeriod(0)).toThrow(/maxMs/);
  });
});
