/**
 * A whole JSON reply whose body never ends while its connection stays open:
 * a `Content-Length` larger than the body, a chunked body whose last, empty
 * chunk a proxy holds back. Its JSON is all there: the reply is taken after
 * the grace (2 s) without a byte, once, not waited out to --timeout and sent
 * again. A body that pauses after a `}` inside its JSON is still read to its
 * end. Real servers over real sockets.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { createGateway, type Completion } from '../../../src/gateway/gateway.ts';
import { additionRequest, chatCompletionBody, serveHttp } from '../../fixtures.ts';

const BODY = chatCompletionBody('The answer is 2.');

/** One call (streamed unless `stream` is false) to a server that answers with `send`; what came back, how long it took, how many requests the server had. */
async function callTo(send: (res: ServerResponse) => void, stream = false) {
  const server = await serveHttp((_req, res) => send(res));
  // An idle limit of 8 s: before, each attempt waited it out, and was sent again.
  const gateway = createGateway({ concurrency: 2, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 8_000, stream });
  const started = performance.now();
  try {
    const result = (await gateway.complete(additionRequest(server.url, 1, 1000)).catch((error: unknown) => error)) as Completion;
    return { result, ms: performance.now() - started, requests: server.requests() };
  } finally {
    gateway.close();
    await server.close();
  }
}

describe('a whole JSON reply whose body never ends', () => {
  // Before: 16 s (two attempts, each cut at the 8 s idle limit), 2 requests, the call failed: "no byte from the server for 8 s".
  test.for([
    ['a Content-Length 10 bytes past the body', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY) + 10) }).write(BODY)],
    ['a chunked body without its last chunk', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).write(BODY)],
    ['a chunked body without its last chunk, white space after the JSON', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).write(`${BODY}\n`)],
  ] as const)('%s: taken after the grace, in one attempt', async ([, send]) => {
    const { result, ms, requests } = await callTo(send);
    expect(result).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', attempts: 1 });
    expect(requests).toBe(1);
    expect(ms).toBeGreaterThan(1_900);
    expect(ms).toBeLessThan(6_000);
  });

  test('the same to a streamed request (a server that answers with JSON whatever it is asked)', async () => {
    const { result, requests } = await callTo((res) => res.writeHead(200, { 'content-type': 'application/json' }).write(BODY), true);
    expect(result).toMatchObject({ content: 'The answer is 2.', attempts: 1 });
    expect(requests).toBe(1);
  });

  test('a body that pauses 3 s after a } inside its JSON is read to its end, not cut', async () => {
    const cut = BODY.indexOf('}') + 1;
    const { result, requests } = await callTo((res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).write(BODY.slice(0, cut));
      setTimeout(() => res.end(BODY.slice(cut)), 3_000);
    });
    expect(result).toMatchObject({ content: 'The answer is 2.', attempts: 1 });
    expect(requests).toBe(1);
  });
});
