/**
 * How replies end on servers that are not the simulator, read through the
 * gateway over real sockets: a stream closed by `data: [DONE]` whose chunks
 * never carried a finish reason (some proxies and older servers), and the
 * finish reasons other servers say in their own words.
 */
import { createHook } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CallFailedError, createGateway, type Completion, type GatewayOptions } from '../../../src/gateway/gateway.ts';
import { createPool, type Pool } from '../../../src/pool/pool.ts';
import { additionRequest, chatChunkEvent, chatCompletionBody, serveHttp } from '../../fixtures.ts';

/** One retry, short backoffs, an idle limit no test should meet. */
const OPTIONS: GatewayOptions = { concurrency: 4, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 30_000 };
/** The completion limit of every call here. */
const MAX_TOKENS = 100;

/** A usage chunk, as vLLM sends one after the finish reason, with `completion` tokens. */
function usageEvent(completion: number): string {
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [], usage: { prompt_tokens: 10, completion_tokens: completion, total_tokens: 10 + completion } })}\n\n`;
}

/** A stream of `text` whose last chunk says `finishReason` (any value: null says none), then a usage of `completion` tokens (none when null), then `[DONE]` unless `done` is false. */
function streamed(res: ServerResponse, text: string, finishReason: unknown, { completion = 5 as number | null, done = true } = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const last = `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [{ index: 0, delta: {}, finish_reason: finishReason }] })}\n\n`;
  res.end(chatChunkEvent({ role: 'assistant', content: text }) + last + (completion === null ? '' : usageEvent(completion)) + (done ? 'data: [DONE]\n\n' : ''));
}

/** A whole JSON reply of `text` whose choice says `finishReason` (undefined: no such field), with a usage of `completion` tokens. */
function whole(res: ServerResponse, text: string, finishReason: unknown, { completion = 5 } = {}): void {
  const choice = { index: 0, message: { role: 'assistant', content: text }, ...(finishReason === undefined ? {} : { finish_reason: finishReason }) };
  res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody(text, { choices: [choice], usage: { prompt_tokens: 10, completion_tokens: completion, total_tokens: 10 + completion } }));
}

/** Makes `calls` calls to a server answering each request by `answer`; returns their completions or failures, the requests it got, and what the gateway told of finish reasons. */
async function call(answer: (res: ServerResponse, index: number) => void, extra: Partial<GatewayOptions> = {}, calls = 1) {
  let index = 0;
  const server = await serveHttp((_req, res) => answer(res, index++));
  const told: Array<string | null> = [];
  const gateway = createGateway({ ...OPTIONS, onFinishUnknown: (_endpoint, said) => told.push(said), ...extra });
  try {
    const results: Array<Completion | CallFailedError> = [];
    for (let i = 0; i < calls; i++) results.push(await gateway.complete(additionRequest(server.url, i + 1, MAX_TOKENS)).catch((error: unknown) => error as CallFailedError));
    return { results, first: results[0] as Completion, requests: server.requests(), told };
  } finally {
    gateway.close();
    await server.close();
  }
}

describe('a stream closed by data: [DONE] without a finish reason is a whole reply', () => {
  let pool: Pool;
  beforeAll(() => {
    pool = createPool({ threads: 1 });
  });
  afterAll(() => pool.close());
  const countTokens = (texts: string[], signal: AbortSignal | undefined) => pool.countTokens(texts, signal === undefined ? {} : { signal });

  test('answered at the first attempt, stopped, and told once for the endpoint (before: retried until the endpoint was down)', async () => {
    const { results, requests, told } = await call((res) => streamed(res, 'The answer is \\boxed{2}.', null), {}, 3);
    for (const result of results) expect(result).toMatchObject({ content: 'The answer is \\boxed{2}.', finishReason: 'stop', attempts: 1 });
    expect(requests).toBe(3);
    expect(told).toEqual([null]);
  });

  test('cut at the length limit when its usage reached max_tokens', async () => {
    const { first } = await call((res) => streamed(res, 'The answer is', null, { completion: MAX_TOKENS }));
    expect(first).toMatchObject({ content: 'The answer is', finishReason: 'length', attempts: 1 });
  });

  test("without usage, cut when the run's count of its text reached max_tokens, stopped when it did not", async () => {
    const long = Array.from({ length: MAX_TOKENS + 5 }, () => 'word').join(' ');
    const { first: cut } = await call((res) => streamed(res, long, null, { completion: null }), { countTokens });
    expect(cut).toMatchObject({ finishReason: 'length', usage: null });
    expect(cut.countedTokens).toBeGreaterThanOrEqual(MAX_TOKENS);
    const { first: stopped } = await call((res) => streamed(res, 'The answer is \\boxed{2}.', null, { completion: null }), { countTokens });
    expect(stopped).toMatchObject({ finishReason: 'stop', usage: null });
  });

  test('a stream that ends with neither [DONE] nor a finish reason still fails, retried', async () => {
    const { first, requests, told } = await call((res) => streamed(res, 'The answer is', null, { done: false }));
    expect(first).toBeInstanceOf(CallFailedError);
    expect((first as unknown as CallFailedError).message).toContain('ended before a finish reason, without data: [DONE]');
    expect(requests).toBe(2);
    expect(told).toEqual([]);
  });

  test('a stream of data: [DONE] alone, or of chunks without a choice, is no reply: retried', async () => {
    const bare = await call((res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: [DONE]\n\n'));
    expect((bare.first as unknown as CallFailedError).message).toContain('closed by data: [DONE] before any choice came');
    expect(bare.requests).toBe(2);
    const usageOnly = await call((res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`${usageEvent(0)}data: [DONE]\n\n`));
    expect(usageOnly.first).toBeInstanceOf(CallFailedError);
  });

  test('a whole JSON reply without a finish reason is inferred alike (before: "unknown", graded as whole when cut)', async () => {
    const { first, told } = await call((res) => whole(res, 'The answer is', undefined, { completion: MAX_TOKENS }), { stream: false });
    expect(first).toMatchObject({ finishReason: 'length', attempts: 1 });
    expect(told).toEqual([null]);
  });
});

describe("finish reasons in other servers' words mean what they say", () => {
  // TGI's eos_token and stop_sequence, Anthropic's end_turn and max_tokens, Gemini's and Cohere's upper case.
  const words: Array<[unknown, string]> = [
    ['eos_token', 'stop'],
    ['eos', 'stop'],
    ['stop_sequence', 'stop'],
    ['end_turn', 'stop'],
    ['COMPLETE', 'stop'],
    ['max_tokens', 'length'],
    ['MAX_TOKENS', 'length'],
    // vLLM's repetition detection (and Moonshot's repeat) cut a loop before the limit it would have run to: before, an
    // unknown word, inferred whole (stop) from its few tokens, its loop's box graded as the answer.
    ['repetition', 'length'],
    ['repeat', 'length'],
    ['SAFETY', 'content_filter'],
    ['tool_calls', 'tool_calls'],
    ['function_call', 'tool_calls'],
  ];
  test.for(words.flatMap(([word, meaning]) => [['streamed', word, meaning] as const, ['whole', word, meaning] as const]))('%s, finish_reason %j: %s', async ([mode, word, meaning]) => {
    const { first, told } = await call((res) => (mode === 'streamed' ? streamed : whole)(res, 'The answer is \\boxed{2}.', word), { stream: mode === 'streamed' });
    expect(first).toMatchObject({ finishReason: meaning, attempts: 1 });
    expect(told).toEqual([]);
  });

  test.for([
    ['streamed', 'user_cancel'],
    ['whole', 'cancelled'],
    ['streamed', 'pause_turn'],
  ] as const)('%s, finish_reason "%s": an unfinished generation, retried', async ([mode, word]) => {
    const { first, requests } = await call((res, index) => (mode === 'streamed' ? streamed : whole)(res, index === 0 ? 'The answer is \\boxed{' : 'The answer is \\boxed{2}.', index === 0 ? word : 'stop'), { stream: mode === 'streamed' });
    expect(first).toMatchObject({ content: 'The answer is \\boxed{2}.', finishReason: 'stop', attempts: 2 });
    expect(requests).toBe(2);
  });

  // A number (a stop token's id), an object, a word of no server known: read from the tokens, and told with what was said.
  test.for([
    ['streamed', 42, MAX_TOKENS, 'length', '42'],
    ['whole', { type: 'stop' }, 5, 'stop', '{"type":"stop"}'],
    ['streamed', 'finished_somehow', 5, 'stop', '"finished_somehow"'],
    ['whole', 'finished_somehow', MAX_TOKENS, 'length', '"finished_somehow"'],
  ] as const)('%s, finish_reason %j with %i tokens: %s, told once as %s', async ([mode, word, completion, meaning, shown]) => {
    const { results, told } = await call((res) => (mode === 'streamed' ? streamed : whole)(res, 'The answer is', word, { completion }), { stream: mode === 'streamed' }, 2);
    for (const result of results) expect(result).toMatchObject({ finishReason: meaning, attempts: 1 });
    expect(told).toEqual([shown]);
  });
});

describe('a finish reason on every chunk of a stream that is no finish', () => {
  /** A stream whose chunks come 300 ms apart, each saying `word` as its finish reason, then a last one saying stop. */
  function slowly(res: ServerResponse, word: string, pieces = ['The answer ', 'is ', '\\boxed{2}.'], everyMs = 300): void {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    pieces.forEach((piece, i) => setTimeout(() => res.write(chatChunkEvent(i === 0 ? { role: 'assistant', content: piece } : { content: piece }, word)), i * everyMs));
    setTimeout(() => res.end(chatChunkEvent({}, 'stop') + 'data: [DONE]\n\n'), pieces.length * everyMs);
  }

  // KoboldCpp's streams said "null" on every chunk; a word tmas does not know may be a server's word for "not yet".
  // Before, each was taken as the finish: the stream taken whole 100 ms (the grace) after its first chunk, "The answer " graded as the reply.
  test.for(['null', 'None', 'generating'])('"%s": the stream is read to its end, its whole text the reply', async (word) => {
    const { first, requests } = await call((res) => slowly(res, word), { finishGraceMs: 100 });
    expect(first).toMatchObject({ content: 'The answer is \\boxed{2}.', finishReason: 'stop', attempts: 1 });
    expect(requests).toBe(1);
  });

  test('"stop" on every one of 90 one-token chunks: read whole with one timer for its grace, not one a token', async () => {
    const tokens = 90;
    let timers = 0;
    const hook = createHook({
      init: (_id, type) => {
        if (type === 'Timeout') timers++;
      },
    });
    // Each chunk a loop turn after the last (setImmediate makes no Timeout), so that each is a read of its own.
    const everyTokenStops = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const next = () => {
        if (sent === tokens) return void res.end(`${usageEvent(tokens)}data: [DONE]\n\n`);
        sent++;
        res.write(chatChunkEvent({ content: 'a' }, 'stop'));
        setImmediate(next);
      };
      next();
    };
    hook.enable();
    const { first } = await call(everyTokenStops).finally(() => hook.disable());
    expect(first).toMatchObject({ content: 'a'.repeat(tokens), finishReason: 'stop', attempts: 1 });
    // The attempt's idle and total limits, the grace's one, and a few of the gateway's own (before: one more a token).
    expect(timers).toBeLessThan(20);
  });

  // Before, the first chunk's usage ended the stream at once: "The " was the reply, graded and journaled.
  test('"stop" and the usage so far on every chunk: the stream is read while its text comes, not ended at its first chunk', async () => {
    const words = ['The ', 'answer ', 'is ', '\\boxed{2}.'];
    const everyChunkDone = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunkOf = (i: number) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [{ index: 0, delta: { content: words[i] }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: i + 1, total_tokens: 11 + i } })}\n\n`;
      words.forEach((_, i) => setTimeout(() => res.write(chunkOf(i)), i * 100));
      setTimeout(() => res.end('data: [DONE]\n\n'), words.length * 100);
    };
    const { first, requests } = await call(everyChunkDone, { finishGraceMs: 1000 });
    expect(first).toMatchObject({ content: words.join(''), finishReason: 'stop', attempts: 1 });
    expect(first.usage?.completionTokens).toBe(words.length);
    expect(requests).toBe(1);
  });

  // Before, the role's chunk, text-free, ended the stream with its usage of 0 tokens: an empty answer, journaled and graded.
  test('"stop" and the usage so far on every chunk, the role\'s chunk first without text: the stream is read whole', async () => {
    const words = ['The ', 'answer ', 'is ', '\\boxed{2}.'];
    const roleFirst = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (delta: object, tokens: number) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [{ index: 0, delta, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: tokens, total_tokens: 10 + tokens } })}\n\n`;
      res.write(event({ role: 'assistant', content: '' }, 0));
      words.forEach((word, i) => setTimeout(() => res.write(event({ content: word }, i + 1)), (i + 1) * 100));
      setTimeout(() => res.end('data: [DONE]\n\n'), (words.length + 1) * 100);
    };
    const { first, requests } = await call(roleFirst, { finishGraceMs: 1000 });
    expect(first).toMatchObject({ content: words.join(''), finishReason: 'stop', attempts: 1 });
    expect(first.usage?.completionTokens).toBe(words.length);
    expect(requests).toBe(1);
  });

  test('"stop" on every chunk: the stream is read while its text comes, not cut a grace after its first chunk', async () => {
    // Eight chunks 200 ms apart under a grace of 1 s: before, the reply was what came in the second after the first
    // chunk. A gap of 200 ms leaves a loaded machine 800 ms before the grace could cut between two chunks.
    const words = ['The ', 'answer ', 'is ', 'found ', 'by ', 'counting: ', 'it ', 'is \\boxed{2}.'];
    const { first, requests } = await call((res) => slowly(res, 'stop', words, 200), { finishGraceMs: 1000 });
    expect(first).toMatchObject({ content: words.join(''), finishReason: 'stop', attempts: 1 });
    expect(requests).toBe(1);
  });
});
