/**
 * Replies of real servers that the simulator never sends, read through the
 * gateway over real sockets: each server here is a plain HTTP server of the
 * test, answering as vLLM, SGLang or a hosted API does.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect, test } from 'vitest';
import { CallFailedError, createGateway, type Completion, type GatewayOptions } from '../src/gateway/gateway.ts';
import { additionRequest, chatChunkEvent, chatCompletionBody, serveHttp } from './fixtures.ts';

/** One retry, short backoffs, an idle limit no test should meet. */
const OPTIONS: GatewayOptions = { concurrency: 4, maxRetries: 1, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 30_000 };

/** Calls a server answering each request by `answer` (given how many came before) once; returns the completion or the failure, and the requests it got. */
async function callOnce(answer: (res: ServerResponse, index: number) => void, extra: Partial<GatewayOptions> = {}): Promise<{ result: Completion | CallFailedError; requests: number }> {
  let index = 0;
  const server = await serveHttp((_req, res) => answer(res, index++));
  const gateway = createGateway({ ...OPTIONS, ...extra });
  try {
    const result = await gateway.complete(additionRequest(server.url)).catch((error: unknown) => error as CallFailedError);
    return { result, requests: server.requests() };
  } finally {
    gateway.close();
    await server.close();
  }
}

/** A stream of `text` with `finishReason` and a usage chunk, ended by `[DONE]`. */
function streamed(res: ServerResponse, text: string, finishReason: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const usage = { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } };
  res.end(chatChunkEvent({ role: 'assistant', content: text }) + chatChunkEvent({}, finishReason) + `data: ${JSON.stringify(usage)}\n\ndata: [DONE]\n\n`);
}

/** A whole reply of `text` with `finishReason`. */
function whole(res: ServerResponse, text: string, finishReason: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(chatCompletionBody(text, { choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason }] }));
}

describe('a generation the server ended unfinished is no reply', () => {
  // vLLM's and SGLang's engines end an aborted request (a pause for new weights, a lost KV transfer) with
  // finish_reason "abort" and the text so far; OpenRouter ends a generation that failed midway with "error".
  test.each([
    ['streamed', 'abort', streamed],
    ['streamed', 'error', streamed],
    ['whole', 'abort', whole],
    ['whole', 'error', whole],
  ] as const)('%s, finish_reason "%s": retried, and the reply that finished is the one returned', async (mode, finishReason, reply) => {
    const { result, requests } = await callOnce((res, index) => (index === 0 ? reply(res, 'The answer is \\boxed{', finishReason) : reply(res, 'The answer is \\boxed{2}.', 'stop')), { stream: mode === 'streamed' });
    expect(result).not.toBeInstanceOf(CallFailedError);
    expect((result as Completion).content).toBe('The answer is \\boxed{2}.');
    expect((result as Completion).attempts).toBe(2);
    expect(requests).toBe(2);
  });

  test('an abort on every attempt fails the call, naming the finish reason', async () => {
    const { result, requests } = await callOnce((res) => streamed(res, 'The answer is', 'abort'));
    expect(result).toBeInstanceOf(CallFailedError);
    expect((result as CallFailedError).message).toContain('finish_reason "abort"');
    expect(requests).toBe(2);
  });
});
