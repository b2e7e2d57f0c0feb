/**
 * /metrics pages as servers and the exporters in front of them write them,
 * read over a real socket: OpenMetrics (exemplars, `# UNIT`, `# EOF`,
 * `_created` samples, timestamps in seconds), labels that hold braces and
 * spaces, values in scientific notation, NaN and +Inf, CRLF line ends, gzip.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { readServerLoad } from '../../../src/gateway/load/server-load.ts';
import { createHttpTransport } from '../../../src/gateway/request/http-transport.ts';

/** Serves `page` at /metrics, gzip-compressed, as OpenMetrics; returns the load tmas reads from it. */
async function loadServed(page: string) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/openmetrics-text; version=1.0.0; charset=utf-8', 'content-encoding': 'gzip' });
    res.end(gzipSync(page));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const transport = createHttpTransport();
  try {
    return (await readServerLoad(transport, `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`))?.load ?? null;
  } finally {
    transport.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('/metrics pages as exporters write them', () => {
  test('an OpenMetrics page with exemplars, seconds timestamps, _created samples and # EOF reads the counter, not the exemplar', async () => {
    const page = [
      '# TYPE vllm:num_requests_running gauge',
      '# UNIT vllm:num_requests_running requests',
      'vllm:num_requests_running{engine="0",model_name="org/{m} v2"} 12',
      'vllm:num_requests_running{engine="1",model_name="org/{m} v2"} 1.2e1',
      'vllm:num_requests_waiting{engine="0",model_name="org/{m} v2"} NaN',
      'vllm:num_requests_waiting{engine="1",model_name="org/{m} v2"} 3',
      'vllm:kv_cache_usage_perc{engine="0",model_name="org/{m} v2"} +Inf',
      'vllm:kv_cache_usage_perc{engine="1",model_name="org/{m} v2"} 0.25',
      '# TYPE vllm:generation_tokens counter',
      'vllm:generation_tokens_total{engine="0",model_name="org/{m} v2"} 1.5e6 1700000000.25 # {trace_id="7f}a"} 1.0 1700000000.1',
      'vllm:generation_tokens_created{engine="0",model_name="org/{m} v2"} 1.7e9',
      'vllm:generation_tokens_total{engine="1",model_name="org/{m} v2"} 500000 1700000000.5 # {trace_id="b"} 2.0',
      'vllm:generation_tokens_created{engine="1",model_name="org/{m} v2"} 1.7e9',
      '# EOF',
    ].join('\r\n');
    // The waiting engine that says NaN, and the cache fraction that says +Inf, are left out; the counter's stamp in seconds reads as ms.
    expect(await loadServed(page)).toEqual({ running: 24, waiting: 3, kvUsage: 0.25, generationTokens: 2_000_000, generationTokensAtMs: 1_700_000_000_500 });
  });
});
