/**
 * Nothing hangs, whatever the stream: servers of our own that misbehave in
 * the three ways a reply can outlast its call. A stream that trickles text
 * without usage or finish is counted with the run's tokenizer as it arrives
 * and cut soon after its limit; a usage its text belies is not believed (the
 * reply is counted, and refused past its limit); a stream that sent its
 * finish reason and usage but never ends is whole without waiting for
 * --timeout. Then a run that meets all three resumes against the simulator
 * to the results of a clean run, and a journaled reply whose usage cannot
 * hold its text is sent again on resume, with a warning.
 */
import type { ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { CallFailedError, createGateway, type GatewayOptions } from '../../../src/gateway/gateway.ts';
import { createPool, type Pool } from '../../../src/pool/pool.ts';
import { startSimServer, type SimServer } from '../../../src/sim/server.ts';
import { Store } from '../../../src/store/store.ts';
import { additionRequest, chatCompletionBody, expectResumedAsClean, readJournal, runIncomplete, serveHttp, smallProblems, startSwitchableProxy, test, writeProblems } from '../../fixtures.ts';

let pool: Pool;
let sim: SimServer;
const PROBLEMS = smallProblems(4);

beforeAll(async () => {
  pool = createPool({ threads: 1 });
  sim = await startSimServer({ problems: PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 5 });
});
afterAll(async () => {
  await pool.close();
  await sim.close();
});

/** The gateway's options with the run's tokenizer (o200k_base, on the pool), one retry, short backoffs; an idle limit no test should meet. */
function options(extra: Partial<GatewayOptions> = {}): GatewayOptions {
  const countTokens = (texts: string[], signal: AbortSignal | undefined) => pool.countTokens(texts, signal === undefined ? {} : { signal });
  return { concurrency: 16, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 600_000, countTokens, ...extra };
}

/** A chunk event: `delta` as the choice's delta, a finish reason when given, a usage of `completionTokens` when given. */
function event(delta: Record<string, unknown>, finishReason: string | null = null, completionTokens: number | null = null): string {
  const usage = completionTokens === null ? {} : { usage: { prompt_tokens: 10, completion_tokens: completionTokens, total_tokens: 10 + completionTokens } };
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [{ index: 0, delta, finish_reason: finishReason }], ...usage })}\n\n`;
}

/** The chunk that carries a stream's usage at its end. */
function usageEvent(completionTokens: number): string {
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [], usage: { prompt_tokens: 10, completion_tokens: completionTokens, total_tokens: 10 + completionTokens } })}\n\n`;
}

/** "more text " every `ms` (as `field` of the delta), with no usage and no finish reason, until the client hangs up. */
function trickle(res: ServerResponse, ms: number, field = 'content'): void {
  res.on('error', () => {});
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const tick = () => {
    if (res.destroyed) return;
    res.write(event({ [field]: 'more text ' }));
    setTimeout(tick, ms);
  };
  tick();
}

/** The same, as fast as the client reads. */
function flood(res: ServerResponse): void {
  res.on('error', () => {});
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const piece = event({ content: 'more text '.repeat(10) });
  const more = () => {
    while (!res.destroyed && res.write(piece));
    if (!res.destroyed) res.once('drain', more);
  };
  more();
}

/** One 10 MB `data:` line of text, its finish, then a usage chunk claiming 12 completion tokens, and [DONE]. */
function beliedLine(res: ServerResponse): void {
  res.on('error', () => {});
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(event({ content: 'more text '.repeat(2 ** 20) }));
  res.end(`${event({}, 'stop')}${usageEvent(12)}data: [DONE]\n\n`);
}

/** A whole stream: `text` (and `reasoning`, when given) in pieces of a hundred characters, then `closing`, and nothing more: the connection stays open. */
function finishedOpen(res: ServerResponse, text: string, closing: string, reasoning = ''): void {
  res.on('error', () => {});
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (let at = 0; at < reasoning.length; at += 100) res.write(event({ reasoning_content: reasoning.slice(at, at + 100) }));
  for (let at = 0; at < text.length; at += 100) res.write(event({ content: text.slice(at, at + 100) }));
  res.write(closing);
}

/** Runs `calls` calls of `maxTokens` against a server answering with `send`; resolves their results (a completion or the error) and the gateway's stats. */
async function callsTo(send: (res: ServerResponse) => void, maxTokens: number, extra: Partial<GatewayOptions> = {}, calls = 1) {
  const server = await serveHttp((_req, res) => send(res));
  const gateway = createGateway(options(extra));
  try {
    const results = await Promise.all(Array.from({ length: calls }, (_, i) => gateway.complete(additionRequest(server.url, i + 1, maxTokens)).catch((error: unknown) => error as CallFailedError)));
    return { results, stats: gateway.stats, requests: server.requests() };
  } finally {
    gateway.close();
    await server.close();
  }
}

/** `pairs` times "more text", spaced: two o200k tokens each. */
function words(pairs: number): string {
  return Array.from({ length: pairs }, () => 'more text').join(' ');
}

/** The count a failure names: "its text counts N tokens …". */
function countIn(failure: CallFailedError): number {
  return Number(/its text counts (\d+) tokens/.exec(failure.message)?.[1]);
}

describe('every reply is cut at its own limit, counted as it arrives', () => {
  test('a stream sending "more text " every 2 ms, without usage or finish, to a call of 600 tokens is cut soon after 600 tokens, retried, then fails', async () => {
    const { results, stats, requests } = await callsTo((res) => trickle(res, 2), 600);
    const [failure] = results as CallFailedError[];
    expect(failure).toBeInstanceOf(CallFailedError);
    expect(failure?.code).toBe('TMAS_CALL_FAILED');
    expect(failure?.message).toMatch(/went past its completion limit of 600 tokens: its text counts \d+ tokens in its first \d+ characters with the run's tokenizer \(as it arrived\), past the limit and its margin for tokenizers \(25% \+ 64: 814\)/);
    // Cut within a few hundred characters of the cut, not at the 157,696 characters (31,000 tokens) of the character cap.
    expect(countIn(failure as CallFailedError)).toBeGreaterThan(814);
    expect(countIn(failure as CallFailedError)).toBeLessThan(1000);
    expect(stats.retriesByCause).toEqual({ malformed: 1 });
    expect(requests).toBe(2);
  });

  test('the same as reasoning (reasoning_content) is cut alike', async () => {
    const { results } = await callsTo((res) => trickle(res, 1, 'reasoning_content'), 600);
    const [failure] = results as CallFailedError[];
    expect(failure?.message).toMatch(/went past its completion limit of 600 tokens: its text counts \d+ tokens in its first \d+ characters with the run's tokenizer \(as it arrived\)/);
    expect(countIn(failure as CallFailedError)).toBeLessThan(1000);
  });

  test('reasoning and answer count together: 500 tokens of each, finished without usage, pass a limit of 600 that neither passes alone', async () => {
    const half = words(250);
    const { results } = await callsTo((res) => finishedOpen(res, half, `${event({}, 'stop')}data: [DONE]\n\n`, half), 600);
    const [failure] = results as CallFailedError[];
    // Cut as it arrived, or counted once whole, depending on how fast the pool counts: past the cut either way.
    expect(failure?.message).toMatch(/went past its completion limit of 600 tokens: its text counts \d+ tokens/);
    expect(countIn(failure as CallFailedError)).toBeGreaterThan(814);
    const alone = await callsTo((res) => finishedOpen(res, half, `${event({}, 'stop')}data: [DONE]\n\n`), 600);
    expect(alone.results[0]).toMatchObject({ content: half, usage: null, countedTokens: 500 });
  });

  test('not streamed: a whole reply without usage whose text counts past the limit and its margin is refused, retried, then fails', async () => {
    const body = chatCompletionBody(words(500), { usage: undefined });
    const { results, stats } = await callsTo((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body), 600, { stream: false });
    const [failure] = results as CallFailedError[];
    expect(failure?.message).toMatch(/went past its completion limit of 600 tokens: its text counts \d+ tokens (in its first \d+ characters )?with the run's tokenizer \(it came without usage\)/);
    expect(countIn(failure as CallFailedError)).toBeGreaterThan(814);
    expect(stats.retriesByCause).toEqual({ malformed: 1 });
  });
});

describe('usage is checked, not trusted', () => {
  test('one 10 MB data: line with a usage chunk claiming 12 completion tokens is counted, refused, retried, then fails', async () => {
    // 50,000 tokens: the line is within the byte cap (1 MiB + 1 KiB a token) and the character cap (4,096 + 256 a token).
    const { results, stats, requests } = await callsTo((res) => beliedLine(res), 50_000);
    const [failure] = results as CallFailedError[];
    expect(failure?.code).toBe('TMAS_CALL_FAILED');
    // Counted a piece at a time, and given up at the first piece past the cut (62,564), as it arrived or once the usage showed that it is not to be believed.
    expect(failure?.message).toMatch(/went past its completion limit of 50000 tokens: its text counts \d+ tokens in its first \d+ characters with the run's tokenizer \((as it arrived|its usage of 12 tokens cannot hold its 10485760 characters)\)/);
    expect(stats.retriesByCause).toEqual({ malformed: 1 });
    expect(requests).toBe(2);
  });

  test('not streamed: a reply whose usage claims 12 tokens for 100,000 characters is counted and refused past its limit', async () => {
    const body = chatCompletionBody(`${words(10_000)} `, { usage: { prompt_tokens: 10, completion_tokens: 12, total_tokens: 22 } });
    const { results } = await callsTo((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body), 1000, { stream: false });
    const [failure] = results as CallFailedError[];
    expect(failure?.message).toMatch(/went past its completion limit of 1000 tokens: its text counts \d+ tokens (in its first \d+ characters )?with the run's tokenizer \(its usage of 12 tokens cannot hold its 100000 characters\)/);
  });

  test('a belied usage within the limit is dropped: the reply is counted like one without usage (journaled as estimated)', async () => {
    const text = words(2_000);
    const streamed = await callsTo((res) => finishedOpen(res, text, `${event({}, 'stop')}${usageEvent(12)}data: [DONE]\n\n`), 8000);
    expect(streamed.results[0]).toMatchObject({ content: text, usage: null, countedTokens: 4000 });
    const body = chatCompletionBody(text, { usage: { prompt_tokens: 10, completion_tokens: 12, total_tokens: 22 } });
    const whole = await callsTo((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body), 8000, { stream: false });
    expect(whole.results[0]).toMatchObject({ content: text, usage: null, countedTokens: 4000 });
    expect(whole.stats.noUsage).toBe(1);
  });
});

describe('a complete reply is complete', () => {
  test('10 streams that send their finish reason and usage, then keep the connection open without [DONE], are whole at once (the idle limit is 10 minutes)', async () => {
    const { results, stats } = await callsTo((res) => finishedOpen(res, 'The answer is 2.', `${event({}, 'stop')}${usageEvent(5)}`), 100, {}, 10);
    for (const result of results) expect(result).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', usage: { completionTokens: 5 }, attempts: 1 });
    expect(stats.retries).toBe(0);
  });

  test('a stream whose finish chunk carries its usage (continuous usage) is whole at once', async () => {
    const { results } = await callsTo((res) => finishedOpen(res, 'The answer is 2.', event({}, 'stop', 5)), 100, {}, 3);
    for (const result of results) expect(result).toMatchObject({ content: 'The answer is 2.', usage: { completionTokens: 5 } });
  });

  test('a stream that sends its finish reason and nothing more is whole after the grace, without usage (counted)', async () => {
    const { results, stats } = await callsTo((res) => finishedOpen(res, words(2), event({}, 'length')), 100, { finishGraceMs: 50 }, 3);
    for (const result of results) expect(result).toMatchObject({ content: words(2), finishReason: 'length', usage: null, countedTokens: 4 });
    expect(stats.retries).toBe(0);
  });

  // Before: 'the connection broke while the reply arrived', retried: a reply the server had finished was decoded and paid twice.
  test('a stream whose connection breaks after its finish reason (before its usage and [DONE]) is whole, in one attempt, counted; one that breaks before it is retried', async () => {
    const broken = (closing: string) => (res: ServerResponse) => {
      finishedOpen(res, words(2), closing);
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const finished = await callsTo(broken(event({}, 'stop')), 100, {}, 3);
    for (const result of finished.results) expect(result).toMatchObject({ content: words(2), finishReason: 'stop', usage: null, countedTokens: 4, attempts: 1 });
    expect(finished.stats.retries).toBe(0);
    const unfinished = await callsTo(broken(''), 100);
    expect((unfinished.results[0] as CallFailedError).message).toMatch(/the connection broke while the reply arrived/);
    expect(unfinished.requests).toBe(2);
  });

  // Before: the cut usage chunk failed as bad JSON, and the finished reply was sent again (paid twice), then failed for good.
  test('a stream whose body ends inside its usage chunk, after its finish reason, is whole, in one attempt, counted; one that ends inside a text chunk is retried', async () => {
    const ended = (closing: string) => (res: ServerResponse) => {
      finishedOpen(res, words(2), closing);
      res.end();
    };
    const cutUsage = usageEvent(4).slice(0, 90);
    const finished = await callsTo(ended(`${event({}, 'stop')}${cutUsage}`), 100);
    expect(finished.results[0]).toMatchObject({ content: words(2), finishReason: 'stop', usage: null, countedTokens: 4, attempts: 1 });
    expect(finished.requests).toBe(1);
    // A last event that parses without its blank line is read: the usage and [DONE] at the body's very end.
    const unended = await callsTo(ended(`${event({}, 'stop')}${usageEvent(4).trimEnd()}`), 100);
    expect(unended.results[0]).toMatchObject({ content: words(2), usage: { completionTokens: 4 }, attempts: 1 });
    const cutText = await callsTo(ended(event({ content: ' and more' }).slice(0, 80)), 100);
    expect((cutText.results[0] as CallFailedError).message).toMatch(/ended before a finish reason/);
    expect(cutText.requests).toBe(2);
  });

  test('a whole JSON reply whose connection breaks after all its JSON came (its chunked body never ended) is the reply, in one attempt; one cut inside its JSON is retried', async () => {
    const broken = (text: string) => (res: ServerResponse) => {
      res.on('error', () => {});
      res.writeHead(200, { 'content-type': 'application/json' }).write(text);
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const body = chatCompletionBody('The answer is 2.');
    const whole = await callsTo(broken(body), 100, { stream: false });
    expect(whole.results[0]).toMatchObject({ content: 'The answer is 2.', attempts: 1 });
    expect(whole.requests).toBe(1);
    const cut = await callsTo(broken(body.slice(0, 60)), 100, { stream: false });
    expect((cut.results[0] as CallFailedError).message).toMatch(/the connection broke while the reply arrived/);
    expect(cut.requests).toBe(2);
  });
});

/** The seed a chat request's body names. */
function seedOf(body: string): number {
  return (JSON.parse(body) as { seed: number }).seed;
}

/**
 * A proxy in front of the simulator that, while `healthy` is false, answers
 * the first seed it sees of the second problem with text that never stops
 * (no usage, no finish), of the third with a 10 MB line claiming 12 tokens,
 * and every call of the fourth with the simulator's stream held open without
 * [DONE]; other seeds and problems get the simulator's own replies.
 */
function startMisbehavingProxy() {
  const firstSeeds = new Map<number, number>();
  return startSwitchableProxy(sim.url, (url, body, res) => {
    if (!url.endsWith('/chat/completions')) return false;
    const problem = [1, 2, 3].find((i) => body.includes(PROBLEMS[i]?.question ?? '?'));
    if (problem === undefined) return false;
    if (problem === 3) {
      void fetch(`${sim.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (answer) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write((await answer.text()).replace('data: [DONE]\n\n', ''));
      });
      return true;
    }
    const first = firstSeeds.get(problem) ?? seedOf(body);
    firstSeeds.set(problem, first);
    if (seedOf(body) !== first) return false;
    if (problem === 1) flood(res);
    else beliedLine(res);
    return true;
  });
}

/** Breaks the bounds of each journaled call of `problems` as a tmas that believed any usage could have journaled it: a text far longer than its usage of 1 token holds. */
async function beliedInJournal(run: string, problems: string[]): Promise<number> {
  const calls = (await readJournal(run)).filter((call) => problems.includes(call.problem));
  const store = await Store.open(run);
  try {
    for (const call of calls) await store.putCall({ ...call, response: { ...call.response, content: `${call.response.content}\n${'more text '.repeat(1000)}` }, usage: { ...call.usage, completionTokens: 1 } });
  } finally {
    await store.close();
  }
  return calls.length;
}

// Two candidates, one of them failing in two problems: the two calls that fail for good are never three in a row, which would stop the run as an endpoint down.
const RUN = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--model-name', 'tmas-sim', '--max-retries', '1', '--retry-base-ms', '1'];

describe('a run that meets such servers', () => {
  test('finishes with those calls failed, and resumes against the simulator to the results of a clean run, sending again the journaled replies a belied usage let through', async ({ dir }) => {
    const proxy = await startMisbehavingProxy();
    try {
      const ended = await runIncomplete(dir, await writeProblems(dir, PROBLEMS), proxy.url, RUN);
      const { run } = ended;
      // The failure's first 200 characters: the reason comes after them.
      expect(ended.stderr).toMatch(/p2 at iteration 0 \([^;]*; first: [^;]*completion limit of \d+ tokens: its text counts \d+ tokens in its first \d+ characters with the run's tokenizer/);
      expect(ended.stderr).toMatch(/p3 at iteration 0 \([^;]*; first: [^;]*completion limit of \d+ tokens: its text counts \d+ tokens in its first \d+ characters with the run's tokenizer/);
      // The fourth problem's streams, held open after their usage, were whole at once (else each waited out --timeout, 300 s).
      const partial = (await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => (JSON.parse(line) as { problem: string }).problem);
      expect(partial.filter((problem) => problem === 'p4')).toEqual(partial.filter((problem) => problem === 'p1').map(() => 'p4'));
      expect(partial).toContain('p4');

      // The stopped problems' other candidates were journaled; as an older tmas could have, with a usage that cannot hold their text.
      const belied = await beliedInJournal(run, ['p2', 'p3']);
      expect(belied).toBeGreaterThan(0);
      proxy.healthy.current = true;
      const resumed = await expectResumedAsClean(run, ended.args, path.join(dir, 'clean'));
      expect(resumed).toContain(`tmas: warning: ${belied} journaled ${belied === 1 ? 'reply breaks' : 'replies break'} the bounds this tmas holds replies to`);
    } finally {
      await proxy.close();
    }
  });
});
