/**
 * Replies whose last line came without the end that closes it, the body never
 * ending after it: all of the reply is there, and it is taken in one attempt.
 * A whole JSON reply whose trailing newline came in a read of its own (a
 * server that writes the JSON, then its line end); a stream closed by a
 * `data: [DONE]` line without the blank line that ends an event (`[DONE]` is
 * unambiguous once its line has ended). Real servers over real sockets.
 */
import { expect, test } from 'vitest';
import { createGateway, type Completion } from '../../../src/gateway/gateway.ts';
import { additionRequest, chatChunkEvent, chatCompletionBody, serveHttp } from '../../fixtures.ts';

/** Asks `handler`'s server for one reply, streamed or not; expects it taken in one attempt, well within the 8 s idle limit. */
async function expectOneAttempt(handler: Parameters<typeof serveHttp>[0], stream: boolean): Promise<void> {
  const server = await serveHttp(handler);
  const gateway = createGateway({ concurrency: 1, maxRetries: 2, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 8_000, stream });
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
}

// Before: the read of white space alone cleared the `}` seen before it: 16 s (two attempts each cut at the 8 s idle limit), 2 requests, failed.
test('a JSON body, then its newline written apart, then nothing: taken after the grace, in one attempt', async () => {
  const json = chatCompletionBody('Four.');
  await expectOneAttempt((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(json) + 64) }).write(json);
    // Apart, so that it arrives in a read of its own.
    setTimeout(() => res.write('\r\n'), 200);
  }, false);
}, 30_000);

// Before: each attempt waited for the idle limit and was sent again, each paid (3 requests), then failed.
test('a data: [DONE] line without its blank line after chunks with no finish reason, the connection held open: taken in one attempt', async () => {
  await expectOneAttempt((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' }).write(`${chatChunkEvent({ role: 'assistant', content: 'Four.' })}data: [DONE]\n`);
  }, true);
}, 60_000);
