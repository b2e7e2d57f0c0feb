/**
 * Keep-alives a proxy or server sends inside a stream while a generation
 * runs, read through the gateway over real sockets: comments (`: ping`),
 * events with no data (`data:` and a blank line), which some proxies
 * send every few seconds instead, and data of words (`data: ping`), which
 * other proxies and gateways send.
 */
import { describe, expect, test } from 'vitest';
import { createGateway, type Completion } from '../../../src/gateway/gateway.ts';
import { CallFailedError } from '../../../src/gateway/request/call-failed.ts';
import { additionRequest, chatChunkEvent, serveHttp } from '../../fixtures.ts';

/** A stream of two text chunks and a finish, with `keepAlive` before, between and after them, then `[DONE]`. */
function streamWith(keepAlive: string): string {
  return keepAlive + chatChunkEvent({ role: 'assistant', content: 'The answer ' }) + keepAlive + chatChunkEvent({ content: 'is \\boxed{2}.' }) + keepAlive + chatChunkEvent({}, 'stop') + keepAlive + 'data: [DONE]\n\n';
}

describe('keep-alives inside a stream are not events', () => {
  test.for([
    ['a comment', ': ping - 2026-01-01 00:00:00\n\n'],
    ['an empty data line', 'data:\n\n'],
    ['a data line of spaces', 'data:   \n\n'],
    ['an empty data line with an id', 'id: 7\ndata:\n\n'],
  ] as const)('%s: the reply is read at its first attempt (before, for an empty data line: retried until it failed)', async ([, keepAlive]) => {
    const server = await serveHttp((_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(streamWith(keepAlive)));
    const gateway = createGateway({ concurrency: 1, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 30_000 });
    try {
      const reply = await gateway.complete(additionRequest(server.url)).catch((error: unknown) => error);
      expect(reply).toMatchObject({ content: 'The answer is \\boxed{2}.', finishReason: 'stop', attempts: 1 } satisfies Partial<Completion>);
      expect(server.requests()).toBe(1);
    } finally {
      gateway.close();
      await server.close();
    }
  });
});

describe('data that is no JSON object is a keep-alive, told once per endpoint', () => {
  test.for([
    ['data: ping', 'data: ping\n\n'],
    ['data: keep-alive', 'data: keep-alive\n\n'],
    ['data: null', 'data: null\n\n'],
    ['data: [DONE] with a space after it, closing the stream', ''],
  ] as const)('%s: both calls read at their first attempt, one warning (before: retried until they failed, SyntaxError or TypeError)', async ([, keepAlive]) => {
    const body = keepAlive === '' ? streamWith('').replace('data: [DONE]\n\n', 'data: [DONE] \n\n') : streamWith(keepAlive);
    const server = await serveHttp((_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(body));
    const told: string[] = [];
    const gateway = createGateway({ concurrency: 1, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 30_000, onKeepAlive: (endpoint, data) => told.push(`${endpoint} ${data}`) });
    try {
      for (const seed of [1, 2]) {
        const reply = await gateway.complete(additionRequest(server.url, seed)).catch((error: unknown) => error);
        expect(reply).toMatchObject({ content: 'The answer is \\boxed{2}.', finishReason: 'stop', attempts: 1 } satisfies Partial<Completion>);
      }
      expect(server.requests()).toBe(2);
      expect(told).toEqual(keepAlive === '' ? [] : [`${server.url} ${keepAlive.slice(6, -2)}`]);
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test.for([
    ['data that opens with { and does not parse', 'data: {"choices": [{"delta": {"content": "is \\boxed{3}."\n\n'],
    ['data that names a chunk\'s keys without its opening {', 'data: "choices": [{"index": 0, "delta": {"content": "is \\boxed{3}."}}]}\n\n'],
  ] as const)('%s is a damaged reply: retried, never the answer', async ([, damaged]) => {
    const server = await serveHttp((_req, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(streamWith(damaged)));
    const told: string[] = [];
    const gateway = createGateway({ concurrency: 1, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 30_000, onKeepAlive: (_endpoint, data) => told.push(data) });
    try {
      const reply = await gateway.complete(additionRequest(server.url)).catch((error: unknown) => error);
      expect(reply).toBeInstanceOf(CallFailedError);
      expect(server.requests()).toBe(2);
      expect(told).toEqual([]);
    } finally {
      gateway.close();
      await server.close();
    }
  });
});
