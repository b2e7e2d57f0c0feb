/**
 * A replica of a pool lost in the middle of a run, as a node of a cluster is,
 * and back: its calls move to the others, nothing is paid twice, and once it
 * answers again it gets calls again. The replica is a simulator behind a proxy
 * of the test's own, which can drop every connection and refuse new ones (the
 * server gone) and then forward again (the server back at the same address).
 */
import { createServer, request as httpRequest, type ClientRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { createGateway, type CompletionRequest } from '../../../src/gateway/gateway.ts';
import { createDispatcher } from '../../../src/gateway/dispatch/dispatcher.ts';
import { createReplicaPool } from '../../../src/gateway/endpoints/replica-pool.ts';
import { createHttpTransport } from '../../../src/gateway/request/http-transport.ts';
import type { EndpointState } from '../../../src/gateway/endpoints/endpoint-state.ts';
import { startSimServer, type SimServer } from '../../../src/sim/server.ts';
import { readJournal, runCli, runInProcess, smallProblems, test, writeProblems } from '../../fixtures.ts';

/** A replica that can be lost and come back. */
interface LossyReplica {
  url: string;
  /** Drops every connection, the streams under way included, and refuses new ones. */
  lose(): void;
  /** Forwards again: to its server, or to `to` (a server restarted at the same address as another). */
  restore(target?: string): void;
  /** Holds back the chat completions that arrive from now on, unsent, until `release`; other requests pass. */
  hold(): void;
  /** Sends the held chat completions on, and those that arrive after. */
  release(): void;
  /** Chat completions it forwarded whole. */
  answered(): number;
  /** Model lists it was asked for since it was last lost or came back (how a gateway asks whether a lost replica is back). */
  askedBack(): number;
  close(): Promise<void>;
}

/** A proxy on loopback in front of the server at `target` (its base URL). */
async function lossyReplica(target: string, options: { noModelList?: boolean } = {}): Promise<LossyReplica> {
  let origin = new URL(target);
  const sockets = new Set<Socket>();
  const upstreams = new Set<ClientRequest>();
  let lost = false;
  let answered = 0;
  let askedBack = 0;
  let held: Array<() => void> | null = null;
  const server: Server = createServer((req, res) => {
    if (req.url?.endsWith('/models')) askedBack++;
    if (lost) {
      req.socket.destroy();
      return;
    }
    // A server without a model list (accepted at start with --model-name) answers 404 there.
    if (options.noModelList === true && req.url?.endsWith('/models')) res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
    else if (held !== null && req.url?.endsWith('/chat/completions')) held.push(() => forward(req, res));
    else forward(req, res);
  });
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    // The gateway's one-token completion that asks whether a drained replica is back is not a call of the run.
    let head = '';
    req.on('data', (chunk: Buffer) => {
      if (head.length < 4096) head += chunk.toString();
    });
    const upstream = httpRequest({ host: origin.hostname, port: origin.port, path: req.url, method: req.method, headers: req.headers }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
      reply.on('end', () => {
        const probe = head.includes('"max_tokens":1,');
        if (req.url?.endsWith('/chat/completions') && reply.statusCode === 200 && !lost && !probe) answered++;
      });
    });
    upstreams.add(upstream);
    upstream.on('close', () => upstreams.delete(upstream));
    upstream.on('error', () => res.destroy());
    // The client went away (or the proxy dropped it): the server stops the request too.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  };
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    lose() {
      lost = true;
      askedBack = 0;
      for (const socket of sockets) socket.destroy();
      for (const upstream of upstreams) upstream.destroy();
    },
    restore(to = target) {
      origin = new URL(to);
      lost = false;
      askedBack = 0;
    },
    hold() {
      held ??= [];
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const send of waiting) send();
    },
    answered: () => answered,
    askedBack: () => askedBack,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Resolves once `done` holds, checking every 5 ms; rejects after `tries` checks. */
async function until(done: () => boolean, tries = 12_000): Promise<void> {
  for (let tried = 0; !done(); tried++) {
    if (tried >= tries) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const PROBLEMS = smallProblems(4).map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer }));

/** A gateway over two simulators, the second behind a lossy proxy, least-loaded; `call(seed)` asks the pool. */
async function lossyPool(latency: { medianMs: number; p99Ms: number }, maxTokens: number, replica: { noModelList?: boolean } = {}, told: string[] = []) {
  const sims = await Promise.all([0, 1].map(() => startSimServer({ problems: PROBLEMS, latency })));
  const [a, b] = sims as [SimServer, SimServer];
  const lossy = await lossyReplica(b.url, replica);
  // Least-loaded, as in the run below: under prefix routing the replica back takes calls only while the other is full
  // when its pace reads slower, and the simulator's pace per call (not per token) reads so at random.
  const onRetry = ({ endpoint, error }: { endpoint: string; error: string }) => told.push(`${endpoint}: ${error}`);
  const gateway = createGateway({ concurrency: 16, timeoutMs: 10_000, maxRetries: 4, backoff: { baseMs: 5, capMs: 40 }, routing: 'least-loaded', onRetry });
  return {
    lossy,
    gateway,
    call: (seed: number): CompletionRequest => ({
      endpoint: { baseUrl: a.url, model: 'tmas-sim', apiKey: 'k', replicas: [a.url, lossy.url] },
      messages: [{ role: 'user', content: `Call ${seed}: ${PROBLEMS[seed % PROBLEMS.length]?.question}` }],
      maxTokens,
      seed,
    }),
    /** Sends `count` calls, loses the lossy replica once it has answered `answeredFirst` of them, and resolves with their replies. */
    async loseWhileBusy(count: number, answeredFirst: number) {
      const replies = Promise.all(Array.from({ length: count }, (_, seed) => gateway.complete(this.call(seed))));
      await until(() => lossy.answered() >= answeredFirst);
      lossy.lose();
      return replies;
    },
    /** The lossy replica's line in the gateway's stats. */
    endpoint: () => gateway.stats.endpoints.find((e) => e.baseUrl === lossy.url),
    async close() {
      gateway.close();
      await lossy.close();
      await Promise.all(sims.map((sim) => sim.close()));
    },
  };
}

describe('a replica lost and back', () => {
  test('its pace is measured afresh: the router reads none for it until its new server shows one (a pod rescheduled on other hardware)', async () => {
    const sims = await Promise.all([0, 1].map(() => startSimServer({ problems: PROBLEMS, latency: { medianMs: 5, p99Ms: 10 } })));
    const urls = sims.map((sim) => sim.url);
    const pool = createReplicaPool({
      dispatcher: createDispatcher<EndpointState>(16),
      transport: createHttpTransport(),
      settings: { concurrency: 16, serverQueue: 'server', stream: true, maxPollMs: 500 },
      downAfter: 3,
      describe: String,
      backoff: { baseMs: 5, capMs: 40 },
      outageGraceMs: 10_000,
    });
    try {
      const request: CompletionRequest = { endpoint: { baseUrl: urls[0] as string, model: 'tmas-sim', apiKey: 'k', replicas: urls }, messages: [{ role: 'user', content: 'x' }], maxTokens: 10, seed: 0 };
      const replica = pool.replicasOf(request, 1).replicas[1] as EndpointState;
      // Its calls decoded 100 tokens/s before it went away.
      for (let call = 0; call < 5; call++) replica.poll.onCall(1_000, 10_000);
      expect(replica.sequenceSpeed).toBeCloseTo(0.1);
      for (let attempt = 0; attempt < 3; attempt++) pool.replicaFailed(replica, request, new Error('connection reset'));
      expect(replica.drained).toBe(true);
      await until(() => !replica.drained);
      // Before, it came back with the old server's pace, and was routed by it.
      expect(replica.sequenceSpeed).toBeNull();
    } finally {
      pool.close();
      await Promise.all(sims.map((sim) => sim.close()));
    }
  });

  test('through the gateway: the calls under way on it finish elsewhere, each once; it is drained, then used again once it answers', async () => {
    const pool = await lossyPool({ medianMs: 40, p99Ms: 80 }, 500);
    const { lossy, gateway, call, endpoint, close } = pool;
    try {
      const answered = await pool.loseWhileBusy(120, 20);
      // Every call answered once, by the replica that finished it; none failed.
      expect(answered).toHaveLength(120);
      expect(endpoint()?.drained).toBe(true);
      expect(gateway.stats.failures).toBe(0);
      lossy.restore();
      await until(() => endpoint()?.drained === false);
      expect(endpoint()?.returns).toBe(1);
      const second = await Promise.all(Array.from({ length: 60 }, (_, index) => gateway.complete(call(1_000 + index))));
      expect(second.filter((c) => c.replica === lossy.url).length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  test('a replica without a model list (404 on GET /models): back once it completes the one-token call, as it never lists', async () => {
    const pool = await lossyPool({ medianMs: 40, p99Ms: 80 }, 500, { noModelList: true });
    const { lossy, endpoint, close } = pool;
    try {
      await pool.loseWhileBusy(120, 20);
      expect(endpoint()?.drained).toBe(true);
      lossy.restore();
      await until(() => endpoint()?.drained === false, 2_000);
      expect(endpoint()?.returns).toBe(1);
    } finally {
      await close();
    }
  });

  test('a replica back serving another model is not used, and the user is told once; back with the run\'s model, it is used again', async () => {
    const told: string[] = [];
    const pool = await lossyPool({ medianMs: 5, p99Ms: 10 }, 50, {}, told);
    const { lossy, gateway, call, endpoint, close } = pool;
    const other = await startSimServer({ problems: PROBLEMS, models: ['other-model'] });
    try {
      await pool.loseWhileBusy(60, 10);
      expect(endpoint()?.drained).toBe(true);
      const atReturn = lossy.answered();
      // The node restarted with another model: its completions of tmas-sim answer 404, which counted as back.
      lossy.restore(other.url);
      await until(() => lossy.askedBack() >= 1);
      // A few more questions (their periods are 10 to 40 ms here): each finds the other model again.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const meanwhile = await Promise.all(Array.from({ length: 20 }, (_, index) => gateway.complete(call(500 + index))));
      expect(meanwhile.every((reply) => reply.replica !== lossy.url)).toBe(true);
      expect(endpoint()).toMatchObject({ drained: true, returns: 0 });
      expect(other.stats().byRole.solution ?? 0).toBe(0);
      expect(told.filter((line) => line.includes('serves other-model, not tmas-sim'))).toEqual([`${lossy.url}: replica answers, but serves other-model, not tmas-sim: it takes no call until it serves tmas-sim`]);
      lossy.restore();
      await until(() => endpoint()?.drained === false);
      const back = await Promise.all(Array.from({ length: 40 }, (_, index) => gateway.complete(call(1_000 + index))));
      expect(back.filter((reply) => reply.replica === lossy.url).length).toBeGreaterThan(0);
      expect(lossy.answered()).toBeGreaterThan(atReturn);
    } finally {
      await close();
      await other.close();
    }
  });

  test('calls one at a time: a replica lost with fewer calls under way than drain it is tried again, one call at a time, until it is drained; back, it is used again', async () => {
    const { lossy, gateway, call, endpoint, close } = await lossyPool({ medianMs: 5, p99Ms: 10 }, 50);
    const oneAtATime = async (from: number, count: number) => {
      const replies = [];
      for (let seed = from; seed < from + count; seed++) replies.push(await gateway.complete(call(seed)));
      return replies;
    };
    try {
      lossy.lose();
      // Each call finds the lost replica with nothing under way: it once went there only when the other was full (never here).
      expect(await oneAtATime(0, 40)).toHaveLength(40);
      expect(endpoint()).toMatchObject({ drained: true });
      expect(gateway.stats.failures).toBe(0);
      await until(() => lossy.askedBack() > 0);
      lossy.restore();
      await until(() => endpoint()?.drained === false);
      const back = await oneAtATime(100, 40);
      expect(back.filter((reply) => reply.replica === lossy.url).length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  test('every replica lost for a moment: the calls wait, as long as one endpoint would ride it out, and finish once one is back', async () => {
    const sims = await Promise.all([0, 1].map(() => startSimServer({ problems: PROBLEMS, latency: { medianMs: 20, p99Ms: 40 } })));
    const replicas = await Promise.all(sims.map((sim) => lossyReplica(sim.url)));
    const urls = replicas.map((replica) => replica.url);
    // Its retries wait 100 + 200 + 400 + 800 ms: a pool whose every replica is drained waits as long for one to answer.
    const gateway = createGateway({ concurrency: 8, timeoutMs: 10_000, maxRetries: 4, backoff: { baseMs: 100, capMs: 2_000 }, routing: 'least-loaded' });
    const call = (seed: number): CompletionRequest => ({ endpoint: { baseUrl: urls[0] as string, model: 'tmas-sim', apiKey: 'k', replicas: urls }, messages: [{ role: 'user', content: `Call ${seed}` }], maxTokens: 50, seed });
    try {
      for (const replica of replicas) replica.lose();
      const answered = Promise.all(Array.from({ length: 16 }, (_, seed) => gateway.complete(call(seed))));
      await until(() => gateway.stats.endpoints.length === 2 && gateway.stats.endpoints.every((e) => e.drained));
      // The pool stopped at once here: TMAS_ENDPOINT_DOWN while a single endpoint rode out the same outage.
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const replica of replicas) replica.restore();
      expect(await answered).toHaveLength(16);
      expect(gateway.stats.failures).toBe(0);
    } finally {
      gateway.close();
      await Promise.all(replicas.map((replica) => replica.close()));
      await Promise.all(sims.map((sim) => sim.close()));
    }
  });

  test('in a run: the results and the journal are those of a clean run, no call journaled twice, and the replica back takes calls again', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(4));
    const sims = await Promise.all([0, 1].map(() => startSimServer({ problems: PROBLEMS, latency: { medianMs: 30, p99Ms: 60 } })));
    const [a, b] = sims as [SimServer, SimServer];
    const steady = await lossyReplica(a.url);
    const lossy = await lossyReplica(b.url);
    try {
      const common = ['--input-file', problems, '--max-iterations', '6', '--n-candidates', '4', '--n-verifications', '3', '--no-proof', '--concurrency', '8', '--retry-base-ms', '5'];
      // The clean reference in this process; the pooled run that loses a replica is a process of its own.
      await runInProcess([...common, '--output-file', path.join(dir, 'clean'), '--base-url', a.url]);
      // Least-loaded: under prefix routing a replica whose pace reads a fifth below the other's takes calls only while
      // that one is full (never, at --concurrency 8), and the simulator's pace (a latency per call, not per token)
      // varies with each reply's length, so which replica reads faster is chance here; routing/prefix: test/gateway/dispatch/routing.test.ts.
      const pooled = runCli(['run', ...common, '--routing', 'least-loaded', '--output-file', path.join(dir, 'pool'), '--base-url', `${steady.url},${lossy.url}`]);
      let answeredBack = 0;
      const script = (async () => {
        await until(() => lossy.answered() >= 30);
        lossy.lose();
        // Drained once the gateway asks whether it is back (refused while it is lost): a short loss, so that the
        // doubling periods of those questions stay short too.
        await until(() => lossy.askedBack() > 0);
        // The other replica holds its calls until the gateway asks again, so the run cannot end before the question.
        steady.hold();
        const atReturn = lossy.answered();
        lossy.restore();
        try {
          await until(() => lossy.askedBack() > 0);
        } finally {
          steady.release();
        }
        await until(() => lossy.answered() > atReturn);
        answeredBack = lossy.answered() - atReturn;
      })();
      const ended = await pooled;
      await script;
      expect(ended.code, ended.stderr).toBe(0);
      expect(answeredBack).toBeGreaterThan(0);
      // The user is told when the replica went and when it came back.
      expect(ended.stderr).toContain(`tmas: replica ${lossy.url}: replica drained after`);
      expect(ended.stderr).toContain(`tmas: replica ${lossy.url}: replica answers again`);
      const results = (run: string) => readFile(path.join(dir, run, 'results.jsonl'), 'utf8');
      expect(await results('pool')).toBe(await results('clean'));
      // The same calls journaled, each once.
      const keys = async (run: string) => (await readJournal(path.join(dir, run))).map((call) => call.key);
      const [pool, alone] = [await keys('pool'), await keys('clean')];
      expect(new Set(pool).size).toBe(pool.length);
      expect(pool).toEqual(alone);
      const metrics = JSON.parse(await readFile(path.join(dir, 'pool', 'metrics.json'), 'utf8')) as {
        calls: { issued: number };
        gateway: { endpoints: Array<{ baseUrl: string; returns: number; drained: boolean }> };
      };
      const cleanMetrics = JSON.parse(await readFile(path.join(dir, 'clean', 'metrics.json'), 'utf8')) as { calls: { issued: number } };
      expect(metrics.calls.issued).toBe(cleanMetrics.calls.issued);
      expect(metrics.gateway.endpoints.find((e) => e.baseUrl === lossy.url)).toMatchObject({ returns: 1, drained: false });
    } finally {
      await Promise.all([steady.close(), lossy.close()]);
      await Promise.all(sims.map((sim) => sim.close()));
    }
  });
});
