import { createHook } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { createGateway } from '../../../src/gateway/gateway.ts';
import { fromStream } from '../../../src/gateway/reply/reply.ts';
import { additionRequest, chatChunkEvent, serveHttp } from '../../fixtures.ts';

/** The events of a stream that sends `text` and `reasoning` a few characters an event, as vLLM sends a token an event. */
async function* events(text: string, reasoning: string): AsyncGenerator<ChatCompletionChunk[]> {
  const length = Math.max(text.length, reasoning.length);
  for (let at = 0, step = 1; at < length; at += step, step = (step % 3) + 1) {
    const delta = { content: text.slice(at, at + step), reasoning_content: reasoning.slice(at, at + step) };
    yield [{ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: null }] } as unknown as ChatCompletionChunk];
  }
  yield [{ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] } as unknown as ChatCompletionChunk];
}

describe('a streamed reply', () => {
  test.each([0, 1, 63, 64, 65, 5_000])('of %i characters, sent a few characters an event, reads back whole, its reasoning too', async (length) => {
    const text = Array.from({ length }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
    const reasoning = text.toUpperCase();
    const reply = await fromStream(events(text, reasoning), { started: performance.now() });
    expect(reply.content).toBe(text);
    expect(reply.reasoning).toBe(length === 0 ? null : reasoning);
  });
});

/** Streams `tokens` events of one token each, a millisecond apart (so that each is a read of its own), then the finish, the usage and [DONE]. */
function streamTokens(res: ServerResponse, tokens: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let sent = 0;
  const next = () => {
    if (sent === tokens) {
      res.end(`${chatChunkEvent({}, 'stop')}data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":${tokens},"total_tokens":${tokens + 3}}}\n\ndata: [DONE]\n\n`);
      return;
    }
    sent++;
    res.write(chatChunkEvent({ content: ' tok' }));
    setTimeout(next, 1);
  };
  next();
}

describe('a stream of one token an event, as vLLM and SGLang send by default', () => {
  test('costs a few promises a token, counted over a real connection (before: 34 a token, most of the CPU a token took)', async () => {
    // The base URL's first segment says how many tokens to stream: /n<tokens>/v1.
    const server = await serveHttp((req, res) => streamTokens(res, Number(/^\/n(\d+)\//.exec(req.url ?? '')?.[1] ?? 0)));
    const gateway = createGateway({ concurrency: 8, maxRetries: 0, timeoutMs: 30_000, loadPollMs: 60_000 });
    let promises = 0;
    const hook = createHook({
      init: (_id, type) => {
        if (type === 'PROMISE') promises++;
      },
    });
    const promisesOf = async (tokens: number) => {
      promises = 0;
      hook.enable();
      const reply = await gateway.complete(additionRequest(server.url.replace(/\/v1$/, `/n${tokens}/v1`), tokens, 1000)).finally(() => hook.disable());
      expect(reply.content).toBe(' tok'.repeat(tokens));
      expect(reply.usage?.completionTokens).toBe(tokens);
      return promises;
    };
    try {
      await promisesOf(2);
      const perToken = ((await promisesOf(202)) - (await promisesOf(2))) / 200;
      expect(perToken).toBeLessThan(12);
    } finally {
      gateway.close();
      await server.close();
    }
  });
});
