/**
 * A server whose /metrics our own streams belie: its gauges say 0 running
 * whatever runs (a stuck exporter, a gateway answering /metrics of its own),
 * its counter still counting. A real node:http server and the real gateway.
 */
import { expect, test } from 'vitest';
import { metricsUnusedWatch, settle } from './decoding-server.ts';

test('metrics that say 0 running while our calls stream are not used, the user is told once, and the server is not held at the slow start', async () => {
  const { told, once, onMetricsUnused } = metricsUnusedWatch();
  // Watched for 3 s once the metrics are set aside (5 s of readings that belie them, longer under load).
  const settled = await settle({ engineMissingEvery: 0, counterMissingEvery: 0, gaugesAtZero: true }, 3_000, { onMetricsUnused }, once);
  // Before, the windows of a batch of 0 measured nothing: the slow start's 16 calls for the whole run.
  expect(settled.running).toBeGreaterThan(32);
  expect(told).toHaveLength(1);
  expect(told[0]?.reason).toMatch(/its \/metrics said 0 requests running or queued while \d+ of ours streamed from it/);
});
