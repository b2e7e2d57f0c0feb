/**
 * Clear outcomes from an endpoint that answers otherwise than asked: a
 * streamed request answered with plain JSON (a whole completion is read as
 * the reply; JSON that is no completion stops the run naming --no-stream),
 * a request not streamed answered with an event stream (read as one), a web
 * page under a 200 (a broken reply that says what came), and a key refused
 * at start (TMAS_AUTH, saying whether a key was set). The
 * servers are plain HTTP servers of this file, some in front of the simulator.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { CallFailedError, createGateway } from '../../../src/gateway/gateway.ts';
import { startSimServer, type SimServer } from '../../../src/sim/server.ts';
import { additionRequest, chatChunkEvent, chatCompletionBody, listening, runCli, runCliInProcess, runInProcess, smallProblems, test, withEnv, writeProblems } from '../../fixtures.ts';

interface TestServer {
  url: string;
  /** The chat requests it got, as parsed JSON. */
  chats: Array<Record<string, unknown>>;
  close: () => Promise<void>;
}

/** A plain HTTP server of this test: `handler` answers every request but `/metrics` (a 404), with the request's body read. */
async function serve(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<TestServer> {
  const chats: TestServer['chats'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url?.endsWith('/metrics')) return void res.writeHead(404).end();
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.url?.endsWith('/chat/completions')) chats.push(JSON.parse(body) as Record<string, unknown>);
      handler(req, body, res);
    });
  });
  return { ...(await listening(server)), chats };
}

function answerJson(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * A server that cannot stream, in front of the simulator: every chat request
 * goes on with `stream: false` and is answered with the simulator's whole
 * JSON reply, whatever it asked; `unusable` answers a streamed request with
 * JSON that is no completion instead.
 */
function unstreamingProxy(target: string, options: { unusable?: boolean } = {}) {
  return serve((req, body, res) => {
    const url = `${target}${req.url?.replace(/^\/v1/, '') ?? ''}`;
    if (req.method !== 'POST') return void fetch(url).then(async (answer) => answerJson(res, answer.status, await answer.text()));
    const request = JSON.parse(body) as Record<string, unknown>;
    if (options.unusable && request.stream === true) return answerJson(res, 200, JSON.stringify({ object: 'queued', id: 'job-1', status: 'accepted' }));
    const { stream_options: _, ...rest } = request;
    void fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...rest, stream: false }) }).then(async (answer) =>
      answerJson(res, answer.status, await answer.text()),
    );
  });
}

const FAST = { concurrency: 4, timeoutMs: 5_000, maxRetries: 2, backoff: { baseMs: 1, capMs: 5 } };
const PROBLEMS = smallProblems(2);
const SMALL = ['--no-proof', '--n-candidates', '2', '--n-verifications', '2', '--max-iterations', '2', '--model-name', 'tmas-sim', '--judge-passes', '0'];
let sim: SimServer;

beforeAll(async () => {
  sim = await startSimServer({ problems: PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 5 });
});
afterAll(async () => {
  await sim.close();
});

/**
 * The results of a clean run of PROBLEMS, streamed from the simulator: the reference of both tests
 * below, run once for the file and in this process (the runs they compare it with are processes).
 */
let cleanResults: Promise<string> | undefined;
function cleanRun(): Promise<string> {
  cleanResults ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'tmas-outcomes-'));
    try {
      const problems = await writeProblems(dir, PROBLEMS);
      await runInProcess(['--input-file', problems, '--output-file', path.join(dir, 'clean'), '--base-url', sim.url, ...SMALL]);
      return await readFile(path.join(dir, 'clean', 'results.jsonl'), 'utf8');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return cleanResults;
}

describe('a streamed request answered with plain JSON', () => {
  test('a whole chat completion is the reply, in one attempt; the endpoint is named once', async () => {
    const server = await serve((_req, _body, res) => answerJson(res, 200, chatCompletionBody('The answer is 2.', { usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } })));
    const told: string[] = [];
    const gateway = createGateway({ ...FAST, onUnstreamed: (endpoint) => told.push(endpoint) });
    try {
      const first = await gateway.complete(additionRequest(server.url, 1));
      const second = await gateway.complete(additionRequest(server.url, 2));
      expect(server.chats.map((chat) => chat.stream)).toEqual([true, true]);
      for (const reply of [first, second]) {
        expect(reply).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', usage: { promptTokens: 12, completionTokens: 5 }, attempts: 1 });
      }
      expect(told).toEqual([server.url]);
      expect(gateway.stats.retries).toBe(0);
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test('JSON that is no completion fails the call at once, not retried, with TMAS_NOT_STREAMED naming --no-stream; an {"error"} body is the server\'s error', async () => {
    const server = await serve((_req, body, res) => {
      const seed = (JSON.parse(body) as { seed?: number }).seed;
      answerJson(res, 200, seed === 1 ? JSON.stringify({ object: 'queued', id: 'job-1' }) : JSON.stringify({ error: { message: 'model is loading', type: 'server_error' } }));
    });
    const gateway = createGateway(FAST);
    try {
      const failure = await gateway.complete(additionRequest(server.url, 1)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CallFailedError);
      expect(failure).toMatchObject({ code: 'TMAS_NOT_STREAMED', attempts: 1 });
      expect((failure as Error).message).toMatch(/not a chat completion.*--no-stream/);
      expect(server.chats).toHaveLength(1);
      const error = await gateway.complete(additionRequest(server.url, 2)).catch((caught: unknown) => caught);
      expect((error as Error).message).toContain('model is loading');
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test('a chat completion without a choice is a broken reply, retried, not a server that cannot stream', async () => {
    const server = await serve((_req, _body, res) => answerJson(res, 200, JSON.stringify({ id: 'x', object: 'chat.completion', choices: [] })));
    const gateway = createGateway({ ...FAST, maxRetries: 1 });
    try {
      const failure = await gateway.complete(additionRequest(server.url, 1)).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'TMAS_CALL_FAILED', attempts: 2 });
      expect((failure as Error).message).toMatch(/holds no choice with a message/);
      expect((failure as Error).message).not.toMatch(/--no-stream/);
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test('a run against a server that never streams gives the results of the same replies streamed, with one warning', async ({ dir }) => {
    const problems = await writeProblems(dir, PROBLEMS);
    const proxy = await unstreamingProxy(sim.url);
    try {
      const whole = await runCliInProcess(['run', '--input-file', problems, '--output-file', path.join(dir, 'whole'), '--base-url', proxy.url, ...SMALL]);
      expect(whole.code, whole.stderr).toBe(0);
      expect(proxy.chats.length).toBeGreaterThan(8);
      expect(proxy.chats.every((chat) => chat.stream === true)).toBe(true);
      expect(whole.stderr.match(/answers streamed requests with whole JSON replies/g)).toHaveLength(1);
      expect(await readFile(path.join(dir, 'whole', 'results.jsonl'), 'utf8')).toBe(await cleanRun());
    } finally {
      await proxy.close();
    }
  });

  test('a run whose streamed requests get JSON that is no completion stops at once, exit 2, TMAS_NOT_STREAMED; the resume with --no-stream it names completes as a clean run', async ({ dir }) => {
    const problems = await writeProblems(dir, PROBLEMS);
    const proxy = await unstreamingProxy(sim.url, { unusable: true });
    try {
      const run = path.join(dir, 'run');
      const stopped = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, '--base-url', proxy.url, ...SMALL]);
      expect(stopped.code, stopped.stderr).toBe(2);
      expect(stopped.stderr).toMatch(/\[TMAS_NOT_STREAMED\]/);
      expect(stopped.stderr).toContain(`tmas run --resume ${run} --no-stream`);
      // Not retried: at most the calls in flight when the first failed were sent.
      expect(proxy.chats.length).toBeLessThanOrEqual(4);
      const resumed = await runCliInProcess(['run', '--resume', run, '--no-stream']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(await readFile(path.join(run, 'results.jsonl'), 'utf8')).toBe(await cleanRun());
    } finally {
      await proxy.close();
    }
  });
});

describe('a base URL whose completions redirect', () => {
  // Before: every call of the run was sent and refused alike (TMAS_CALL_REJECTED), each problem stopped, exit 3.
  test('a 301 of the chat route to another server stops the run at once, exit 2, TMAS_REDIRECTED naming the base URL to give; the resume with it completes as a clean run', async ({ dir }) => {
    const problems = await writeProblems(dir, PROBLEMS);
    const elsewhere = sim.url.replace('127.0.0.1', 'localhost');
    // The model list is answered where it is asked (the check at start passes); a completion is sent on to the other server.
    const moved = await serve((req, _body, res) => {
      if (req.method !== 'POST') return void fetch(`${sim.url}${req.url?.replace(/^\/v1/, '') ?? ''}`).then(async (answer) => answerJson(res, answer.status, await answer.text()));
      res.writeHead(301, { location: `${elsewhere}/chat/completions` }).end();
    });
    try {
      const run = path.join(dir, 'run');
      const stopped = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, '--base-url', moved.url, ...SMALL]);
      expect(stopped.code, stopped.stderr).toBe(2);
      expect(stopped.stderr).toMatch(/The endpoint of the solution agent redirects its calls: .*HTTP 301.*give .*localhost.* as the base URL.*\[TMAS_REDIRECTED\]/s);
      expect(stopped.stderr).toContain(`tmas run --resume ${run} --base-url URL`);
      // Not sent again: at most the calls in flight when the first was redirected.
      expect(moved.chats.length).toBeLessThanOrEqual(4);
      const resumed = await runCliInProcess(['run', '--resume', run, '--base-url', elsewhere]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(await readFile(path.join(run, 'results.jsonl'), 'utf8')).toBe(await cleanRun());
    } finally {
      await moved.close();
    }
  });
});

describe('a body other than the one asked for', () => {
  test.for([
    [true, 'the server answered a streamed request with text/html that holds no event'],
    // Before, the parser's words: 'Unexpected token '<', "<html>\n<bo"... is not valid JSON'.
    [false, 'the server answered a request with text/html that is not JSON'],
  ] as const)("a web page under a 200 (a captive portal, a proxy's login; streamed request: %s) is retried once as a broken reply, then fails as a web page (TMAS_WEB_PAGE, which stops a run), naming what came, not a stream cut short", async ([stream, says]) => {
    const server = await serve((_req, _body, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>\n<body>Sign in to the network to continue.</body></html>'));
    const gateway = createGateway({ ...FAST, maxRetries: 1, stream });
    try {
      const failure = await gateway.complete(additionRequest(server.url, 1)).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'TMAS_WEB_PAGE', attempts: 2 });
      expect((failure as Error).message).toContain(`${says} ("<html> <body>Sign in to the network to continue.</body></html>"): check that the base URL reaches the server itself`);
      expect(gateway.stats.retriesByCause).toEqual({ malformed: 1 });
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test("a JSON body labelled text/event-stream is read as the JSON it is: a server's error (a context-length one, refitted) or a whole reply (before: 'holds no event', retried)", async () => {
    const bodies = [JSON.stringify({ error: { message: "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens.", code: 400 } }), chatCompletionBody('The answer is 2.')];
    const server = await serve((_req, _body, res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(bodies.shift()));
    const gateway = createGateway({ ...FAST, maxRetries: 1 });
    try {
      const refused = await gateway.complete(additionRequest(server.url, 1)).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'TMAS_CONTEXT_LENGTH', attempts: 1 });
      expect((refused as Error).message).toContain("This model's maximum context length is 4096 tokens");
      expect(await gateway.complete(additionRequest(server.url, 2))).toMatchObject({ content: 'The answer is 2.', attempts: 1 });
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test.for([true, false])('a JSON reply behind a byte-order mark (streamed request: %s) is read at its first attempt (before: retried until the call failed)', async (stream) => {
    const server = await serve((_req, _body, res) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(`\uFEFF${chatCompletionBody('The answer is 2.')}`));
    const gateway = createGateway({ ...FAST, maxRetries: 1, stream });
    try {
      const reply = await gateway.complete(additionRequest(server.url, 1));
      expect(reply).toMatchObject({ content: 'The answer is 2.', attempts: 1 });
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test('the other way round: a request not streamed (--no-stream) answered with an event stream is read as one, in one attempt', async () => {
    const server = await serve((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      const usage = { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [], usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } };
      res.end(`${chatChunkEvent({ role: 'assistant', content: 'The answer ' })}${chatChunkEvent({ content: 'is 2.' }, 'stop')}data: ${JSON.stringify(usage)}\n\ndata: [DONE]\n\n`);
    });
    const gateway = createGateway({ ...FAST, stream: false });
    try {
      const reply = await gateway.complete(additionRequest(server.url, 1));
      expect(server.chats[0]?.stream).toBeUndefined();
      expect(reply).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', usage: { promptTokens: 12, completionTokens: 5 }, attempts: 1 });
    } finally {
      gateway.close();
      await server.close();
    }
  });
});

describe('a key refused at start', () => {
  const PLANTED = 'sk-PLANTED-start-3b7d9f1a';

  test('401 on GET /v1/models: exit 2, TMAS_AUTH, saying whether a key was set and what sets it, never the key; nothing is written', async ({ dir }) => {
    const server = await serve((req, _body, res) => {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      answerJson(res, 401, JSON.stringify({ error: { message: `Incorrect API key provided: ${key}`, type: 'invalid_request_error', code: 'invalid_api_key' } }));
    });
    try {
      const problems = await writeProblems(dir, PROBLEMS);
      const args = (name: string, extra: string[] = []) => ['run', '--input-file', problems, '--output-file', path.join(dir, name), '--base-url', server.url, ...SMALL, ...extra];
      // No key in this process; the refused key in a child, whose whole stderr is checked for it.
      const none = await withEnv({ OPENAI_API_KEY: undefined, API_KEY: undefined }, () => runCliInProcess(args('none')));
      const wrong = await runCli(args('wrong'), { env: { OPENAI_API_KEY: PLANTED, API_KEY: undefined } });
      for (const outcome of [none, wrong]) {
        expect(outcome.code, outcome.stderr).toBe(2);
        expect(outcome.stderr).toMatch(/\[TMAS_AUTH\]/);
        expect(outcome.stderr).not.toMatch(/Cannot reach|TMAS_ENDPOINT/);
        expect(outcome.stderr).toContain(`${server.url} (from --base-url)`);
        expect(outcome.stderr).toMatch(/--api-key or the OPENAI_API_KEY \(or API_KEY\) environment variable/);
      }
      expect(none.stderr).toMatch(/No API key was set for the solution agent/);
      expect(wrong.stderr).toMatch(/refused the API key set for the solution agent/);
      expect(wrong.stderr).not.toContain(PLANTED);
      expect(wrong.stderr).toContain('[redacted]');
      expect(server.chats).toEqual([]);
      expect(existsSync(path.join(dir, 'none')) || existsSync(path.join(dir, 'wrong'))).toBe(false);

      // A role with an endpoint of its own names its own flag.
      const verify = await withEnv({ OPENAI_API_KEY: undefined, API_KEY: undefined }, () => runCliInProcess(['run', '--input-file', problems, '--output-file', path.join(dir, 'verify'), '--verify-base-url', server.url, ...SMALL]));
      expect(verify.code, verify.stderr).toBe(2);
      expect(verify.stderr).toMatch(/\(from --verify-base-url\).*No API key was set for the verification agent.*--verify-api-key/);
    } finally {
      await server.close();
    }
  });
});
