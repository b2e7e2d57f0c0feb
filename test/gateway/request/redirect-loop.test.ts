/**
 * A server (or a proxy's rule) that redirects in a loop, over real sockets:
 * the loop is not followed further, and the call fails naming it, not with
 * advice to give the base URL that was given.
 */
import { createServer } from 'node:http';
import { describe, expect } from 'vitest';
import { CallFailedError, createGateway } from '../../../src/gateway/gateway.ts';
import { additionRequest, listening, test } from '../../fixtures.ts';

/** A server that answers every chat request with a 307 to `target(path)`; resolves its URL, the requests it got, and close. */
async function redirecting(target: (path: string) => string) {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    if (req.url?.endsWith('/metrics')) return void res.writeHead(404).end();
    requests++;
    res.writeHead(307, { location: target(req.url ?? '/') }).end();
  });
  const { url, close } = await listening(server);
  return { url, requests: () => requests, close };
}

/** The failure of one call against `server`. */
async function failure(server: { url: string }): Promise<CallFailedError> {
  const gateway = createGateway({ concurrency: 2, timeoutMs: 5_000, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 } });
  try {
    return (await gateway.complete(additionRequest(server.url)).catch((error: unknown) => error)) as CallFailedError;
  } finally {
    gateway.close();
  }
}

describe('a redirect loop', () => {
  test('a 307 to the address asked: one request, TMAS_REDIRECTED naming the loop', async () => {
    const server = await redirecting((path) => path);
    try {
      const failed = await failure(server);
      expect(failed.code).toBe('TMAS_REDIRECTED');
      // Before: 6 requests, and 'a redirect to /v1/chat/completions: give the base URL /v1 on the same server', the base URL given.
      expect(failed.message).toMatch(/redirects in a loop \(http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions -> http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions\): the server or a proxy in front of it is misconfigured/);
      expect(failed.message).not.toMatch(/give the base URL/);
      expect(server.requests()).toBe(1);
    } finally {
      await server.close();
    }
  });

  test('between two addresses (/v1 to /v2 and back): two requests, the chain named', async () => {
    const server = await redirecting((path) => (path.startsWith('/v1/') ? path.replace('/v1/', '/v2/') : path.replace('/v2/', '/v1/')));
    try {
      const failed = await failure(server);
      expect(failed.code).toBe('TMAS_REDIRECTED');
      expect(failed.message).toMatch(/redirects in a loop \([^)]*\/v1\/chat\/completions -> [^)]*\/v2\/chat\/completions -> [^)]*\/v1\/chat\/completions\)/);
      expect(server.requests()).toBe(2);
    } finally {
      await server.close();
    }
  });
});
