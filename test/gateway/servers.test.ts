/**
 * Real model servers and misbehaving ones: streamed replies, the idle limit
 * over the whole response, the size cap, reasoning dialects, the OpenAI
 * reasoning dialect, replies without usage or for another model. The
 * misbehaving servers are plain HTTP servers (serveHttp, fixtures.ts); the
 * well-behaved one is the simulator.
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { CallFailedError, createGateway, type CompletionRequest, type GatewayOptions } from '../../src/gateway/gateway.ts';
import { requestBody } from '../../src/gateway/request/request-body.ts';
import { boundedBody, startWatchdog } from '../../src/gateway/reply/reply-bounds.ts';
import { sseEvents } from '../../src/gateway/reply/sse.ts';
import { decideFault } from '../../src/sim/faults/faults.ts';
import { startSimServer, type SimOptions, type SimServer } from '../../src/sim/server.ts';
import { solutionPrompt } from '../../machines/strategies/tmas/solution.role.ts';
import { systemText, userText } from '../../workers/prompt-template.ts';
import { Store } from '../../src/store/store.ts';
import { loadProblems } from '../../src/input/problems.ts';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import { BIN, chatChunkEvent, chatCompletionBody, REPO, runCliInProcess, runInProcess, serveHttp as serve, smallProblems, startSimInProcess, startSimProcess, test, writeProblems } from '../fixtures.ts';

const FIRST = { id: 'p1', question: 'What is 6 times 7?', answer: '42' };

const SPEC = solutionPrompt(
  { type: 'solution.requested', run: 'r', iteration: 0, correlation: 'c', problem: FIRST.id, candidate: 0, source: 'normal', question: FIRST.question, rollouts: [], experience: [], guidelines: [] },
  { proof: false, temperature: 0.6, parseRetries: 0 },
);

/** A chat request the simulator answers as the solution agent. */
function solutionCall(url: string, seed = 1, maxTokens = 4096): CompletionRequest {
  return {
    endpoint: { baseUrl: url, model: 'tmas-sim', apiKey: 'k' },
    messages: [
      { role: 'system', content: systemText(SPEC.system) },
      { role: 'user', content: userText(SPEC.parts) },
    ],
    maxTokens,
    temperature: 0.6,
    seed,
  };
}

const FAST: Omit<GatewayOptions, 'timeoutMs'> = { concurrency: 4, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 } };

async function withSim<T>(options: Omit<SimOptions, 'problems'>, body: (sim: SimServer) => Promise<T>): Promise<T> {
  const sim = await startSimServer({ problems: [FIRST], ...options });
  try {
    return await body(sim);
  } finally {
    await sim.close();
  }
}

describe('replies have bounds', () => {
  test('a body that trickles a byte at a time more slowly than the idle limit is given up as a timeout, retried, then fails', async () => {
    const timers = new Set<NodeJS.Timeout>();
    const server = await serve((_req, res) => {
      const text = chatCompletionBody('ok');
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      let at = 0;
      const drip = () => {
        if (res.destroyed || at >= text.length) return;
        res.write(text[at++]);
        const timer = setTimeout(drip, 2000);
        timers.add(timer);
      };
      drip();
    });
    const gateway = createGateway({ ...FAST, timeoutMs: 300, stream: false });
    try {
      const failure = await gateway.complete(solutionCall(server.url)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CallFailedError);
      expect((failure as CallFailedError).code).toBe('TMAS_CALL_FAILED');
      expect((failure as Error).message).toMatch(/no byte from the server/);
      expect(gateway.stats.retriesByCause).toEqual({ timeout: 1 });
      expect(server.requests()).toBe(2);
    } finally {
      for (const timer of timers) clearTimeout(timer);
      gateway.close();
      await server.close();
    }
  });

  test('an event stream that keeps sending but never finishes is cut at its size cap, retried, then fails', async () => {
    const timers = new Set<NodeJS.Timeout>();
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Little text and much else in each event: the stream's byte cap cuts it before what its text may hold does.
      const chunk = chatChunkEvent({ content: 'x', padding: 'p'.repeat(4000) });
      const send = () => {
        if (res.destroyed) return;
        res.write(chunk);
        const timer = setTimeout(send, 1);
        timers.add(timer);
      };
      send();
    });
    const gateway = createGateway({ ...FAST, timeoutMs: 30_000 });
    try {
      const failure = await gateway.complete(solutionCall(server.url, 1, 16)).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(CallFailedError);
      expect((failure as Error).message).toMatch(/exceeded \d+ bytes/);
      expect(gateway.stats.retriesByCause).toEqual({ malformed: 1 });
    } finally {
      for (const timer of timers) clearTimeout(timer);
      gateway.close();
      await server.close();
    }
  });

  test('an event stream that goes silent before its end is given up at the idle limit', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chatChunkEvent({ content: 'half' }));
    });
    const gateway = createGateway({ ...FAST, timeoutMs: 300, maxRetries: 0 });
    try {
      const failure = await gateway.complete(solutionCall(server.url)).catch((error: unknown) => error);
      expect((failure as CallFailedError).code).toBe('TMAS_CALL_FAILED');
      expect((failure as Error).message).toMatch(/no byte from the server/);
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test('a 50 MB body for a 100-token completion is cut, not buffered: malformed, retried, then a failure', async () => {
    const big = Buffer.alloc(50 * 2 ** 20, 'x');
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': big.length + 2 });
      res.write('["');
      res.end(big);
    });
    const gateway = createGateway({ ...FAST, timeoutMs: 10_000, stream: false });
    try {
      const failure = await gateway.complete(solutionCall(server.url, 1, 100)).catch((error: unknown) => error);
      expect((failure as CallFailedError).code).toBe('TMAS_CALL_FAILED');
      expect((failure as Error).message).toMatch(/exceeded \d+ bytes/);
      expect(gateway.stats.retriesByCause).toEqual({ malformed: 1 });
      expect(server.requests()).toBe(2);
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test('a reply whose text passes its completion limit within one event, the reply already whole, fails that attempt only: retried, then a failure, the process unharmed', async () => {
    // All of it in one write: the reply is here before the gateway reads past the limit and gives the attempt up.
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(chatChunkEvent({ content: 'x'.repeat(20_000) }) + chatChunkEvent({}, 'stop') + 'data: [DONE]\n\n');
    });
    const gateway = createGateway({ ...FAST, timeoutMs: 10_000 });
    try {
      const failure = await gateway.complete(solutionCall(server.url, 1, 16)).catch((error: unknown) => error);
      expect((failure as CallFailedError).code).toBe('TMAS_CALL_FAILED');
      expect((failure as Error).message).toMatch(/past its completion limit of 16 tokens/);
      expect(server.requests()).toBe(2);
    } finally {
      gateway.close();
      await server.close();
    }
  });
});

test('an error answer whose body never ends is cut at 64 KB: the call is retried, then fails, with a short message', async () => {
  const chunk = Buffer.alloc(2 ** 20, 'e');
  const server = await serve((_req, res) => {
    res.writeHead(500, { 'content-type': 'text/html' });
    // An error page that keeps coming: 1 MB at a time, for as long as the client reads.
    const more = () => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once('drain', more);
    };
    more();
  });
  const gateway = createGateway({ ...FAST, timeoutMs: 10_000 });
  try {
    const failure = await gateway.complete(solutionCall(server.url)).catch((error: unknown) => error);
    expect((failure as CallFailedError).code).toBe('TMAS_CALL_FAILED');
    expect((failure as Error).message).toMatch(/500/);
    expect((failure as Error).message.length).toBeLessThan(70 * 1024);
    expect(gateway.stats.retriesByCause).toEqual({ '500': 1 });
    expect(server.requests()).toBe(2);
  } finally {
    gateway.close();
    await server.close();
  }
});

describe("the server's errors, in the shapes servers send them", () => {
  test('an error event in the middle of a stream, and an error body under a 200, are retried as the server failing, and the retry gets the reply', async () => {
    let served = 0;
    const server = await serve((_req, res) => {
      served++;
      // Then, for the second call, only the error body.
      const errorBody = served === 2 || served > 3;
      res.writeHead(200, { 'content-type': errorBody ? 'application/json' : 'text/event-stream' });
      if (served === 1) res.end(chatChunkEvent({ content: 'Let me' }) + 'data: {"error":{"message":"CUDA error: an illegal memory access","type":"server_error","code":null}}\n\n');
      else if (errorBody) res.end('{"error":{"message":"engine restarting","code":"503"}}');
      else res.end(chatChunkEvent({ content: 'The answer is 42.' }) + chatChunkEvent({}, 'stop') + 'data: [DONE]\n\n');
    });
    const gateway = createGateway({ ...FAST, maxRetries: 2, timeoutMs: 10_000 });
    try {
      const reply = await gateway.complete(solutionCall(server.url));
      expect(reply.content).toBe('The answer is 42.');
      expect(reply.attempts).toBe(3);
      expect(gateway.stats.retriesByCause).toEqual({ '500': 1, '503': 1 });
      // Told as the server's own words, not as an HTTP status it never sent.
      const failure = await gateway.complete(solutionCall(server.url, 2, 4096)).catch((error: unknown) => error);
      expect((failure as Error).message).toMatch(/the server's error inside a 200 reply: engine restarting$/);
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test('an error under a 200 nested too deeply to write back is retried as the server failing, not rejected with a stack overflow', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"error":${deep}}`));
    const gateway = createGateway({ ...FAST, maxRetries: 1, timeoutMs: 10_000 });
    try {
      const failure = await gateway.complete(solutionCall(server.url)).catch((error: unknown) => error);
      expect((failure as Error).message).toMatch(/the server's error inside a 200 reply: an error object nested too deeply to show$/);
      expect(gateway.stats.retriesByCause).toEqual({ '500': 1 });
      expect(server.requests()).toBe(2);
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test.for([
    ['https://models.example.org/v1/chat/completions', 'give https://models.example.org/v1 as the base URL'],
    ['/v2/chat/completions', 'give the base URL /v2 on the same server'],
  ])('a redirect the transport does not follow says where it points, and the base URL that is (%s)', async ([location, says]) => {
    const server = await serve((_req, res) => res.writeHead(302, { location }).end());
    const gateway = createGateway({ ...FAST, maxRetries: 0, timeoutMs: 10_000 });
    try {
      const failure = await gateway.complete(solutionCall(server.url)).catch((error: unknown) => error);
      expect((failure as Error).message).toContain('HTTP 302');
      expect((failure as Error).message).toContain(`(a redirect to ${location}: ${says})`);
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test("SGLang's, FastAPI's and TGI's error bodies keep their message; SGLang's context-length error is one (TMAS_CONTEXT_LENGTH)", async () => {
    const bodies = [
      { status: 400, body: { object: 'error', message: "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens.", type: 'BadRequestError', param: null, code: 400 } },
      { status: 404, body: { detail: 'The model `qwen` does not exist.' } },
      { status: 422, body: { detail: [{ loc: ['body', 'max_tokens'], msg: 'Input should be a valid integer', type: 'int_parsing' }] } },
      { status: 424, body: { error: 'Request failed during generation: Server error: CUDA out of memory', error_type: 'generation' } },
    ];
    const gateway = createGateway({ ...FAST, maxRetries: 0, timeoutMs: 10_000 });
    const failures: CallFailedError[] = [];
    let sent = 0;
    try {
      for (const { status, body } of bodies) {
        const server = await serve((_req, res) => {
          sent++;
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        });
        failures.push((await gateway.complete(solutionCall(server.url)).catch((error: unknown) => error)) as CallFailedError);
        await server.close();
      }
    } finally {
      gateway.close();
    }
    // vLLM's 404 for a model it does not serve stops the run (every later call would be refused alike).
    expect(failures.map((failure) => failure.code)).toEqual(['TMAS_CONTEXT_LENGTH', 'TMAS_MODEL_NOT_SERVED', 'TMAS_CALL_REJECTED', 'TMAS_CALL_REJECTED']);
    expect(failures[0]?.message).toContain("HTTP 400: This model's maximum context length is 4096 tokens");
    expect(failures[1]?.message).toContain('HTTP 404: The model `qwen` does not exist.');
    expect(failures[2]?.message).toContain('HTTP 422: Input should be a valid integer');
    expect(failures[3]?.message).toContain('HTTP 424: Request failed during generation: Server error: CUDA out of memory');
    // The context-length error is not taken for a refusal of the usage field: that call is sent once; the bare 422 twice.
    expect(sent).toBe(5);
  });
});

describe('reading a body already here', () => {
  test('a body that arrived whole lets other callbacks run while it is read, not only after it', async () => {
    // 8 MB in chunks that are all ready at once, as a fast server's event stream is.
    async function* ready(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 512; i++) yield new Uint8Array(16 * 1024);
    }
    const watchdog = startWatchdog({ idleMs: 60_000, total: null });
    let read = 0;
    let readWhenTimerRan = -1;
    setImmediate(() => (readWhenTimerRan = read));
    try {
      for await (const chunk of boundedBody(ready(), 64 * 2 ** 20, watchdog)) read += chunk.byteLength;
    } finally {
      watchdog.dispose();
    }
    expect(read).toBe(8 * 2 ** 20);
    expect(readWhenTimerRan).toBeGreaterThanOrEqual(0);
    expect(readWhenTimerRan).toBeLessThan(read);
  });
});

describe('streamed completions', () => {
  test('a stream that lasts longer than the idle limit but never pauses that long completes in one attempt, with the text of a whole reply', async () => {
    // A chunk every 20 ms for 3.5 s against an idle limit of 2.5 s: a loaded machine that stalls this
    // process for a while (a 400 ms limit once gave a second attempt, a 1.5 s one at a load of 8 on two
    // cores) is no pause.
    await withSim({ stream: { tokensPerSecond: 200, chunkTokens: 4 }, outputTokens: 700 }, async (sim) => {
      const streamed = createGateway({ ...FAST, timeoutMs: 2_500 });
      const plain = createGateway({ ...FAST, timeoutMs: 10_000, stream: false });
      try {
        const started = performance.now();
        const completion = await streamed.complete(solutionCall(sim.url));
        // The precondition of the test, not a timing assertion: the stream outlasted the idle limit.
        expect(performance.now() - started).toBeGreaterThan(2_500);
        expect(completion.attempts).toBe(1);
        expect(completion.firstTokenMs).not.toBeNull();
        const reference = await plain.complete(solutionCall(sim.url));
        expect(completion.content).toBe(reference.content);
        expect(completion.usage).toEqual(reference.usage);
        expect(completion.finishReason).toBe('stop');
        expect(streamed.stats.latency.firstTokenMs.count).toBe(1);
      } finally {
        streamed.close();
        plain.close();
      }
    });
  });

  test('a stream that stalls past the idle limit is retried, counted as a timeout, and the retry gets the whole reply', async () => {
    const rates = { stall: 0.5 };
    // A call whose first attempt stalls and whose second does not (the simulator keys faults by the request body).
    let seed = 0;
    for (; seed < 200; seed++) {
      const key = createHash('sha256')
        .update(await requestBody(solutionCall('x', seed), undefined, { dialect: 'chat', stream: true }))
        .digest('hex');
      if (decideFault(rates, 0, key, 1) === 'stall' && decideFault(rates, 0, key, 2) === null) break;
    }
    const clean = await withSim({}, async (sim) => {
      const gateway = createGateway({ ...FAST, timeoutMs: 5000 });
      return gateway.complete(solutionCall(sim.url, seed)).finally(() => gateway.close());
    });
    await withSim({ faults: rates }, async (sim) => {
      // Without the knee's cap no stream is asked for continuous usage, so both attempts send the body whose faults were looked up above.
      const gateway = createGateway({ ...FAST, timeoutMs: 1_000, batchCap: 'none' });
      try {
        const completion = await gateway.complete(solutionCall(sim.url, seed));
        expect(completion.attempts).toBe(2);
        expect(gateway.stats.retriesByCause).toEqual({ timeout: 1 });
        expect(completion.content).toBe(clean.content);
        expect(sim.stats().faults['stall']).toBe(1);
      } finally {
        gateway.close();
      }
    });
  });
});

describe('what a reply says beyond its text', () => {
  test.for(['reasoning_content', 'reasoning', 'think-tags'] as const)('reasoning sent as %s is kept apart from the answer, the answer as sent, and the dialect is counted', async (dialect) => {
    const plain = await withSim({}, async (sim) => {
      const gateway = createGateway({ ...FAST, timeoutMs: 5000 });
      return gateway.complete(solutionCall(sim.url)).finally(() => gateway.close());
    });
    for (const stream of [true, false]) {
      await withSim({ reasoning: dialect }, async (sim) => {
        const gateway = createGateway({ ...FAST, timeoutMs: 5000, stream });
        try {
          const completion = await gateway.complete(solutionCall(sim.url));
          // Inline, the answer is what follows </think> as the model wrote it: the sim's blank line before its answer stays, as upstream code that splits at </think> reads it.
          expect(completion.content).toBe(dialect === 'think-tags' ? `\n\n${plain.content}` : plain.content);
          expect(completion.reasoning).toMatch(/\S/);
          expect(completion.reasoning).not.toContain('<think>');
          expect(completion.reasoningDialect).toBe(dialect);
          expect(gateway.stats.reasoningDialects).toEqual({ [dialect]: 1 });
        } finally {
          gateway.close();
        }
      });
    }
  });

  test('a reply without usage and a reply for another model are counted, and the other model told of once', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(chatCompletionBody('ok', { model: 'some-other-model', usage: undefined }));
    });
    const told: string[] = [];
    const gateway = createGateway({ ...FAST, timeoutMs: 5000, stream: false, onOtherModel: (endpoint, asked, named) => told.push(`${endpoint} ${asked} ${named}`) });
    try {
      const completion = await gateway.complete(solutionCall(server.url));
      await gateway.complete(solutionCall(server.url, 2));
      expect(completion.usage).toBeNull();
      expect(completion.model).toBe('some-other-model');
      expect(gateway.stats.noUsage).toBe(2);
      expect(gateway.stats.otherModel).toBe(2);
      expect(told).toEqual([`${server.url} tmas-sim some-other-model`]);
    } finally {
      gateway.close();
      await server.close();
    }
  });

  test("an endpoint that refuses max_tokens is switched to the OpenAI reasoning dialect after one 400 and never sent max_tokens again", async ({ dir }) => {
    const requestLog = path.join(dir, 'requests.jsonl');
    const told: string[] = [];
    await withSim({ openaiReasoning: true, requestLog }, async (sim) => {
      const gateway = createGateway({ ...FAST, concurrency: 1, timeoutMs: 5000, onDialect: (endpoint, dialect) => told.push(`${endpoint} ${dialect}`) });
      try {
        for (let seed = 0; seed < 4; seed++) {
          const completion = await gateway.complete({ ...solutionCall(sim.url, seed), sampling: { topP: 0.95 } });
          expect(completion.attempts).toBe(1);
        }
        expect(gateway.stats.endpoints[0]?.dialect).toBe('openai-reasoning');
      } finally {
        gateway.close();
      }
    });
    const lines = (await readFile(requestLog, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { status: number; params: Record<string, unknown> });
    expect(lines.map((line) => line.status)).toEqual([400, 200, 200, 200, 200]);
    expect(lines.filter((line) => 'max_tokens' in line.params)).toHaveLength(1);
    expect(lines.slice(1).every((line) => typeof line.params['max_completion_tokens'] === 'number' && !('temperature' in line.params) && !('top_p' in line.params))).toBe(true);
    expect(told).toHaveLength(1);
  });
});

async function loggedRequests(file: string): Promise<Array<{ role: string | null; seed: number | null; status: number | null; params?: Record<string, unknown> }>> {
  if (!existsSync(file)) return [];
  const lines = (await readFile(file, 'utf8')).split('\n');
  lines.pop();
  return lines.filter(Boolean).map((line) => JSON.parse(line));
}

describe('tmas run against real-looking servers', () => {
  test('a --model-name the endpoint does not serve stops the run before any call, exit 2, listing what it serves; a sim-server is simulated whatever its model is called', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const requestLog = path.join(dir, 'requests.jsonl');
    const sim = await startSimInProcess(['--problems', problems, '--model', 'Qwen/Qwen3-30B-A3B', '--request-log', requestLog]);
    try {
      const wrong = await runCliInProcess(['run', '--input-file', problems, '--output-file', path.join(dir, 'wrong'), '--base-url', sim.url, '--model-name', 'Qwen3-30B', '--no-proof']);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/does not serve the model "Qwen3-30B" \(from --model-name\); it serves: Qwen\/Qwen3-30B-A3B/);
      expect(await loggedRequests(requestLog)).toEqual([]);
      expect(existsSync(path.join(dir, 'wrong'))).toBe(false);

      const right = await runCliInProcess(['run', '--input-file', problems, '--output-file', path.join(dir, 'right'), '--base-url', sim.url, '--model-name', 'Qwen/Qwen3-30B-A3B', '--max-iterations', '1', '--n-candidates', '2', '--n-verifications', '1', '--no-proof']);
      expect(right.code, right.stderr).toBe(0);
      const metrics = JSON.parse(await readFile(path.join(dir, 'right', 'metrics.json'), 'utf8')) as { simulated: boolean };
      expect(metrics.simulated).toBe(true);
    } finally {
      await sim.close();
    }
  });

  // vLLM's address is often written without its /v1: the 404 said only "(ending in /v1)", and which URL that was was left to the user.
  test('a base URL without its /v1, or a route given as the base URL: exit 2 before any completion, naming the base URL to give', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(1));
    const sim = await startSimInProcess(['--problems', problems]);
    try {
      const origin = sim.url.replace(/\/v1$/, '');
      for (const given of [origin, `${sim.url}/chat/completions`]) {
        const refused = await runCliInProcess(['run', '--input-file', problems, '--output-file', path.join(dir, 'out'), '--base-url', given, '--no-proof']);
        expect(refused.code, given).toBe(2);
        expect(refused.stderr).toContain(`tmas: The endpoint ${given} (from --base-url) answered GET /models with HTTP 404. Its OpenAI-compatible base URL is likely ${sim.url}: give --base-url ${sim.url}. [TMAS_ENDPOINT]`);
      }
      expect(existsSync(path.join(dir, 'out'))).toBe(false);
    } finally {
      await sim.close();
    }
  });

  test('sampling flags, per-role ones and --extra-body reach the server; without them the request carries none', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(1));
    const requestLog = path.join(dir, 'requests.jsonl');
    const sim = await startSimServer({ problems: await loadProblems(problems), roles: SIM_ROLES, requestLog });
    try {
      const common = ['run', '--input-file', problems, '--base-url', sim.url, '--max-iterations', '1', '--n-candidates', '2', '--n-verifications', '1', '--judge-passes', '0', '--no-proof'];
      const run = await runCliInProcess([
        ...common,
        '--output-file',
        path.join(dir, 'sampled'),
        '--top-p',
        '0.95',
        '--top-k',
        '20',
        '--min-p',
        '0',
        '--extra-body',
        '{"chat_template_kwargs":{"enable_thinking":true},"repetition_penalty":1.05}',
        '--verify-temperature',
        '0.2',
        '--verify-top-k',
        '5',
      ]);
      expect(run.code, run.stderr).toBe(0);
      const sampled = await loggedRequests(requestLog);
      const solution = sampled.find((r) => r.role === 'solution')?.params;
      const verification = sampled.find((r) => r.role === 'verification')?.params;
      expect(solution).toMatchObject({ temperature: 0.6, top_p: 0.95, top_k: 20, min_p: 0, chat_template_kwargs: { enable_thinking: true }, repetition_penalty: 1.05, stream: true, stream_options: { include_usage: true } });
      expect(verification).toMatchObject({ temperature: 0.2, top_p: 0.95, top_k: 5, min_p: 0, repetition_penalty: 1.05 });

      const plain = await runCliInProcess([...common, '--output-file', path.join(dir, 'plain'), '--no-stream']);
      expect(plain.code, plain.stderr).toBe(0);
      const after = (await loggedRequests(requestLog)).slice(sampled.length);
      expect(Object.keys(after[0]?.params ?? {}).sort()).toEqual(['max_tokens', 'model', 'seed', 'temperature']);
    } finally {
      await sim.close();
    }
  });

  test('--extra-body (every slot\'s) refuses the fields tmas sends itself, naming the flag that sets each, before anything is written', async ({ dir }) => {
    // Merged last, {"temperature":0.1} was what the server got (the judge's too: it follows --extra-body) while the run recorded 0.6.
    const cases: Array<[string, string, string]> = [
      ['--extra-body', '{"temperature":0.1,"chat_template_kwargs":{}}', '"temperature" is set by --temperature'],
      ['--judge-extra-body', '{"max_tokens":64}', '"max_tokens" is set by --completion-max-tokens (the judge\'s: --judge-max-tokens)'],
      ['--verify_extra_body', '{"model":"other","n":2}', '"model" is set by the slot\'s --model-name (--verify-model-name, …); "n" is set by tmas (a call reads one choice)'],
    ];
    for (const [flag, json, says] of cases) {
      const output = path.join(dir, 'run');
      const refused = await runCliInProcess(['run', '--demo', flag, json, '--output-file', output]);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`is invalid. ${says}`);
      expect(refused.stderr).toContain('[TMAS_USAGE]');
      expect(existsSync(output)).toBe(false);
    }
  });

  test('SIGTERM while calls stream ends the process in seconds; the resume pays for no journaled call again', async ({ dir }) => {
    // Two problems: 8 solution calls at concurrency 4 still have some done and others streaming at the kill.
    const problems = await writeProblems(dir, smallProblems(2));
    const requestLog = path.join(dir, 'requests.jsonl');
    const resumeLog = path.join(dir, 'resume-requests.jsonl');
    // The run streams from a paced server; the resume, whose pace the test does not look at, from an unpaced one
    // of the same model (at the paced one's 3 s a call it was most of the test), given with --base-url. That one is
    // started in this process, within the try: it takes no signal, and a failed start leaves no server running.
    const sim = await startSimProcess(['--problems', problems, '--request-log', requestLog, '--stream-tokens-per-second', '100', '--output-tokens', '300']);
    let unpaced: Awaited<ReturnType<typeof startSimInProcess>> | undefined;
    try {
      const run = path.join(dir, 'run');
      const args = ['run', '--input-file', problems, '--output-file', run, '--base-url', sim.url, '--max-iterations', '1', '--n-candidates', '4', '--n-verifications', '1', '--judge-passes', '0', '--no-proof', '--concurrency', '4'];
      const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      // Some calls done, others streaming.
      while ((await loggedRequests(requestLog)).filter((r) => r.status === 200).length < 2 && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
      child.kill('SIGTERM');
      expect(await exited).toBe(130);
      expect(stderr).not.toMatch(/internal error/);
      expect(stderr).toContain(`tmas run --resume ${run}`);

      const journaled = new Set<number>();
      const store = await Store.open(run);
      for await (const call of store.callRecords()) journaled.add(call.request.seed);
      await store.close();
      expect(journaled.size).toBeGreaterThan(0);
      unpaced = await startSimInProcess(['--problems', problems, '--request-log', resumeLog, '--output-tokens', '300']);
      const resumed = await runCliInProcess(['run', '--resume', run, '--base-url', unpaced.url]);
      expect(resumed.code, resumed.stderr).toBe(0);
      const sent = await loggedRequests(resumeLog);
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.filter((r) => r.seed !== null && journaled.has(r.seed))).toEqual([]);
    } finally {
      sim.child.kill();
      await unpaced?.close();
    }
  });
});

describe('replica pools', () => {
  test('a pool of three replicas, one of them down, finishes with results byte-identical to one endpoint; metrics show each replica', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(3));
    // The two simulators in this process, as tmas sim-server starts one.
    const replicaOf = async () => startSimServer({ problems: await loadProblems(problems), roles: SIM_ROLES });
    const [a, b] = await Promise.all([replicaOf(), replicaOf()]);
    // A privileged port nothing listens on: every attempt is refused. (A port freed by closing a
    // server of our own could be handed to another test file's server mid-run, whose answers then
    // went into this run's results.)
    const dead = { url: 'http://127.0.0.1:9/v1' };
    try {
      const common = ['--input-file', problems, '--max-iterations', '2', '--n-candidates', '3', '--n-verifications', '2', '--no-proof', '--concurrency', '8', '--retry-base-ms', '5'];
      await runInProcess([...common, '--output-file', path.join(dir, 'single'), '--base-url', a.url]);
      const pooled = await runCliInProcess(['run', ...common, '--output-file', path.join(dir, 'pool'), '--base-url', `${a.url},${dead.url}`, '--base-url', b.url]);
      expect(pooled.code, pooled.stderr).toBe(0);
      expect(pooled.stderr).toContain(`the replica ${dead.url} does not answer`);
      const results = (run: string) => readFile(path.join(dir, run, 'results.jsonl'), 'utf8');
      expect(await results('pool')).toBe(await results('single'));

      const metrics = JSON.parse(await readFile(path.join(dir, 'pool', 'metrics.json'), 'utf8')) as {
        gateway: { endpoints: Array<{ baseUrl: string; calls: number; errors: number; drained: boolean; limit: number; inFlight: number }> };
      };
      const replica = (url: string) => metrics.gateway.endpoints.find((endpoint) => endpoint.baseUrl === url);
      expect(replica(dead.url)).toMatchObject({ calls: 0, drained: true });
      // On trial from the start, it is drained by its first failed attempt, and the line says so (it said 3).
      expect(replica(dead.url)?.errors).toBe(1);
      expect(pooled.stderr).toContain(`tmas: replica ${dead.url}: replica drained after 1 failed attempt in a row: connection failed`);
      expect(replica(a.url)?.calls).toBeGreaterThan(0);
      expect(replica(b.url)?.calls).toBeGreaterThan(0);
      expect(replica(a.url)?.drained).toBe(false);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test('replicas behind one gateway, told apart by their paths: the progress line names each by its path', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const sims = await Promise.all([0, 1].map(async () => startSimServer({ problems: await loadProblems(problems), roles: SIM_ROLES })));
    // One host and port, /a/... to the first simulator and /b/... to the second, as an ingress routes by path.
    const ingress = createServer((req, res) => {
      const [, replica, ...rest] = (req.url ?? '').split('/');
      const target = new URL((sims[replica === 'a' ? 0 : 1] as SimServer).url);
      const upstream = httpRequest({ host: target.hostname, port: target.port, path: `/${rest.join('/')}`, method: req.method, headers: req.headers }, (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => ingress.listen(0, '127.0.0.1', resolve));
    const root = `http://127.0.0.1:${(ingress.address() as AddressInfo).port}`;
    try {
      const [a, b] = [`${root}/a/v1`, `${root}/b/v1`];
      const result = await runCliInProcess(['run', '--input-file', problems, '--no-proof', '--max-iterations', '1', '--n-candidates', '4', '--n-verifications', '2', '--routing', 'least-loaded', '--output-file', path.join(dir, 'run'), '--base-url', `${a},${b}`]);
      expect(result.code, result.stderr).toBe(0);
      const last = result.stderr.split('\n').filter((line) => line.includes('| replicas ')).at(-1) ?? '';
      // Before: "replicas 127.0.0.1:P 0/512 calls 12 errors 0, 127.0.0.1:P 0/512 calls 12 errors 0".
      const host = new URL(a).host;
      expect(last).toMatch(new RegExp(`replicas ${host}/a/v1 0/\\d+ calls [1-9]\\d* errors 0, ${host}/b/v1 0/\\d+ calls [1-9]\\d* errors 0`));
    } finally {
      ingress.closeAllConnections();
      await Promise.all([new Promise((resolve) => ingress.close(resolve)), ...sims.map((sim) => sim.close())]);
    }
  });

  test.for([
    ['lacks its /v1 (a 404 on GET /models)', 'Its OpenAI-compatible base URL is likely'],
    ['is a web page (a dashboard at that port)', 'that is not a list of models'],
  ] as const)('a replica that answers wrongly at start, where the others answer, %s: the run stops before any call, naming it and the fix (TMAS_ENDPOINT)', async ([what, says], { dir }) => {
    const problems = await writeProblems(dir, smallProblems(1));
    const sim = await startSimServer({ problems: await loadProblems(problems), roles: SIM_ROLES });
    const page = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Dashboard</body></html>'));
    try {
      const wrong = what.startsWith('lacks') ? sim.url.replace(/\/v1$/, '') : page.url;
      // Before: a warning that it "does not answer", and the run went on a replica short, its trial calls wasted there.
      const result = await runCliInProcess(['run', '--input-file', problems, '--no-proof', '--max-iterations', '1', '--output-file', path.join(dir, 'run'), '--base-url', `${sim.url},${wrong}`]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`The endpoint ${wrong} (from --base-url) answered GET /models`);
      expect(result.stderr).toContain(says);
      expect(result.stderr).toContain(`It is one replica of the pool --base-url names (the others: ${sim.url}): fix its URL, or leave it out of --base-url`);
      expect(result.stderr).toContain('[TMAS_ENDPOINT]');
      expect(Object.values(sim.stats().byRole).reduce((sum, n) => sum + n, 0)).toBe(0);
    } finally {
      await Promise.all([sim.close(), page.close()]);
    }
  });

  test('a pool whose every replica is down stops the run, resumable (TMAS_ENDPOINT_DOWN)', async () => {
    const failing = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'GPU fell off the bus', type: 'server_error' } }));
    });
    const other = await serve((_req, res) => res.socket?.destroy());
    const gateway = createGateway({ ...FAST, maxRetries: 8, timeoutMs: 5000, stream: false });
    try {
      const request = { ...solutionCall(failing.url), endpoint: { baseUrl: failing.url, model: 'm', apiKey: 'k', replicas: [failing.url, other.url] } };
      const failure = await gateway.complete(request).catch((error: unknown) => error);
      expect((failure as CallFailedError).code).toBe('TMAS_ENDPOINT_DOWN');
      await expect(gateway.down).rejects.toMatchObject({ code: 'TMAS_ENDPOINT_DOWN', message: expect.stringContaining('Every replica') });
      expect(gateway.stats.endpoints.every((endpoint) => endpoint.drained)).toBe(true);
    } finally {
      gateway.close();
      await failing.close();
      await other.close();
    }
  });
});

describe('the event-stream reader', () => {
  /** A body delivered in the given pieces of bytes. */
  function bodyOf(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
    return new ReadableStream({
      start(controller) {
        for (const piece of pieces) controller.enqueue(piece);
        controller.close();
      },
    });
  }

  test('reads events split anywhere, even inside a character, with CRLF or a lone CR, comments and multi-line data; stops at [DONE]; an error event throws the server message', async () => {
    const text = ': keep-alive\r\ndata: {"n":1,"s":"数学😀"}\r\n\r\nevent: x\ndata: {"n":\ndata: 2}\n\ndata:{"n":3}\n\ndata: [DONE]\n\ndata: {"n":4}\n\n';
    const bytes = Buffer.from(text);
    // Every split point, one byte at a time included.
    for (const size of [1, 2, 3, 7, bytes.length]) {
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
      const events: unknown[] = [];
      for await (const read of sseEvents(bodyOf(pieces), new Headers())) events.push(...read);
      expect(events).toEqual([{ n: 1, s: '数学😀' }, { n: 2 }, { n: 3 }]);
    }
    // A lone CR ends a line as LF and CRLF do, a CRLF split between two reads included (the byte-by-byte split above).
    const crOnly = 'data: {"n":1}\r\rdata: {"n":\rdata: 2}\r\r: c\rdata: [DONE]\r\r';
    for (const size of [1, 5, crOnly.length]) {
      const pieces: Uint8Array[] = [];
      const crBytes = Buffer.from(crOnly);
      for (let at = 0; at < crBytes.length; at += size) pieces.push(crBytes.subarray(at, at + size));
      const events: unknown[] = [];
      for await (const read of sseEvents(bodyOf(pieces), new Headers())) events.push(...read);
      expect(events).toEqual([{ n: 1 }, { n: 2 }]);
    }
    // The events before the error, in the same read, still come out first.
    const failing = sseEvents(bodyOf([Buffer.from('data: {"n":1}\n\ndata: {"error":{"message":"out of KV cache","type":"server_error"}}\n\n')]), new Headers());
    expect((await failing.next()).value).toEqual([{ n: 1 }]);
    await expect(failing.next()).rejects.toMatchObject({ message: expect.stringContaining('out of KV cache') });
    // TGI's error is a string: its words, unquoted, as the server's failure.
    const worded = sseEvents(bodyOf([Buffer.from('data: {"error":"Request failed during generation: CUDA out of memory"}\n\n')]), new Headers());
    await expect(worded.next()).rejects.toMatchObject({ message: 'Request failed during generation: CUDA out of memory', status: 500 });
  });
});
