/**
 * A server whose /metrics answer 404 (an HTML page) when the run starts and
 * appear later (SGLang started before its exporter, a proxy's route added):
 * they are asked again, a bounded number of times, spaced farther each time.
 * A real node:http server and the real gateway.
 */
import { expect, test } from 'vitest';
import { createEndpointState } from '../../../src/gateway/endpoints/endpoint-state.ts';
import { RECHECKS, recheckDue, scheduleRechecks } from '../../../src/gateway/endpoints/metrics-recheck.ts';
import { settle } from './decoding-server.ts';

test('metrics that answer 404 for the first 1.5 s are read once they appear, and the user is told once', async () => {
  const told: string[] = [];
  // Ends once the knee comes from the server and the user was told; given up for the run, as before, it waits the 8 s out and fails.
  const found = ({ kneeSource }: { kneeSource: string | null }) => kneeSource === 'server' && told.length > 0;
  const settled = await settle({ engineMissingEvery: 0, counterMissingEvery: 0, metricsFromMs: 1_500 }, 8_000, { onMetricsFound: (endpoint) => told.push(endpoint) }, undefined, found);
  // Before, three 404s gave them up for the run: the knee came from our streams, and /metrics was asked 3 times in 8 s.
  expect(settled.kneeSource).toBe('server');
  expect(told).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)]);
}, 30_000);

test('metrics that never appear are asked again a few times, not on every reading', async () => {
  const told: string[] = [];
  const settled = await settle({ engineMissingEvery: 0, counterMissingEvery: 0, metricsFromMs: 60_000 }, 5_000, { onMetricsFound: (endpoint) => told.push(endpoint) });
  // Three misses give them up; with readings every 20 ms, asked again 1.2 s after, then 2.4 s after that (the next, 4.8 s
  // later, falls past the end); before, never again (3 asks). The schedule itself is the next test's.
  expect(settled.metricsAsked).toBeGreaterThanOrEqual(4);
  expect(settled.metricsAsked).toBeLessThanOrEqual(5);
  expect(settled.kneeSource).not.toBe('server');
  expect(told).toEqual([]);
}, 30_000);

test('a page given up is asked again RECHECKS times at most: 60 periods after, then 120, 240, 480 and 960 apart', () => {
  const state = createEndpointState('http://127.0.0.1:1/v1', { baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKey: 'k' }, { concurrency: 8, serverQueue: 'short', stream: true, maxPollMs: 500 });
  // None before its metrics are given up.
  expect(recheckDue(state)).toBe(false);
  scheduleRechecks(state);
  expect(Math.round((state.metrics.recheckAt - performance.now()) / 500)).toBe(60);
  const waits: number[] = [];
  for (let ask = 0; ask < 20; ask++) {
    state.metrics.recheckAt = 0;
    const before = performance.now();
    if (!recheckDue(state)) break;
    waits.push(Math.round((state.metrics.recheckAt - before) / 500));
  }
  expect(RECHECKS).toBe(8);
  expect(waits).toEqual([120, 240, 480, 960, 960, 960, 960, 960]);
});
