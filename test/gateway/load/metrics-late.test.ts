/**
 * A server whose /metrics answered while it was idle and then answer late
 * under our calls (seconds, past the first wait of 2 s), or not at all (a
 * 404 midway). A real node:http server and the real gateway.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { readServerLoad } from '../../../src/gateway/load/server-load.ts';
import { createHttpTransport } from '../../../src/gateway/request/http-transport.ts';
import { metricsUnusedWatch, settle } from './decoding-server.ts';

test('metrics that come 2.5 s late under load are waited for: the server is not held at the slow start', async () => {
  const settled = await settle({ engineMissingEvery: 0, counterMissingEvery: 0, slowMetricsMs: 2_500 }, 12_000);
  // Before, every reading after the first two timed out and the slow start's 16 calls held for the rest of the run.
  expect(settled.running).toBeGreaterThan(32);
}, 30_000);

test('metrics that go away midway (a 404) are no longer used, and the user is told once', async () => {
  const { told, once, onMetricsUnused } = metricsUnusedWatch();
  // Watched for a second after the user is told: 5 unanswered readings at up to 8 s each come later on a loaded machine.
  const settled = await settle({ engineMissingEvery: 0, counterMissingEvery: 0, metricsGoneAfter: 10 }, 1_000, { onMetricsUnused }, once);
  // Before, the cap stayed where the last reading left it, silently, and /metrics was asked for every 20 ms to the end.
  expect(told.map(({ reason }) => reason)).toEqual([expect.stringMatching(/its \/metrics went unanswered 5 times in a row/)]);
  expect(settled.kneeSource).not.toBe('server');
}, 45_000);

test('a wait measured from an answer (a fraction of a ms) still reads the page', async () => {
  const server = createServer((_, res) => res.end('vllm:num_requests_running 3\nvllm:num_requests_waiting 1\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const transport = createHttpTransport();
  try {
    // Before, AbortSignal.timeout threw on 2500.4 ms: every reading after one that took over a second failed at once,
    // and a server first read while it answered in 1.5 s lost its metrics after 3 such readings, silently.
    const reading = await readServerLoad(transport, `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`, {}, 2_500.4);
    expect(reading?.load).toMatchObject({ running: 3, waiting: 1 });
  } finally {
    transport.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
