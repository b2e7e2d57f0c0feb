/**
 * What a proxy between tmas and its server does to the answers, seen through
 * real runs: each test puts a plain HTTP server of its own in front of the
 * simulator, which passes every request on and shapes the answer as a proxy
 * or a gateway in front of a hosted API does.
 */
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { startSimServer, type SimServer } from '../../../src/sim/server.ts';
import { listening, runCliInProcess, smallProblems, test, writeProblems } from '../../fixtures.ts';

/** The simulator's answer to a request, as the proxy got it. */
interface Answer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/** A request as the proxy got it: its path, the headers it came with, its body. */
interface Asked {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the proxy answers: `answer` is what the simulator said to the request; `pass` writes it as it is. */
type Shape = (asked: Asked, answer: Answer, res: ServerResponse, pass: () => void) => void;

/** A proxy of the test's own in front of `sim`: every request it got, and its base URL. */
async function proxyOf(sim: SimServer, shape: Shape): Promise<{ url: string; asked: Asked[]; close: () => Promise<void> }> {
  const asked: Asked[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      if (!request.path.endsWith('/metrics')) asked.push(request);
      // The simulator serves under /v1 whatever prefix the proxy's own routes have.
      const onward = `${sim.url}${request.path.replace(/^\/[^/]+/, '')}`;
      void fetch(onward, { method: req.method ?? 'GET', headers: { 'content-type': 'application/json' }, ...(req.method === 'POST' ? { body: request.body } : {}) }).then(async (reply) => {
        const answer = { status: reply.status, headers: { 'content-type': reply.headers.get('content-type') ?? 'application/json' }, body: Buffer.from(await reply.arrayBuffer()) };
        shape(request, answer, res, () => res.writeHead(answer.status, answer.headers).end(answer.body));
      });
    });
  });
  return { ...(await listening(server)), asked };
}

/** Runs a small run (2 problems, N=2, M=1, one iteration) through a proxy shaped by `shape`; its exit, stderr, the requests the proxy got, and the run's results. */
async function runThrough(dir: string, shape: Shape, flags: string[] = []) {
  const problems = smallProblems(2);
  const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
  const proxy = await proxyOf(sim, shape);
  try {
    const run = path.join(dir, 'run');
    const args = ['run', '--input-file', await writeProblems(dir, problems), '--output-file', run, '--base-url', proxy.url, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--retry-base-ms', '10', ...flags];
    const ended = await runCliInProcess(args);
    const results = await readFile(path.join(run, 'results.jsonl'), 'utf8').catch(() => null);
    return { ...ended, asked: proxy.asked, results, proxyUrl: proxy.url };
  } finally {
    await proxy.close();
    await sim.close();
  }
}

describe("an answer's headers", () => {
  test("a proxy's 40 KB of cookies on every answer (over Node's 16 KiB): the run completes", async ({ dir }) => {
    const ended = await runThrough(dir, (_asked, answer, res) => {
      res.writeHead(answer.status, { ...answer.headers, 'set-cookie': [`session=${'s'.repeat(20_000)}`, `trace=${'t'.repeat(20_000)}`] }).end(answer.body);
    });
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.results?.trim().split('\n')).toHaveLength(2);
  });

  test('past 256 KiB: refused at start naming the headers and the proxy, not as a server that cannot be reached', async ({ dir }) => {
    const ended = await runThrough(dir, (_asked, answer, res) => {
      res.writeHead(answer.status, { ...answer.headers, 'x-debug': 'd'.repeat(300_000) }).end(answer.body);
    });
    expect(ended.code).toBe(2);
    expect(ended.stderr).toContain("answered GET /models, but the answer's headers pass 256 KiB: a proxy in front of the server adds that many");
    expect(ended.stderr).toContain('[TMAS_ENDPOINT]');
    expect(ended.stderr).not.toContain('Cannot reach');
  });
});

describe('a redirect the transport follows (307, 308)', () => {
  test('to another base URL on the same server: the run completes, told once which base URL to give, as every request goes out twice', async ({ dir }) => {
    const ended = await runThrough(dir, (asked, _answer, res, pass) => {
      if (asked.path.startsWith('/v1/')) res.writeHead(308, { location: asked.path.replace(/^\/v1/, '/v2') }).end();
      else pass();
    });
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.results?.trim().split('\n')).toHaveLength(2);
    const told = ended.stderr.split('\n').filter((line) => line.includes('was redirected'));
    expect(told).toEqual([expect.stringContaining(`give ${ended.proxyUrl.replace(/\/v1$/, '/v2')} as the base URL`)]);
  });

  test('to another server, which refuses a request without the key: refused naming the redirect that left the key behind, not as a wrong key alone', async ({ dir }) => {
    // localhost and 127.0.0.1 are two origins: the key does not follow from one to the other, as fetch does.
    const ended = await runThrough(dir, (asked, _answer, res, pass) => {
      if (asked.headers.host?.startsWith('127.0.0.1')) res.writeHead(307, { location: `http://localhost:${asked.headers.host.split(':')[1]}${asked.path}` }).end();
      else if (asked.headers.authorization !== 'Bearer sk-right') res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Incorrect API key provided.', code: 'invalid_api_key' } }));
      else pass();
    }, ['--api-key', 'sk-right']);
    expect(ended.code).toBe(2);
    expect(ended.stderr).toContain('[TMAS_AUTH]');
    expect(ended.stderr).toMatch(/redirected \(HTTP 307\) from http:\/\/127\.0\.0\.1:\d+\/v1\/models to http:\/\/localhost:\d+\/v1\/models, another server, and an API key is not sent on to another server: give http:\/\/localhost:\d+\/v1 as the base URL/);
    expect(ended.stderr).not.toContain('sk-right');
  });
});

describe("a proxy's error page", () => {
  /** A load balancer's 502 page: kilobytes of styles and scripts before the words that say what happened. */
  const PAGE = `<!DOCTYPE html>\n<html lang="en-US"><head><title>api.example.com | 502: Bad gateway</title><style>${'body{margin:0;padding:0}.cf-error{font:13px/1.5 sans-serif}'.repeat(80)}</style><script>${'window.cf=window.cf||[];'.repeat(60)}</script></head>\n<body><div class="cf-error"><h1>Bad gateway</h1> <span>Error code 502</span><p>The web server reported a bad gateway error.</p><p>Ray ID: 7d1 &bull; 2026-11-29</p></div><script>track()</script></body></html>`;

  test('is told by its words, not its markup', async ({ dir }) => {
    const ended = await runThrough(dir, (asked, _answer, res, pass) => {
      if (asked.path.endsWith('/chat/completions')) res.writeHead(502, { 'content-type': 'text/html' }).end(PAGE);
      else pass();
    }, ['--max-retries', '0']);
    expect(ended.code).toBe(2);
    expect(ended.stderr).toContain('[TMAS_ENDPOINT_DOWN]');
    expect(ended.stderr).toContain('HTTP 502: a web page: Bad gateway Error code 502 The web server reported a bad gateway error.');
    expect(ended.stderr).not.toMatch(/<style|margin:0|window\.cf/);
  });
});

describe("a gateway's keep-alives inside a stream", () => {
  test('data: ping after every event: the run completes, told once (before: every attempt failed as bad JSON, exit 3)', async ({ dir }) => {
    const ended = await runThrough(dir, (_asked, answer, res) => {
      const pinged = answer.body.toString('utf8').replaceAll('\n\n', '\n\ndata: ping\n\n');
      res.writeHead(answer.status, answer.headers).end(pinged);
    });
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.results?.trim().split('\n')).toHaveLength(2);
    const warnings = ended.stderr.split('\n').filter((line) => line.includes('sends data that is no JSON inside its streams (data: "ping")'));
    expect(warnings, ended.stderr).toHaveLength(1);
  });
});
