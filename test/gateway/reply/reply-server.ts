/**
 * One call through the gateway to a server of a test's own that answers with
 * the reply a test writes (a stream of chunk events, or a whole body): the
 * reply shapes of other servers, read as the gateway reads them, with the
 * run's tokenizer on a pool. Shared by the tests of reply shapes and of the
 * reasoning tokens a reply's limits hold.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { CallFailedError, createGateway, type GatewayOptions } from '../../../src/gateway/gateway.ts';
import { createPool, type Pool } from '../../../src/pool/pool.ts';
import { additionRequest, serveHttp } from '../../fixtures.ts';

/** One chunk event of choice `index`, with `usage` when given. */
export function chunk(delta: Record<string, unknown>, finishReason: string | null = null, usage: Record<string, unknown> | null = null, index: number | string = 0): string {
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index, delta, finish_reason: finishReason }], ...(usage === null ? {} : { usage }) })}\n\n`;
}

/** A whole event stream of `events`, ended by [DONE]. */
export function stream(events: string[]): (res: ServerResponse) => void {
  return (res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`${events.join('')}data: [DONE]\n\n`);
}

/** `pairs` times "more text", spaced: two o200k tokens each. */
export function words(pairs: number): string {
  return Array.from({ length: pairs }, () => 'more text').join(' ');
}

/** Starts a pool for the file's tests (closed after them); the calls made through it. */
export function replyCalls() {
  let pool: Pool;
  beforeAll(() => {
    pool = createPool({ threads: 1 });
  });
  afterAll(async () => {
    await pool.close();
  });

  /** The gateway's options with the run's tokenizer (o200k_base, on the pool), one retry, short backoffs. */
  function options(extra: Partial<GatewayOptions> = {}): GatewayOptions {
    const countTokens = (texts: string[], signal: AbortSignal | undefined) => pool.countTokens(texts, signal === undefined ? {} : { signal });
    return { concurrency: 4, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 60_000, countTokens, ...extra };
  }

  /** One call of `maxTokens` (the window leaving it `room`, when given) to a server answering with `send`; its result (a completion or the error) and the gateway's stats. */
  async function callTo(send: (res: ServerResponse) => void, maxTokens = 1000, extra: Partial<GatewayOptions> = {}, room?: number) {
    const server = await serveHttp((_req, res) => send(res));
    const gateway = createGateway(options(extra));
    try {
      const result = await gateway.complete({ ...additionRequest(server.url, 1, maxTokens), ...(room === undefined ? {} : { room }) }).catch((error: unknown) => error as CallFailedError);
      return { result, stats: gateway.stats };
    } finally {
      gateway.close();
      await server.close();
    }
  }

  return { callTo };
}
