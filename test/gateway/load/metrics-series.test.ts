/**
 * A server's /metrics as data-parallel servers serve them: one series per
 * engine, and an engine (or the whole counter) that misses a scrape now and
 * then. Real node:http servers that decode at a known knee, the real gateway
 * over real sockets; the cap it settles at is compared with a clean server's.
 */
import { describe, expect, test } from 'vitest';
import { KNEE, settle, type Settled } from './decoding-server.ts';
import { SeriesContinuity } from '../../../src/gateway/load/series-continuity.ts';
import { parseMetricsReading } from '../../../src/gateway/load/server-load.ts';

describe('metrics of data-parallel engines', () => {
  // Before, an engine missing one scrape in five left the server with no knee and 146 of the 150
  // calls on it, and a counter missing one in five turned the cap off (148 on it); a clean server 43.
  test.each([
    ['a clean server of two engines', { engineMissingEvery: 0, counterMissingEvery: 0 }],
    ['an engine that misses one scrape in five', { engineMissingEvery: 5, counterMissingEvery: 0 }],
    ['a token counter absent from one scrape in five', { engineMissingEvery: 0, counterMissingEvery: 5 }],
  ])('%s: the cap settles near the knee, neither flooding the server nor throttling it', async (_, faults) => {
    // Ends once a second's batch lies near the server's knee; a defect that floods or throttles never gets there and
    // fails after 15 s. A fixed 5 s by the clock settled too late on a machine at a load of 13, and made every run wait it out.
    const near = ({ knee, kneeSource, running }: Settled) => kneeSource === 'server' && knee !== null && running >= KNEE * 0.6 && running <= KNEE * 1.5;
    const settled = await settle(faults, 15_000, {}, undefined, near);
    expect(settled.kneeSource).toBe('server');
    expect(settled.knee).not.toBeNull();
    expect(settled.running).toBeGreaterThanOrEqual(KNEE * 0.6);
    expect(settled.running).toBeLessThanOrEqual(KNEE * 1.5);
  }, 30_000);
});

describe('series over readings', () => {
  const page = (engines: Array<[string, number]>) =>
    engines.map(([labels, tokens]) => `vllm:num_requests_running{${labels}} 1\nvllm:num_requests_waiting{${labels}} 0\nvllm:generation_tokens_total{${labels}} ${tokens}\n`).join('');
  const read = (continuity: SeriesContinuity, text: string) => {
    const reading = parseMetricsReading(text);
    if (reading === null) throw new Error('not a page');
    return continuity.accept(reading)?.generationTokens ?? null;
  };

  test('a page short of an engine is set aside, the counter summed from each series; a relabelled page (a restart) is taken at once', () => {
    const continuity = new SeriesContinuity();
    expect(read(continuity, page([['engine="0"', 100], ['engine="1"', 100]]))).toBe(200);
    expect(read(continuity, page([['engine="0"', 110]]))).toBeNull();
    expect(read(continuity, page([['engine="0"', 120], ['engine="1"', 120]]))).toBe(240);
    // Engine 1 restarted alone: it counts from 0.
    expect(read(continuity, page([['engine="0"', 130], ['engine="1"', 5]]))).toBe(255);
    // A server restarted with other labels: its raw sum, measured afresh.
    expect(read(continuity, page([['engine="0",model_name="other"', 7]]))).toBe(7);
  });
});
