/**
 * Reasoning tokens against the limits of a reply, served by a server of the
 * test's own over HTTP and read by the gateway: reasoning a usage counts
 * beside its completion tokens (xAI, Gemini's compatible API), billed and
 * not held to the completion limit; and visible reasoning a server holds
 * apart from `max_tokens` (DeepSeek's reasoner), held to the room the window
 * leaves the prompt.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { CallFailedError, outOfBounds, type Completion } from '../../../src/gateway/gateway.ts';
import { chatCompletionBody } from '../../fixtures.ts';
import { chunk, replyCalls, stream, words } from './reply-server.ts';

const { callTo } = replyCalls();

describe('reasoning tokens a usage counts beside its completion tokens (xAI, Gemini\'s compatible API, some gateways)', () => {
  const answer = words(10);
  const whole = (usage: Record<string, unknown>) => (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody(answer, { usage }));

  // Before, each of the first three cost 20 completion tokens (0 for the last): the reasoning billed was in no budget.
  test.each([
    ['beside, as the total says (xAI)', { prompt_tokens: 12, completion_tokens: 20, total_tokens: 332, completion_tokens_details: { reasoning_tokens: 300 } }, 320],
    ['beside, the total a token off (a proxy)', { prompt_tokens: 12, completion_tokens: 20, total_tokens: 331, completion_tokens_details: { reasoning_tokens: 300 } }, 320],
    ['beside, more than the completion tokens, no total', { prompt_tokens: 12, completion_tokens: 20, completion_tokens_details: { reasoning_tokens: 300 } }, 320],
    ['among them, as the total says (OpenAI)', { prompt_tokens: 12, completion_tokens: 320, total_tokens: 332, completion_tokens_details: { reasoning_tokens: 300 } }, 320],
    ['among them, no total', { prompt_tokens: 12, completion_tokens: 320, completion_tokens_details: { reasoning_tokens: 300 } }, 320],
    ['left in the total alone (a gateway that drops Gemini\'s thinking tokens)', { prompt_tokens: 12, completion_tokens: 20, total_tokens: 332 }, 320],
    ['none, the total two tokens off', { prompt_tokens: 12, completion_tokens: 20, total_tokens: 34 }, 20],
  ])('%s: the reply costs every token billed', async (_shape, usage, completionTokens) => {
    for (const streamed of [true, false]) {
      const send = streamed ? stream([chunk({ reasoning_content: 'Two plus one. ' }), chunk({ content: answer }), chunk({}, 'stop', usage)]) : whole(usage);
      const { result } = await callTo(send, 1000, { stream: streamed });
      const beside = completionTokens - usage.completion_tokens;
      expect((result as Completion).usage, `streamed: ${streamed}`).toStrictEqual({ promptTokens: 12, completionTokens, ...(beside > 0 ? { reasoningBeside: beside } : {}) });
    }
  });

  // Before: the 300 reasoning tokens counted against a limit of 100 that the server held only its 20 completion tokens to:
  // the whole reply was cut as past its limit, retried at full price and failed (a run through such a server stopped with
  // TMAS_ENDPOINT_DOWN after 48 retries of replies that had finished), and a resume sent a journaled one again.
  test('reasoning the server counted beside its completion tokens is billed, not held to the completion limit', async () => {
    const usage = { prompt_tokens: 12, completion_tokens: 20, total_tokens: 332, completion_tokens_details: { reasoning_tokens: 300 } };
    const sofar = (completion: number, reasoning: number) => ({ prompt_tokens: 12, completion_tokens: completion, total_tokens: 12 + completion + reasoning, completion_tokens_details: { reasoning_tokens: reasoning } });
    const shapes = [
      ['whole', whole(usage), false],
      ['streamed, usage at the end', stream([chunk({ content: answer }), chunk({}, 'stop', usage)]), true],
      ['streamed, usage in every chunk', stream([chunk({ content: '' }, null, sofar(0, 150)), chunk({ content: answer }, null, sofar(20, 300)), chunk({}, 'stop', usage)]), true],
    ] as const;
    for (const [shape, send, streamed] of shapes) {
      const { result } = await callTo(send, 100, { stream: streamed });
      expect(result, shape).toMatchObject({ content: answer, finishReason: 'stop', attempts: 1, usage: { promptTokens: 12, completionTokens: 320, reasoningBeside: 300 } });
      expect(outOfBounds({ response: { content: answer, reasoning: null }, usage: (result as Completion).usage! }, { maxTokens: 100, room: 100 }), shape).toBeNull();
    }
    // Its stated completion tokens past the limit are still a reply past it.
    const over = await callTo(whole({ ...usage, completion_tokens: 150, total_tokens: 462 }), 100, { stream: false });
    expect((over.result as CallFailedError).message).toMatch(/past its completion limit of 100 tokens: the server counted 150/);
  });

  test('a completion of 0 tokens beside 60 of reasoning costs 60, not nothing', async () => {
    const { result } = await callTo(whole({ prompt_tokens: 21, completion_tokens: 0, total_tokens: 81, completion_tokens_details: { reasoning_tokens: 60 } }), 1000, { stream: false });
    expect((result as Completion).usage).toStrictEqual({ promptTokens: 21, completionTokens: 60, reasoningBeside: 60 });
  });
});

describe("visible reasoning a server holds apart from max_tokens (DeepSeek's reasoner: the answer within max_tokens, its reasoning up to a cap of its own)", () => {
  // 600 o200k tokens of reasoning (a completion limit of 100, the window leaving 2,000), then an answer of 20.
  const reasoning = words(300);
  const answer = words(10);
  const usage = { prompt_tokens: 12, completion_tokens: 620, total_tokens: 632, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 12, completion_tokens_details: { reasoning_tokens: 600 } };
  const pieces = (field: string, text: string) => (text.match(/.{1,40}/gs) ?? []).map((piece) => chunk({ [field]: piece }));

  // Before: the stream was cut once its reasoning counted past 100 + 25% + 64 tokens, retried at full price and failed, and
  // a whole reply's usage of 620 was a reply past its limit.
  test('streamed, with or without usage, or whole: the reply is taken at its first attempt, its usage as the server stated it', async () => {
    const shapes = [
      ['streamed, usage at the end', stream([...pieces('reasoning_content', reasoning), ...pieces('content', answer), chunk({}, 'stop', usage)]), true],
      ['streamed, no usage', stream([...pieces('reasoning_content', reasoning), ...pieces('content', answer), chunk({}, 'stop')]), true],
      ['whole', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('', { choices: [{ index: 0, message: { role: 'assistant', content: answer, reasoning_content: reasoning }, finish_reason: 'stop' }], usage })), false],
    ] as const;
    for (const [shape, send, streamed] of shapes) {
      const { result } = await callTo(send, 100, { stream: streamed }, 2000);
      expect(result, shape).toMatchObject({ content: answer, reasoning, finishReason: 'stop', attempts: 1 });
      const stated = (result as Completion).usage;
      if (shape === 'streamed, no usage') expect((result as Completion).countedTokens, shape).toBeGreaterThan(600);
      else expect(stated, shape).toStrictEqual({ promptTokens: 12, completionTokens: 620, reasoningApart: 600 });
      // A resume takes the journaled answer as it is.
      const journaled = stated ?? { completionTokens: (result as Completion).countedTokens!, estimated: true as const };
      expect(outOfBounds({ response: { content: answer, reasoning }, usage: journaled }, { maxTokens: 100, room: 2000 }), shape).toBeNull();
    }
  });

  test('still cut: an answer past the limit, reasoning past the room, a usage whose answer passes the limit; and, the window leaving no more than the limit, reasoning past it', async () => {
    const longAnswer = await callTo(stream([...pieces('reasoning_content', words(20)), ...pieces('content', words(300)), chunk({}, 'stop')]), 100, {}, 2000);
    const longReasoning = await callTo(stream([...pieces('reasoning_content', words(1500)), ...pieces('content', answer), chunk({}, 'stop')]), 100, {}, 2000);
    const overUsage = await callTo(stream([...pieces('reasoning_content', reasoning), ...pieces('content', answer), chunk({}, 'stop', { ...usage, completion_tokens: 750 })]), 100, {}, 2000);
    const noRoom = await callTo(stream([...pieces('reasoning_content', reasoning), ...pieces('content', answer), chunk({}, 'stop', usage)]), 100);
    for (const { result } of [longAnswer, overUsage, noRoom]) expect((result as CallFailedError).message).toMatch(/past its completion limit of 100 tokens/);
    expect((longReasoning.result as CallFailedError).message).toMatch(/past the 2000 tokens the window leaves its prompt \(its answer held to its completion limit of 100\): its text counts/);
  });
});

describe("a reasoning model that streams nothing while it thinks (OpenAI's, in the openai-reasoning dialect)", () => {
  /** Headers at once, then `silentMs` of nothing (the model thinks), then the answer; `pauseMs` of nothing inside it. */
  const thinking = (silentMs: number, pauseMs = 0) => (res: ServerResponse) => {
    res.on('error', () => {});
    res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
    setTimeout(() => {
      res.write(chunk({ role: 'assistant', content: 'The answer ' }));
      setTimeout(() => res.end(`${chunk({ content: 'is 3.' }, 'stop')}data: [DONE]\n\n`), pauseMs);
    }, silentMs);
  };
  const limits = { timeoutMs: 300, maxRetries: 0 };

  // Before: cut at the idle limit while it thought, each attempt paid and sent again until the call failed.
  test('is waited for until its first text, whatever the idle limit; the idle limit holds from then on, and for other endpoints', async () => {
    const waited = await callTo(thinking(900), 1000, { ...limits, dialect: 'openai-reasoning' });
    expect(waited.result).toMatchObject({ content: 'The answer is 3.', attempts: 1 });
    const paused = await callTo(thinking(0, 900), 1000, { ...limits, dialect: 'openai-reasoning' });
    expect((paused.result as CallFailedError).message).toMatch(/no byte from the server for 0.3 s \(--timeout 0.3\)/);
    const chat = await callTo(thinking(900), 1000, limits);
    expect((chat.result as CallFailedError).message).toMatch(/no byte from the server/);
  });
});
