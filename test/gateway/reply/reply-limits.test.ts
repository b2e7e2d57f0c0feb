/**
 * Replies bounded by their request's completion limit, against misbehaving
 * servers of our own: a stream whose one `data:` line is 10 MB, streams that
 * keep sending tokens past the limit (with their usage, and without), a
 * finished stream without usage whose text counts past it, a stream that
 * keeps sending nothing but comments until its total limit; a stream of the
 * log-probabilities its request asked for, read whole; and
 * a run that meets such servers, finishes with those calls failed, and
 * resumes against a healthy server to the results of a clean run.
 */
import type { ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { CallFailedError, createGateway, type GatewayOptions } from '../../../src/gateway/gateway.ts';
import { createPool } from '../../../src/pool/pool.ts';
import { startSimServer, type SimServer } from '../../../src/sim/server.ts';
import { additionRequest, expectResumedAsClean, runIncomplete, serveHttp, smallProblems, startSwitchableProxy, test, writeProblems } from '../../fixtures.ts';

const FAST: Omit<GatewayOptions, 'timeoutMs'> = { concurrency: 4, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 } };

/** One streamed chunk event with `text` as its content, the usage so far when given, and a finish reason when it is the last. */
function chunkEvent(text: string, completionTokens: number | null = null, finishReason: string | null = null): string {
  const usage = completionTokens === null ? {} : { usage: { prompt_tokens: 10, completion_tokens: completionTokens, total_tokens: 10 + completionTokens } };
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [{ index: 0, delta: { content: text }, finish_reason: finishReason }], ...usage })}\n\n`;
}

/** A whole stream, without usage, whose one `data:` line holds `chars` a's (10 MB by default), then a finish. */
function sendLongLine(res: ServerResponse, chars = 10 * 2 ** 20): void {
  res.on('error', () => {});
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(chunkEvent('a'.repeat(chars)));
  res.end(`${chunkEvent('', null, 'stop')}data: [DONE]\n\n`);
}

/** A stream that sends `event(n)` for n = 1, 2, … as fast as the client reads, until the client hangs up. */
function sendForever(res: ServerResponse, event: (n: number) => string): void {
  res.on('error', () => {});
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let n = 0;
  const more = () => {
    while (!res.destroyed && res.write(event(++n)));
    if (!res.destroyed) res.once('drain', more);
  };
  more();
}

/** Sends `event` every `ms` until the client hangs up. */
function sendEvery(res: ServerResponse, ms: number, event: string, timers: Set<NodeJS.Timeout>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const tick = () => {
    if (res.destroyed) return;
    res.write(event);
    timers.add(setTimeout(tick, ms));
  };
  tick();
}

/** Runs one call against a server that answers with `send`; resolves the gateway's failure and stats, and how many requests came. */
async function failingCall(send: (res: ServerResponse) => void, options: Partial<GatewayOptions> = {}, maxTokens = 16) {
  const server = await serveHttp((_req, res) => send(res));
  const gateway = createGateway({ ...FAST, timeoutMs: 30_000, ...options });
  try {
    const failure = await gateway.complete(additionRequest(server.url, 1, maxTokens)).catch((error: unknown) => error);
    return { failure: failure as CallFailedError, stats: gateway.stats, requests: server.requests() };
  } finally {
    gateway.close();
    await server.close();
  }
}

describe('a reply is cut once it passes what its completion limit allows', () => {
  test('a stream whose one data: line is 10 MB is cut while the line arrives, retried, then fails', async () => {
    const { failure, stats, requests } = await failingCall((res) => sendLongLine(res), {}, 100);
    expect(failure).toBeInstanceOf(CallFailedError);
    expect(failure.code).toBe('TMAS_CALL_FAILED');
    // 1 MiB + 1 KiB a token for 100 tokens.
    expect(failure.message).toMatch(/the reply exceeded 1150976 bytes, more than its completion limit explains/);
    expect(stats.retriesByCause).toEqual({ malformed: 1 });
    expect(requests).toBe(2);
  });

  test('a stream that keeps sending tokens, with its usage, is cut at the first count past the limit, retried, then fails', async () => {
    const { failure, stats, requests } = await failingCall((res) => sendForever(res, (n) => chunkEvent('x', n)));
    expect(failure.code).toBe('TMAS_CALL_FAILED');
    expect(failure.message).toMatch(/went past its completion limit of 16 tokens: the server counted 17 completion tokens/);
    expect(stats.retriesByCause).toEqual({ malformed: 1 });
    expect(requests).toBe(2);
  });

  test('a stream that keeps sending text without its usage is cut once the text holds more tokens than the limit, retried, then fails', async () => {
    const { failure, stats } = await failingCall((res) => sendForever(res, () => chunkEvent('x'.repeat(100))));
    expect(failure.code).toBe('TMAS_CALL_FAILED');
    // 4,096 characters of allowance plus 256 a token: 8,192 for 16 tokens.
    expect(failure.message).toMatch(/went past its completion limit of 16 tokens: its text passed 8192 characters/);
    expect(stats.retriesByCause).toEqual({ malformed: 1 });
  });

  test('a finished stream without usage whose text counts more tokens than the limit and its margin (in fewer characters than the limit could hold) fails once counted, is retried, then fails for good', async () => {
    const pool = createPool({ threads: 1 });
    try {
      const countTokens = (texts: string[], signal: AbortSignal | undefined) => pool.countTokens(texts, signal === undefined ? {} : { signal });
      // 100,000 a's are 12,500 o200k tokens, in fewer characters than 1,000 tokens may have (260,096).
      const { failure, stats, requests } = await failingCall((res) => sendLongLine(res, 100_000), { countTokens }, 1_000);
      expect(failure.code).toBe('TMAS_CALL_FAILED');
      // Counting stops at the first piece past the cut (1,314), so the count is of the text up to there, or of all of it.
      const counted = Number(/went past its completion limit of 1000 tokens: its text counts (\d+) tokens( in its first \d+ characters)? with the run's tokenizer/.exec(failure.message)?.[1]);
      expect(counted).toBeGreaterThan(1_314);
      expect(counted).toBeLessThan(12_510);
      expect(stats.retriesByCause).toEqual({ malformed: 1 });
      expect(requests).toBe(2);
    } finally {
      await pool.close();
    }
  });

  test('a stream that keeps sending only comments ends at the total limit derived from the completion limit, or at --total-timeout when given', async () => {
    const timers = new Set<NodeJS.Timeout>();
    const keepAlive = (res: ServerResponse) => sendEvery(res, 20, ': keep-alive\n\n', timers);
    try {
      // 200 ms + 16 tokens at 100 tokens/s: 360 ms, far below the idle limit, which the comments keep resetting.
      const derived = await failingCall(keepAlive, { totalFloor: { baseMs: 200, tokensPerSecond: 100 } });
      expect(derived.failure.code).toBe('TMAS_CALL_FAILED');
      expect(derived.failure.message).toMatch(/took longer than 0\.4 s, the total limit of a call of 16 completion tokens \(0\.2 s \+ 100 tokens\/s; --total-timeout sets another\)/);
      expect(derived.stats.retriesByCause).toEqual({ timeout: 1 });
      const given = await failingCall(keepAlive, { totalFloor: { baseMs: 3_600_000, tokensPerSecond: 1 }, totalTimeoutMs: 300 });
      expect(given.failure.message).toMatch(/took longer than --total-timeout 0\.3 s/);
      expect(given.stats.retriesByCause).toEqual({ timeout: 1 });
    } finally {
      for (const timer of timers) clearTimeout(timer);
    }
  });
});

const PROBLEMS = smallProblems(4);
let sim: SimServer;

beforeAll(async () => {
  sim = await startSimServer({ problems: PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 5 });
});
afterAll(async () => {
  await sim.close();
});

/**
 * A proxy in front of the simulator that, while `healthy` is false, answers
 * every chat call about the second problem with a 10 MB line without usage
 * (within the default window's byte and character caps, 1,310,720 tokens),
 * and every one about the third with tokens that never stop, their usage
 * counting up by 100 an event.
 */
function startMisbehavingProxy() {
  return startSwitchableProxy(sim.url, (url, body, res) => {
    if (!url.endsWith('/chat/completions')) return false;
    if (body.includes(PROBLEMS[1]?.question ?? '?')) sendLongLine(res);
    else if (body.includes(PROBLEMS[2]?.question ?? '?')) sendForever(res, (n) => chunkEvent('x', 100 * n));
    else return false;
    return true;
  });
}

// One candidate: the two calls that fail for good are never three in a row, which would stop the run as an endpoint down.
const RUN = ['--no-proof', '--n-candidates', '1', '--n-verifications', '1', '--max-iterations', '2', '--model-name', 'tmas-sim', '--max-retries', '1', '--retry-base-ms', '1'];

describe('log-probabilities the request asked for', () => {
  const TOKENS = 3_000;
  /** A whole stream of TOKENS one-token chunks, each with the top-20 log-probabilities as vLLM writes them (about 1.6 KB a chunk), then its usage. */
  function sendWithLogprobs(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const top = Array.from({ length: 20 }, (_, i) => ({ token: ` alt${i}`, logprob: -1.2345678 * i, bytes: [32, 97, 108, 116, 48 + (i % 10)] }));
    const event = `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [{ index: 0, delta: { content: ' word' }, logprobs: { content: [{ token: ' word', logprob: -0.5, bytes: [32, 119, 111, 114, 100], top_logprobs: top }] }, finish_reason: null }] })}\n\n`;
    res.end(event.repeat(TOKENS) + chunkEvent('', TOKENS, 'length') + 'data: [DONE]\n\n');
  }

  test('top 20 a token (--extra-body): a reply that uses its whole limit is read (before: cut as oversized, retried until it failed); unasked, it is still cut', async () => {
    const server = await serveHttp((_req, res) => sendWithLogprobs(res));
    const gateway = createGateway({ ...FAST, timeoutMs: 30_000 });
    try {
      const request = additionRequest(server.url, 1, TOKENS);
      const asked = await gateway.complete({ ...request, sampling: { extraBody: { logprobs: true, top_logprobs: 20 } } });
      expect(asked).toMatchObject({ finishReason: 'length', usage: { completionTokens: TOKENS }, attempts: 1 });
      expect(asked.content).toBe(' word'.repeat(TOKENS));
      const unasked = await gateway.complete(request).catch((error: unknown) => error as CallFailedError);
      expect((unasked as CallFailedError).message).toMatch(/the reply exceeded \d+ bytes, more than its completion limit explains/);
    } finally {
      gateway.close();
      await server.close();
    }
  });
});

describe('a run that meets such servers', () => {
  test('finishes with those calls failed (exit 3, nothing of them in the results), and a resume against a healthy server gives the results of a clean run', async ({ dir }) => {
    const proxy = await startMisbehavingProxy();
    try {
      const ended = await runIncomplete(dir, await writeProblems(dir, PROBLEMS), proxy.url, RUN);
      const { run } = ended;
      expect(ended.stderr).toMatch(/in 2 problems: /);
      // Before, the 10 MB line was accepted and its count (quadratic) held the run, and every resume, for days.
      // Now it is counted as it arrives, a piece at a time, and given up at the first piece past the cut (130,747 + 25% + 64 tokens).
      expect(ended.stderr).toMatch(/p2 at iteration 0 \([^;]*; first: [^;]*its text counts 163840 tokens in its first 1310720 characters with the run's tokenizer/);
      expect(ended.stderr).toMatch(/p3 at iteration 0 \([^;]*; first: [^;]*the server counted \d+ completion tokens/);
      const partial = (await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => (JSON.parse(line) as { problem: string }).problem);
      expect(partial).toEqual(['p1', 'p1', 'p4', 'p4']);
      const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { gateway: { retriesByCause: Record<string, number> } };
      expect(metrics.gateway.retriesByCause['malformed']).toBe(2);

      proxy.healthy.current = true;
      await expectResumedAsClean(run, ended.args, path.join(dir, 'clean'));
    } finally {
      await proxy.close();
    }
  });
});
