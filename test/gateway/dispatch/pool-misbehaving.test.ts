/**
 * A pool with one replica that misbehaves as servers of a cluster do, beside
 * a healthy one: it answers 429 to every call, rejects every call with a
 * 404, asks for a long Retry-After,
 * or answers its model list but fails every completion, or does not answer
 * at start and holds its calls open. The calls finish on what is healthy,
 * none fails, and the bad replica costs the run little.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createGateway, type CompletionRequest, type Gateway } from '../../../src/gateway/gateway.ts';
import { startSimServer, type SimServer } from '../../../src/sim/server.ts';
import { runInProcess, smallProblems, writeProblems, runCliInProcess } from '../../fixtures.ts';

const PROBLEMS = [{ id: 'p1', question: 'What is 6 times 7?', answer: '42' }];

/** A refusing replica: the chat completions it was sent, and the most it held at once after its first `after`. */
interface RefusingReplica {
  url: string;
  completions: () => number;
  mostAtOnceAfter: (after: number) => number;
  close: () => Promise<void>;
}

/** A server that lists the model and answers every chat completion with `status` (and `headers`) after `delayMs`. */
async function refusingReplica(status: number, headers: Record<string, string> = {}, delayMs = 0): Promise<RefusingReplica> {
  let active = 0;
  // How many it held at once when each completion arrived, in order.
  const atOnce: number[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/models')) return res.end(JSON.stringify({ object: 'list', data: [{ id: 'tmas-sim', object: 'model' }] }));
      // Its load (/metrics) is not what is counted here.
      if (!req.url?.endsWith('/chat/completions')) {
        res.statusCode = 404;
        return res.end('{}');
      }
      atOnce.push(++active);
      setTimeout(() => {
        active--;
        res.writeHead(status, headers);
        res.end(JSON.stringify({ error: { message: `refused with ${status}` } }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    completions: () => atOnce.length,
    mostAtOnceAfter: (after) => Math.max(0, ...atOnce.slice(after)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function healthy(): Promise<SimServer> {
  const sim = await startSimServer({ problems: PROBLEMS, latency: { medianMs: 20, p99Ms: 40 } });
  closers.push(() => sim.close());
  return sim;
}

function gatewayOf(options: Partial<Parameters<typeof createGateway>[0]> = {}): Gateway {
  const gateway = createGateway({ concurrency: 8, timeoutMs: 10_000, maxRetries: 3, backoff: { baseMs: 20, capMs: 60_000 }, routing: 'least-loaded', ...options });
  closers.push(() => gateway.close());
  return gateway;
}

/** `count` calls to the pool of `urls`, all at once. */
function calls(gateway: Gateway, urls: string[], count: number) {
  const call = (seed: number): CompletionRequest => ({ endpoint: { baseUrl: urls[0] as string, model: 'tmas-sim', apiKey: 'k', replicas: urls }, messages: [{ role: 'user', content: `Call ${seed}: ${PROBLEMS[0]?.question}` }], maxTokens: 50, seed });
  return Promise.all(Array.from({ length: count }, (_, seed) => gateway.complete(call(seed))));
}

describe('a pool with a replica that misbehaves', () => {
  // 529: Anthropic's overloaded_error. Before, it counted as a server's failure: the busy replica was drained as dead.
  test.for([429, 529])('a replica answering %i to every call: the calls wait for the healthy one rather than spend their retries there, none fails, and it is not drained', async (status) => {
    const [good, bad] = [await healthy(), await refusingReplica(status)];
    closers.push(bad.close);
    // The healthy replica is often full: a retry used to go back to the refusing one, and the run stopped blaming the healthy one.
    const gateway = gatewayOf({ replicaMaxInFlight: 2 });
    const replies = await calls(gateway, [good.url, bad.url], 40);
    expect(replies.every((reply) => reply.replica === good.url)).toBe(true);
    expect(gateway.stats.failures).toBe(0);
    // It takes one call at a time until one succeeds: a few of the 40, not most.
    expect(bad.completions()).toBeLessThan(20);
    expect(gateway.stats.endpoints.find((endpoint) => endpoint.baseUrl === bad.url)?.drained).toBe(false);
  });

  test('a replica that rejects what its siblings accept (a 404, a smaller window): each call goes once to a sibling, and the replica is drained', async () => {
    const [good, bad] = [await healthy(), await refusingReplica(404)];
    closers.push(bad.close);
    const gateway = gatewayOf();
    const drained = () => gateway.stats.endpoints.find((e) => e.baseUrl === bad.url)?.drained === true;
    // Once it failed, it takes a trial call after each backoff (20, 40, 80 ms…): rounds until the third trial drains it.
    for (let round = 0; round < 20 && !drained(); round++) {
      const replies = await calls(gateway, [good.url, bad.url], 16);
      expect(replies.every((reply) => reply.replica === good.url)).toBe(true);
    }
    expect(gateway.stats.failures).toBe(0);
    expect(drained()).toBe(true);
  });

  test("a replica's long Retry-After does not hold the retries that go to the other replica", async () => {
    const [good, bad] = [await healthy(), await refusingReplica(503, { 'retry-after': '30' })];
    closers.push(bad.close);
    const gateway = gatewayOf();
    const started = performance.now();
    const replies = await calls(gateway, [good.url, bad.url], 16);
    expect(replies).toHaveLength(16);
    // Each call that met the 503 waited out its 30 s before.
    expect(performance.now() - started).toBeLessThan(15_000);
  }, 60_000);

  test('a replica that answers its model list but fails every completion is not let back: drained once, it takes no more calls', async () => {
    const [good, bad] = [await healthy(), await refusingReplica(500, {}, 30)];
    closers.push(bad.close);
    const gateway = gatewayOf({ backoff: { baseMs: 5, capMs: 40 } });
    const urls = [good.url, bad.url];
    // The first round ends once every call succeeded elsewhere: its failures there were counted, and it is drained.
    await calls(gateway, urls, 16);
    const firstRound = bad.completions();
    // It was let back whenever it listed its model, and each return cost a failed call (a hanging one, its timeout).
    for (let round = 1; round < 6; round++) await calls(gateway, urls, 16);
    const endpoint = gateway.stats.endpoints.find((e) => e.baseUrl === bad.url);
    expect(gateway.stats.failures).toBe(0);
    expect(endpoint).toMatchObject({ drained: true, returns: 0 });
    // Only the watch's one-token completions reached it since.
    expect(bad.mostAtOnceAfter(firstRound)).toBeLessThanOrEqual(1);
  });

  test('a replica that does not answer its model list at start takes one trial call, not a slot of calls each waiting out the timeout', async () => {
    // It refuses the list and holds every chat completion open, as a server still loading its model may.
    let held = 0;
    const hanging: Server = createServer((req, res) => {
      if (req.url?.endsWith('/models')) {
        res.writeHead(503);
        return res.end('{}');
      }
      if (req.url?.endsWith('/chat/completions')) held++;
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => {
      hanging.closeAllConnections();
      hanging.close(() => resolve());
    }));
    const dir = await mkdtemp(path.join(tmpdir(), 'tmas-pool-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const problems = smallProblems(2);
    const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })) });
    closers.push(() => sim.close());
    const urls = `${sim.url},http://127.0.0.1:${(hanging.address() as AddressInfo).port}/v1`;
    const input = await writeProblems(dir, problems);
    const outcome = await runInProcess(['--input-file', input, '--output-file', path.join(dir, 'run'), '--base-url', urls, '--model-name', 'tmas-sim', '--no-proof', '--max-iterations', '1', '--n-candidates', '4', '--n-verifications', '2', '--judge-passes', '0', '--timeout', '2', '--routing', 'least-loaded']);
    expect(outcome.stopped).toEqual([]);
    expect(held).toBe(1);
  });

  test('replicas serving different models, no --model-name: refused naming the first replica, not advising to leave the flag out', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tmas-pool-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const [a, b] = await Promise.all(['model-a', 'model-b'].map(async (model) => {
      const sim = await startSimServer({ problems: PROBLEMS, models: [model] });
      closers.push(() => sim.close());
      return sim;
    }));
    const input = await writeProblems(dir, smallProblems(1));
    const result = await runCliInProcess(['run', '--input-file', input, '--output-file', path.join(dir, 'run'), '--base-url', `${a?.url},${b?.url}`, '--no-proof']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`The endpoint ${b?.url} does not serve the model "model-a", which the pool's first replica ${a?.url} serves (no --model-name given)`);
    expect(result.stderr).not.toContain('leave --model-name out');
  });
});
