/**
 * A reply in the shapes servers other than the simulator write it, each
 * served by a server of the test's own over HTTP and read by the gateway:
 * vLLM's deltas that carry their reasoning in two fields at once, Mistral's
 * content parts, gpt-oss's harmony channels left in the content, usage
 * counts written as strings or not as counts at all, Groq's usage, the
 * several choices of a request sent with `n`, and a refusal in place of the
 * answer. Reasoning tokens against a reply's limits: reasoning-limits.test.ts.
 */
import type { ServerResponse } from 'node:http';
import { APIError } from 'openai';
import { describe, expect, test } from 'vitest';
import { CallFailedError, type Completion } from '../../../src/gateway/gateway.ts';
import { modelGone } from '../../../src/gateway/request/model-gone.ts';
import { requestBody } from '../../../src/gateway/request/request-body.ts';
import { usageOf } from '../../../src/gateway/reply/usage-counts.ts';
import { additionRequest, chatCompletionBody } from '../../fixtures.ts';
import { chunk, replyCalls, stream, words } from './reply-server.ts';

const { callTo } = replyCalls();

describe("vLLM's deltas that carry the reasoning in both `reasoning` and `reasoning_content` (vLLM's releases between the field's rename and the old name's removal)", () => {
  const reasoning = words(350);
  // Each piece in both fields, as vLLM's DeltaMessage copied one into the other; the answer, then the finish.
  const pieces = reasoning.match(/.{1,40}/gs) ?? [];
  const events = [...pieces.map((piece) => chunk({ reasoning: piece, reasoning_content: piece })), chunk({ content: 'The answer is 2.' }), chunk({}, 'stop')];

  test('a reasoning of 700 tokens, counted with the run\'s tokenizer under a limit of 1000, is read and counted once: the call succeeds', async () => {
    // Without usage, the text is counted: 700 + 4 tokens (give or take one a piece counted apart), not twice 700 (past the cut of 1000 + 25% + 64).
    const { result, stats } = await callTo(stream(events));
    expect(result).toMatchObject({ content: 'The answer is 2.', reasoning, reasoningDialect: 'reasoning_content', attempts: 1 });
    expect((result as Completion).countedTokens).toBeGreaterThanOrEqual(704);
    expect((result as Completion).countedTokens).toBeLessThan(720);
    // The progress line's rate comes from the characters streamed: each once.
    expect(stats.streamedChars).toBe(reasoning.length + 'The answer is 2.'.length);
  });

  test('with its usage, as vLLM sends it, the reply keeps the server\'s count', async () => {
    const usage = { prompt_tokens: 10, completion_tokens: 705, total_tokens: 715 };
    const { result } = await callTo(stream([...events, `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage })}\n\n`]));
    expect(result).toMatchObject({ reasoning, usage: { promptTokens: 10, completionTokens: 705 }, countedTokens: null });
  });
});

describe('a reasoning field left empty beside the one that holds the text', () => {
  test('gives way to it', async () => {
    const events = [chunk({ reasoning_content: '', reasoning: 'Two plus one is three.' }), chunk({ reasoning_content: '', content: 'The answer is 3.' }), chunk({}, 'stop')];
    const { result } = await callTo(stream(events));
    expect(result).toMatchObject({ content: 'The answer is 3.', reasoning: 'Two plus one is three.', reasoningDialect: 'reasoning' });
  });
});

describe("OpenRouter's `reasoning_details` without a `reasoning` string beside it (a proxy that passes the list alone)", () => {
  const detail = (text: string) => [{ type: 'reasoning.text', text, format: 'anthropic-claude-v1', index: 0 }];

  test('streamed: its text items are the reasoning, counted against the limit as text; an encrypted item holds none', async () => {
    const reasoning = words(300);
    const pieces = reasoning.match(/.{1,40}/gs) ?? [];
    const events = [...pieces.map((piece) => chunk({ role: 'assistant', content: '', reasoning_details: detail(piece) })), chunk({ content: '', reasoning_details: [{ type: 'reasoning.encrypted', data: 'eyJ…' }] }), chunk({ content: 'The answer is 3.' }), chunk({}, 'stop')];
    const { result, stats } = await callTo(stream(events));
    // Before: reasoning null, and the reply counted 4 tokens, its 600 of thinking read as keep-alives.
    expect(result).toMatchObject({ content: 'The answer is 3.', reasoning, reasoningDialect: 'reasoning', attempts: 1 });
    expect((result as Completion).countedTokens).toBeGreaterThan(600);
    expect(stats.streamedChars).toBe(reasoning.length + 'The answer is 3.'.length);
  });

  test('whole: a summary item is read too', async () => {
    const body = chatCompletionBody('The answer is 3.', { choices: [{ index: 0, message: { role: 'assistant', content: 'The answer is 3.', reasoning_details: [{ type: 'reasoning.summary', summary: 'Two plus one is three.' }] }, finish_reason: 'stop' }] });
    const { result } = await callTo((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body), 1000, { stream: false });
    expect(result).toMatchObject({ content: 'The answer is 3.', reasoning: 'Two plus one is three.', reasoningDialect: 'reasoning' });
  });

  test('beside a `reasoning` string (as OpenRouter sends both), the string is read, once', async () => {
    const events = [chunk({ reasoning: 'Two plus one is three.', reasoning_details: detail('Two plus one is three.') }), chunk({ content: 'The answer is 3.' }), chunk({}, 'stop')];
    const { result } = await callTo(stream(events));
    expect(result).toMatchObject({ reasoning: 'Two plus one is three.', reasoningDialect: 'reasoning' });
  });
});

describe("Mistral's content parts (its reasoning models: `thinking` parts, then `text` parts)", () => {
  const thinking = (text: string) => [{ type: 'thinking', thinking: [{ type: 'text', text }] }];

  test('streamed: the thinking parts are the reasoning, the text parts the answer', async () => {
    const events = [chunk({ role: 'assistant', content: thinking('Two plus ') }), chunk({ content: thinking('one is three.') }), chunk({ content: [{ type: 'text', text: 'The answer is ' }] }), chunk({ content: '3.' }), chunk({}, 'stop')];
    const { result } = await callTo(stream(events));
    expect(result).toMatchObject({ content: 'The answer is 3.', reasoning: 'Two plus one is three.', reasoningDialect: 'thinking', finishReason: 'stop', attempts: 1 });
  });

  test('whole: the same, in one message', async () => {
    const body = chatCompletionBody('', { choices: [{ index: 0, message: { role: 'assistant', content: [...thinking('Two plus one is three.'), { type: 'text', text: 'The answer is 3.' }] }, finish_reason: 'stop' }] });
    const { result } = await callTo((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body), 1000, { stream: false });
    expect(result).toMatchObject({ content: 'The answer is 3.', reasoning: 'Two plus one is three.', reasoningDialect: 'thinking', attempts: 1 });
  });
});

describe("the completions route's `text` on the chat route, and a content part sent bare", () => {
  /** A chunk whose choice carries `text` and no delta, as a completions stream's does. */
  const textChunk = (text: string, finishReason: string | null = null) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, text, finish_reason: finishReason }] })}\n\n`;

  test('streamed: a choice with `text` and no delta is the answer, not an empty reply', async () => {
    const { result } = await callTo(stream([textChunk('The answer '), textChunk('is 2.'), textChunk('', 'stop')]));
    expect(result).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', attempts: 1 });
  });

  test('whole: a choice with `text` and no message is the answer', async () => {
    const body = chatCompletionBody('', { choices: [{ index: 0, text: 'The answer is 2.', finish_reason: 'stop' }] });
    const { result } = await callTo((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body), 1000, { stream: false });
    expect(result).toMatchObject({ content: 'The answer is 2.', attempts: 1 });
  });

  test('a delta whose content is one text part, not a list of parts, is read as its text', async () => {
    const events = [chunk({ content: { type: 'text', text: 'The answer ' } }), chunk({ content: { text: 'is 2.' } }), chunk({}, 'stop')];
    const { result } = await callTo(stream(events));
    expect(result).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', attempts: 1 });
  });
});

describe("a choice that carries its text in the other field: a `message` in a stream, a `delta` in a whole reply", () => {
  /** One event whose choice carries `fields` (a message, a delta, or both). */
  const event = (fields: Record<string, unknown>, finishReason: string | null) => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, ...fields, finish_reason: finishReason }] })}\n\n`;

  test('a whole completion sent as the stream\'s one event is the answer, not an empty reply', async () => {
    const message = { role: 'assistant', content: 'The answer is 2.', reasoning_content: 'One plus one.' };
    const { result } = await callTo(stream([event({ message }, 'stop')]));
    expect(result).toMatchObject({ content: 'The answer is 2.', reasoning: 'One plus one.', finishReason: 'stop', attempts: 1 });
  });

  // Before: not streamed, an empty answer journaled; to a streamed request, "holds no choice with a message", retried until it failed.
  test('a whole reply in a chunk\'s shape (its choice carries a `delta`, no message) is the answer, streamed or not', async () => {
    const body = chatCompletionBody('', { object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: 'The answer is 2.' }, finish_reason: 'stop' }] });
    for (const stream of [false, true]) {
      const { result } = await callTo((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body), 1000, { stream });
      expect(result, `stream: ${stream}`).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', attempts: 1 });
    }
  });

  test('a chunk with both a delta and the message so far (Perplexity\'s) is read by its delta, the text taken once', async () => {
    const events = [event({ delta: { content: 'The answer ' }, message: { content: 'The answer ' } }, null), event({ delta: { content: 'is 2.' }, message: { content: 'The answer is 2.' } }, 'stop')];
    const { result } = await callTo(stream(events));
    expect(result).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', attempts: 1 });
  });

  // A stream that carries its text in `message` pieces, no delta: each piece is new text, not a repeat of the text so far.
  test('a stream whose every chunk carries a piece of the text in `message` (no delta) is read piece after piece', async () => {
    const events = [event({ message: { role: 'assistant', content: 'The answer ' } }, null), event({ message: { content: 'is 2.' } }, null), event({ message: { content: '' } }, 'stop')];
    const { result, stats } = await callTo(stream(events));
    expect(result).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', attempts: 1 });
    expect(stats.streamedChars).toBe('The answer is 2.'.length);
  });

  test('a stream whose every chunk carries the text so far in `message` (no delta) takes each chunk\'s new part once', async () => {
    const events = [event({ message: { content: 'The answer ' } }, null), event({ message: { content: 'The answer is 2.' } }, 'stop')];
    const { result, stats } = await callTo(stream(events));
    expect(result).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', attempts: 1 });
    expect(stats.streamedChars).toBe('The answer is 2.'.length);
  });

  // Before: the message, read as more text, was added to the deltas: "The answer is 2.The answer is 2.", its characters counted twice.
  test.each([
    ['no delta', {}],
    ['a null delta', { delta: null }],
  ])('a last chunk with the whole message and %s, after deltas, adds only what the deltas lacked', async (_name, delta) => {
    const deltas = [chunk({ role: 'assistant', reasoning_content: 'One plus ' }), chunk({ reasoning_content: 'one.' }), chunk({ content: 'The answer ' })];
    const last = event({ ...delta, message: { role: 'assistant', content: 'The answer is 2.', reasoning_content: 'One plus one.' } }, 'stop');
    const { result, stats } = await callTo(stream([...deltas, last]));
    expect(result).toMatchObject({ content: 'The answer is 2.', reasoning: 'One plus one.', finishReason: 'stop', attempts: 1 });
    expect(stats.streamedChars).toBe('One plus one.'.length + 'The answer is 2.'.length);
  });
});

describe('a usage block is read as counts of tokens', () => {
  const answer = words(10);
  const whole = (usage: Record<string, unknown>) => (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody(answer, { usage }));

  test.each([true, false])('counts written as strings are the counts they spell (streamed: %s)', async (streamed) => {
    const usage = { prompt_tokens: '12', completion_tokens: '20', total_tokens: '32' };
    const send = streamed ? stream([chunk({ content: answer }), chunk({}, 'stop', usage)]) : whole(usage);
    const { result } = await callTo(send, 1000, { stream: streamed });
    expect((result as Completion).usage).toStrictEqual({ promptTokens: 12, completionTokens: 20 });
  });

  test.each([-5, 2.5, 'twenty', true])('completion tokens of %j are no count: the reply is taken as one without usage, and counted', async (completion) => {
    const { result, stats } = await callTo(whole({ prompt_tokens: 12, completion_tokens: completion, total_tokens: 32 }), 1000, { stream: false });
    expect(result).toMatchObject({ content: answer, usage: null, countedTokens: 20 });
    expect(stats.noUsage).toBe(1);
  });
});

describe('a reasoning field sent empty beside a content that holds its reasoning inline', () => {
  // Before, the <think> block, its tentative \\boxed{3} included, was the answer every role read.
  test.each([true, false])('the inline reasoning is split off all the same (streamed: %s)', async (streamed) => {
    const content = '<think>\nMaybe \\boxed{3}.\n</think>\n\nThe answer is \\boxed{5}.';
    const message = { role: 'assistant', content, reasoning_content: '' };
    const send = streamed
      ? stream([chunk({ role: 'assistant', content: '', reasoning_content: '' }), chunk({ content: content.slice(0, 12), reasoning_content: '' }), chunk({ content: content.slice(12), reasoning_content: '' }), chunk({}, 'stop')])
      : (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody(content, { choices: [{ index: 0, message, finish_reason: 'stop' }] }));
    const { result } = await callTo(send, 1000, { stream: streamed });
    expect(result).toMatchObject({ content: '\n\nThe answer is \\boxed{5}.', reasoning: 'Maybe \\boxed{3}.', reasoningDialect: 'think-tags' });
  });
});

describe("gpt-oss's harmony channels left in the content by a server that does not parse them", () => {
  const analysis = 'Maybe \\boxed{3}? SCORE: 1. No, recount.';
  const answer = 'The answer is \\boxed{5}.\n\nSCORE: 0';
  const tagged = `<|channel|>analysis<|message|>${analysis}<|end|><|start|>assistant<|channel|>final<|message|>${answer}<|return|>`;

  // Before, the whole content was the answer: a verifier, a summary or a score read the analysis as the reply's own words.
  test.each([
    ['with its special tokens, streamed a few characters a chunk', tagged, true],
    ['with its special tokens, whole', tagged, false],
    ['its special tokens skipped (their words left), streamed', `analysis${analysis}assistantfinal${answer}`, true],
  ])('%s: the final channel is the answer, the analysis the reasoning', async (_shape, content, streamed) => {
    const pieces = content.match(/[\s\S]{1,7}/g) ?? [];
    const send = streamed ? stream([chunk({ role: 'assistant', content: '' }), ...pieces.map((piece) => chunk({ content: piece })), chunk({}, 'stop')]) : (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody(content));
    const { result, stats } = await callTo(send, 1000, { stream: streamed });
    expect(result).toMatchObject({ content: answer, reasoning: analysis, reasoningDialect: 'harmony', finishReason: 'stop' });
    expect(stats.reasoningDialects).toEqual({ harmony: 1 });
  });

  test('a reply cut while it analysed is reasoning only, with no answer, as an unclosed <think> is', async () => {
    const cut = `<|channel|>analysis<|message|>${analysis} Let me try \\boxed{7}`;
    const { result } = await callTo(stream([chunk({ content: cut }), chunk({}, 'length')]));
    expect(result).toMatchObject({ content: '', reasoning: `${analysis} Let me try \\boxed{7}`, finishReason: 'length' });
  });

  // Before, the stripped form (special tokens skipped) cut while it analysed was the answer: its tentative \\boxed{7} was graded.
  test.each([
    ['streamed, finish length', stream([chunk({ content: `analysis${analysis} Let me try \\boxed{7}` }), chunk({}, 'length')]), 1000],
    ['whole, finish length', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody(`analysis${analysis} Let me try \\boxed{7}`, { choices: [{ index: 0, message: { role: 'assistant', content: `analysis${analysis} Let me try \\boxed{7}` }, finish_reason: 'length' }] })), 1000],
    ['whole, no finish reason, its tokens at the limit', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody(`analysis${analysis} Let me try \\boxed{7}`, { choices: [{ index: 0, message: { role: 'assistant', content: `analysis${analysis} Let me try \\boxed{7}` }, finish_reason: null }], usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 } })), 20],
  ])('its special tokens skipped, cut while it analysed (%s): reasoning only, marked cut', async (shape, send, maxTokens) => {
    const { result } = await callTo(send, maxTokens, { stream: !shape.startsWith('whole') });
    expect(result).toMatchObject({ content: '', reasoning: `${analysis} Let me try \\boxed{7}`, reasoningDialect: 'harmony', finishReason: 'length' });
  });

  test('a content that only starts with the word "analysis" is an answer like any other', async () => {
    const { result } = await callTo(stream([chunk({ content: 'analysis of the cases gives \\boxed{5}.' }), chunk({}, 'stop')]));
    expect(result).toMatchObject({ content: 'analysis of the cases gives \\boxed{5}.', reasoning: null, reasoningDialect: null });
  });
});

// Groq's streams state their usage on the last chunk as x_groq.usage. Before, it went unread: every streamed reply was
// counted with the run's tokenizer and journaled as estimated (countedTokens 6 here, usage null).
test("Groq's usage in x_groq on a stream's last chunk is the reply's usage", async () => {
  const groq = { id: 'req_1', usage: { queue_time: 0.02, prompt_tokens: 10, prompt_time: 0.001, completion_tokens: 7, completion_time: 0.01, total_tokens: 17, total_time: 0.011 } };
  const last = `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], x_groq: groq })}\n\n`;
  const { result } = await callTo(stream([chunk({ role: 'assistant', content: 'The answer is 2.' }), last]));
  expect(result).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', usage: { promptTokens: 10, completionTokens: 7 }, countedTokens: null });
});

describe('the choices of a request', () => {
  test.each([
    [0, 1],
    ['0', '1'],
  ])('a stream of two choices (indices %j and %j), their chunks interleaved, is read as its first choice', async (first, second) => {
    const events = [chunk({ content: 'The answer ' }, null, null, first), chunk({ content: 'Another ' }, null, null, second), chunk({ content: 'is 2.' }, 'stop', null, first), chunk({ content: 'reply.' }, 'stop', null, second)];
    const { result } = await callTo(stream(events));
    expect(result).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop' });
  });

  // Before: the usage of both choices (120 of a limit of 100) failed a reply of 60 tokens as past its limit, and one
  // within it was journaled at twice its tokens; a stream that sent choice 1 first was read as choice 1, a whole reply as 0.
  test('a server that sends two choices where one was asked: choice 0 is read, counted by its text (not by the usage of both), and told once; choice 0 after another is a damaged reply', async () => {
    const told: Array<[string, number]> = [];
    const onSeveralChoices = (endpoint: string, choices: number) => void told.push([endpoint, choices]);
    const usage = { prompt_tokens: 10, completion_tokens: 120, total_tokens: 130 };
    const message = (index: number, content: string) => ({ index, message: { role: 'assistant', content }, finish_reason: 'stop' });
    const both = [message(1, `Another ${words(30)}`), message(0, `The answer ${words(30)}`)];
    const whole = await callTo((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('', { choices: both, usage })), 100, { stream: false, onSeveralChoices });
    const streamed = await callTo(stream([chunk({ content: `The answer ${words(30)}` }), chunk({ content: `Another ${words(30)}` }, null, null, 1), chunk({}, 'stop'), chunk({}, 'stop', usage, 1)]), 100, { onSeveralChoices });
    for (const { result } of [whole, streamed]) {
      expect(result).toMatchObject({ content: `The answer ${words(30)}`, finishReason: 'stop', usage: null, attempts: 1 });
      expect((result as Completion).countedTokens).toBeGreaterThan(55);
      expect((result as Completion).countedTokens).toBeLessThan(70);
    }
    expect(told.map(([, choices]) => choices)).toStrictEqual([2, 2]);
  });

  // Before: choice 0 after choice 1 was refused as a damaged reply and retried; a server that always sent them so failed the call for good.
  test('choice 0 whose chunks come after choice 1\'s is the one read, its text alone counted: the call succeeds at its first attempt', async () => {
    const late = await callTo(stream([chunk({ content: 'Another reply.' }, null, null, 1), chunk({ content: 'The answer ' }), chunk({}, 'stop', null, 1), chunk({ content: 'is 2.' }), chunk({}, 'stop')]));
    expect(late.result).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', attempts: 1 });
    // Two choices of 700 tokens, choice 1 whole before choice 0 begins: counted together (1,400) they pass the cut of 1000 + 25% + 64.
    const pieces = (index: number, text: string) => (text.match(/.{1,40}/gs) ?? []).map((piece) => chunk({ content: piece }, null, null, index));
    const first = `Another ${words(350)}`;
    const second = `The answer ${words(350)}`;
    const long = await callTo(stream([...pieces(1, first), chunk({}, 'stop', null, 1), ...pieces(0, second), chunk({}, 'length')]));
    expect(long.result).toMatchObject({ content: second, finishReason: 'length', attempts: 1 });
    expect((long.result as Completion).countedTokens).toBeGreaterThanOrEqual(700);
    expect((long.result as Completion).countedTokens).toBeLessThan(720);
  });

  // Before: choice 1's finish began the 2 s grace, and a choice 0 that came later than it was cut off: choice 1 was the reply.
  test('choice 0 that comes after the finish grace of a choice 1 that finished first is still the one read', async () => {
    const late = await callTo((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(chunk({ content: 'Another reply.' }, null, null, 1) + chunk({}, 'stop', null, 1));
      setTimeout(() => res.end(`${chunk({ content: 'The answer is 2.' })}${chunk({}, 'stop')}data: [DONE]\n\n`), 300);
    }, 1000, { finishGraceMs: 50 });
    expect(late.result).toMatchObject({ content: 'The answer is 2.', finishReason: 'stop', attempts: 1 });
  });

  test('two choices of one index in a chunk or a whole reply are a damaged reply, retried, never the first taken and the other dropped', async () => {
    const twice = [{ index: 0, delta: { content: 'The answer is 2.' }, finish_reason: null }, { index: 0, delta: { content: ' Or 3.' }, finish_reason: null }];
    const streamed = await callTo(stream([`data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: twice })}\n\n`, chunk({}, 'stop')]));
    const whole = await callTo((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('', { choices: twice.map(({ delta, ...rest }) => ({ ...rest, message: delta, finish_reason: 'stop' })) })), 1000, { stream: false });
    for (const { result, stats } of [streamed, whole]) {
      expect(result).toBeInstanceOf(CallFailedError);
      expect((result as CallFailedError).message).toMatch(/the reply holds two choices numbered 0/);
      expect(stats.retriesByCause).toStrictEqual({ malformed: 1 });
    }
  });

  test('`n` in --extra-body is not sent: a call reads one choice, and would pay for the others', async () => {
    const request = { ...additionRequest('http://127.0.0.1:1/v1'), sampling: { extraBody: { n: 4, repetition_penalty: 1.05 } } };
    const body = JSON.parse((await requestBody(request, undefined, { dialect: 'chat', stream: true })).toString()) as Record<string, unknown>;
    expect(body).not.toHaveProperty('n');
    expect(body).toMatchObject({ repetition_penalty: 1.05, stream: true });
  });
});

describe("a refusal in place of the answer (OpenAI's `refusal` field, content null, finish_reason stop)", () => {
  const REFUSAL = "I'm sorry, but I can't help with that.";
  // Before, each read as a whole empty answer (finish_reason stop), graded wrong with nothing said.
  test('whole and streamed, it is read as a filtered reply, told once; a refusal field beside an answer changes nothing', async () => {
    const told: string[] = [];
    const onFiltered = (endpoint: string) => void told.push(endpoint);
    const whole = await callTo((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('', { choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: REFUSAL }, finish_reason: 'stop' }] })), 1000, { stream: false, onFiltered });
    expect(whole.result).toMatchObject({ content: '', finishReason: 'content_filter' });
    const streamed = await callTo(stream([chunk({ role: 'assistant', content: null, refusal: '' }), chunk({ refusal: REFUSAL }), chunk({}, 'stop')]), 1000, { onFiltered });
    expect(streamed.result).toMatchObject({ content: '', finishReason: 'content_filter' });
    expect(told).toHaveLength(2);
    const answered = await callTo(stream([chunk({ role: 'assistant', content: 'The answer is 5.', refusal: null }), chunk({}, 'stop')]));
    expect(answered.result).toMatchObject({ content: 'The answer is 5.', finishReason: 'stop' });
  });
});

// Azure OpenAI refuses a prompt its content filter trips with a 400 (code content_filter), and OpenAI's reasoning models one
// they flag (code invalid_prompt, which they give benign math prompts too). Before, the call was retried once and failed for
// good (TMAS_CALL_REJECTED): its problem stopped, the run ended incomplete, and each resume met the same refusal.
test.for([
  ['Azure', { error: { message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry.", type: null, param: 'prompt', code: 'content_filter', status: 400, innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { hate: { filtered: false, severity: 'safe' }, violence: { filtered: true, severity: 'medium' } } } } }],
  ["OpenAI's reasoning models", { error: { message: 'Invalid prompt: your prompt was flagged as potentially violating our usage policy. Please try again with a different prompt: https://platform.openai.com/docs/guides/reasoning#advice-on-prompting', type: 'invalid_request_error', param: null, code: 'invalid_prompt' } }],
] as const)("%s: a 400 for a prompt its policy refused is a filtered reply, sent once, told once", async ([, refusal]) => {
  const told: string[] = [];
  let requests = 0;
  const { result } = await callTo((res) => void (requests++, res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(refusal))), 1000, { onFiltered: (endpoint) => void told.push(endpoint) });
  expect(result).toMatchObject({ content: '', reasoning: null, finishReason: 'content_filter', attempts: 1 });
  expect(requests).toBe(1);
  expect(told).toHaveLength(1);
});

describe('usages and refusals read narrowly enough', () => {
  test("a usage without its prompt's count is not read for thinking in its total: the difference is the prompt", () => {
    expect(usageOf({ completion_tokens: 20, total_tokens: 332 })?.completionTokens).toBe(20);
    expect(usageOf({ prompt_tokens: 0, completion_tokens: 20, total_tokens: 332 })?.completionTokens).toBe(20);
    // With the prompt stated, the thinking a gateway left in the total alone is still counted.
    expect(usageOf({ prompt_tokens: 12, completion_tokens: 20, total_tokens: 332 })?.completionTokens).toBe(320);
  });

  test("a 404 that refuses one request's parameters is not a model gone; one that names the model is", () => {
    const notFound = (message: string, type?: string) => APIError.generate(404, { error: { message, ...(type ? { type } : {}) } }, undefined, new Headers());
    expect(modelGone(notFound('No endpoints found that can handle the requested parameters.'))).toBe(false);
    expect(modelGone(notFound('Not found', 'not_found_error'))).toBe(false);
    expect(modelGone(notFound('No endpoints found for qwen/qwen3-8b.'))).toBe(true);
    expect(modelGone(notFound('model: claude-x not found', 'not_found_error'))).toBe(true);
  });
});

describe('a whole reply of JSON that is no object', () => {
  test.each(['null', '42', '"ok"', '[]'])('%s under a 200 is a broken reply, retried, and the call fails naming it (before, null threw a TypeError, the call rejected unretried)', async (body) => {
    const { result, stats } = await callTo((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body), 1000, { stream: false });
    expect(result).toBeInstanceOf(CallFailedError);
    expect((result as CallFailedError).code).toBe('TMAS_CALL_FAILED');
    expect((result as CallFailedError).message).toContain(`the server answered a request with JSON that is no chat completion (${body})`);
    expect(stats.retriesByCause).toEqual({ malformed: 1 });
  });
});
