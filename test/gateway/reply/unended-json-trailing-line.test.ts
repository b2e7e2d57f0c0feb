/**
 * A whole JSON reply whose trailing newline came in a read of its own (a
 * server that writes the JSON, then its line end), the body never ending
 * after it: its JSON is all there, and is taken after the grace, as when
 * the newline came with it. Real server over a real socket.
 */
import { expect, test } from 'vitest';
import { createGateway, type Completion } from '../../../src/gateway/gateway.ts';
import { additionRequest, chatCompletionBody, serveHttp } from '../../fixtures.ts';

// Before: the read of white space alone cleared the `}` seen before it: 16 s (two attempts each cut at the 8 s idle limit), 2 requests, failed.
test('a JSON body, then its newline written apart, then nothing: taken after the grace, in one attempt', async () => {
  const json = chatCompletionBody('Four.');
  const server = await serveHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(json) + 64) }).write(json);
    // Apart, so that it arrives in a read of its own.
    setTimeout(() => res.write('\r\n'), 200);
  });
  const gateway = createGateway({ concurrency: 1, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 8_000, stream: false });
  const started = performance.now();
  try {
    const result = (await gateway.complete(additionRequest(server.url, 2, 2)).catch((error: unknown) => error)) as Completion;
    expect(result).toMatchObject({ content: 'Four.', attempts: 1 });
    expect(server.requests()).toBe(1);
    expect(performance.now() - started).toBeLessThan(6_000);
  } finally {
    gateway.close();
    await server.close();
  }
}, 30_000);
