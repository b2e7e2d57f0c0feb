/**
 * Keep-alives a proxy or server sends inside a stream while a generation
 * runs, read through the gateway over real sockets: comments (`: ping`),
 * and events with no data (`data:` and a blank line), which some proxies
 * send every few seconds instead.
 */
import { describe, expect, test } from 'vitest';
import { createGateway, type Completion } from '../src/gateway/gateway.ts';
import { additionRequest, chatChunkEvent, serveHttp } from './fixtures.ts';

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
