/**
 * A pool of replicas where one lists the model asked for but answers with
 * another (a node restarted with another checkpoint behind the same name, a
 * server that ignores `model`), over real sockets: its replies are never
 * counted, it is drained, and the calls end on its siblings. A dated name
 * (`tmas-sim-2024-08-06`, as hosted APIs answer) is the model asked, and a
 * name every replica answers with is an alias, counted as before.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { createGateway, type CompletionRequest, type Gateway } from '../../../src/gateway/gateway.ts';
import { chatChunkEvent, serveHttp } from '../../fixtures.ts';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A replica that lists `tmas-sim` and streams `answer` under the model name `named`; counts the run's completions (the openai client's, not a drained replica's probes). */
async function replica(named: string, answer: string, delayMs = 10, probeNamed: string | null = named): Promise<{ url: string; completions: () => number }> {
  let completions = 0;
  const server = await serveHttp((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.endsWith('/models')) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'tmas-sim', object: 'model' }] }));
    if (req.headers['x-stainless-lang'] !== undefined) completions++;
    // A drained replica's probe: a whole one-token reply, naming `probeNamed` (or no model).
    else return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'p', object: 'chat.completion', created: 0, ...(probeNamed === null ? {} : { model: probeNamed }), choices: [{ index: 0, message: { role: 'assistant', content: 'p' }, finish_reason: 'length' }] }));
    const usage = 'data: {"id":"x","object":"chat.completion.chunk","created":0,"model":"m","choices":[],"usage":{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}}\n\n';
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`${chatChunkEvent({ role: 'assistant', content: answer }, null, named)}${chatChunkEvent({}, 'stop', named)}${usage}data: [DONE]\n\n`), delayMs);
  });
  closers.push(server.close);
  return { url: `${server.url.replace(/\/$/, '')}/v1`, completions: () => completions };
}

function gatewayOf(told: string[] = []): Gateway {
  const gateway = createGateway({ concurrency: 8, timeoutMs: 10_000, maxRetries: 3, backoff: { baseMs: 20, capMs: 200 }, routing: 'least-loaded', onRetry: (event) => void told.push(event.error) });
  closers.push(() => gateway.close());
  return gateway;
}

/** `count` calls to the pool of `urls`, `rounds` times over, all of a round at once. */
async function calls(gateway: Gateway, urls: string[], count: number, rounds = 1) {
  const call = (seed: number): CompletionRequest => ({ endpoint: { baseUrl: urls[0] as string, model: 'tmas-sim', apiKey: 'k', replicas: urls }, messages: [{ role: 'user', content: `Call ${seed}: what is 6 times 7?` }], maxTokens: 50, seed });
  const replies = [];
  for (let round = 0; round < rounds; round++) replies.push(...(await Promise.all(Array.from({ length: count }, (_, seed) => gateway.complete(call(round * count + seed))))));
  return replies;
}

const drainedOf = (gateway: Gateway, url: string) => gateway.stats.endpoints.find((endpoint) => endpoint.baseUrl === url)?.drained;

describe('a replica of a pool that answers with another model', () => {
  test('is drained, and none of its replies is counted: every call is answered by the replica serving the model', async () => {
    const good = await replica('tmas-sim', 'The answer is 42.');
    // Slower than its sibling: a reply that comes before any sibling has answered with the name asked is counted, and warned about, as on a lone endpoint.
    const other = await replica('llama-3-8b-instruct', 'The answer is 41.', 40);
    const gateway = gatewayOf();
    const replies = await calls(gateway, [good.url, other.url], 16, 3);
    // Before: about half of the 48 replies were the other model's ("41"), counted, and the replica stayed in the pool.
    expect(replies.filter((reply) => reply.content !== 'The answer is 42.')).toEqual([]);
    expect(replies.every((reply) => reply.replica === good.url)).toBe(true);
    expect(gateway.stats.failures).toBe(0);
    expect(drainedOf(gateway, other.url)).toBe(true);
    // Drained by its first replies: the calls in flight when they came, no more.
    expect(other.completions()).toBeLessThanOrEqual(8);
  });

  test('its probe, answered without a model name, keeps it out and is told as naming no model', async () => {
    const good = await replica('tmas-sim', 'The answer is 42.');
    const other = await replica('llama-3-8b-instruct', 'The answer is 41.', 40, null);
    const told: string[] = [];
    const gateway = gatewayOf(told);
    await calls(gateway, [good.url, other.url], 16, 3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(drainedOf(gateway, other.url)).toBe(true);
    // Before: 'replica answers, but serves , not tmas-sim'.
    expect(told).toContain('replica answers, but serves a model its reply does not name, not tmas-sim: it takes no call until it serves tmas-sim');
  });

  test("a dated name of the model asked (a hosted API's) is the model: nothing refused, nothing drained", async () => {
    const dated = await replica('tmas-sim-2024-08-06', 'The answer is 42.');
    const plain = await replica('tmas-sim', 'The answer is 42.');
    const gateway = gatewayOf();
    const replies = await calls(gateway, [dated.url, plain.url], 16, 2);
    expect(replies).toHaveLength(32);
    expect(gateway.stats.retries).toBe(0);
    expect(drainedOf(gateway, dated.url)).toBe(false);
    expect(replies.some((reply) => reply.replica === dated.url)).toBe(true);
  });

  test('a name every replica answers with is an alias the pool shares: its replies are counted, and no replica is drained', async () => {
    const first = await replica('served-alias', 'The answer is 42.');
    const second = await replica('served-alias', 'The answer is 42.');
    const gateway = gatewayOf();
    const replies = await calls(gateway, [first.url, second.url], 16, 2);
    expect(replies).toHaveLength(32);
    expect(gateway.stats.failures).toBe(0);
    expect(drainedOf(gateway, first.url)).toBe(false);
    expect(drainedOf(gateway, second.url)).toBe(false);
    // No reply is sent again to be confirmed: an alias is paid once.
    expect(gateway.stats.retries).toBe(0);
  });

  test("names that differ by replica and none the name asked (each node's own first --served-model-name) are counted: every call completes, each paid once", async () => {
    const first = await replica('node-a', 'The answer is 42.');
    const second = await replica('node-b', 'The answer is 42.');
    const gateway = gatewayOf();
    const replies = await calls(gateway, [first.url, second.url], 16, 2);
    // Before: every reply went on to a sibling to be confirmed, and every call failed after 4 attempts (128 completions paid for 32 calls).
    expect(replies).toHaveLength(32);
    expect(first.completions() + second.completions()).toBe(32);
    expect(gateway.stats.retries).toBe(0);
  });

  test('an empty model name (a proxy\'s "model": "") names no other model: nothing refused, nothing drained', async () => {
    const unnamed = await replica('', 'The answer is 42.');
    const plain = await replica('tmas-sim', 'The answer is 42.');
    const gateway = gatewayOf();
    const replies = await calls(gateway, [unnamed.url, plain.url], 16, 2);
    expect(replies).toHaveLength(32);
    expect(gateway.stats.retries).toBe(0);
    expect(drainedOf(gateway, unnamed.url)).toBe(false);
  });
});
