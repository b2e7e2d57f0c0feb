import { describe, expect, test } from 'vitest';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { fromStream } from '../src/gateway/reply/reply.ts';

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
