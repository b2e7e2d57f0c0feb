/**
 * A usage block whose completion tokens no text could have taken (10^12
 * beside the answer "4"), from a real server over a real socket: the reply
 * is the answer, counted by its text, sent once; a count past the limit that
 * its text holds (a server that ignores max_tokens) is still cut; prompt
 * tokens the request's bytes cannot hold are none.
 */
import type { ServerResponse } from 'node:http';
import { describe, expect } from 'vitest';
import { CallFailedError, createGateway } from '../../../src/gateway/gateway.ts';
import { additionRequest, chatChunkEvent, serveHttp, test } from '../../fixtures.ts';

const USAGE = { prompt_tokens: 12, completion_tokens: 1_000_000_000_000, total_tokens: 1_000_000_000_012 };

/** `calls` calls (one unless given) of a 64-token limit against a server that answers with `send`; the last outcome, the requests, the gateway's stats and what it told of impossible usage. */
async function callAgainst(send: (res: ServerResponse) => void, calls = 1) {
  const server = await serveHttp((_req, res) => send(res));
  const told: string[] = [];
  const onImpossibleUsage = (endpoint: string, what: string) => void told.push(`${endpoint}: ${what}`);
  const gateway = createGateway({ concurrency: 2, timeoutMs: 10_000, maxRetries: 2, backoff: { baseMs: 1, capMs: 5 }, onImpossibleUsage });
  try {
    let outcome: unknown = null;
    for (let seed = 1; seed <= calls; seed++) outcome = await gateway.complete(additionRequest(server.url, seed, 64)).catch((error: unknown) => error);
    return { outcome, requests: server.requests(), stats: gateway.stats, told, url: server.url };
  } finally {
    gateway.close();
    await server.close();
  }
}

describe('a usage no text could have taken is no count', () => {
  test('a stream whose last chunk counts 10^12 completion tokens beside "4" is the answer "4", sent once, without that usage', async () => {
    const { outcome, requests, stats } = await callAgainst((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const last = chatChunkEvent({}, 'stop').replace(/}\n\n$/, `,"usage":${JSON.stringify(USAGE)}}\n\n`);
      res.end(`${chatChunkEvent({ role: 'assistant', content: '4' })}${last}data: [DONE]\n\n`);
    });
    // Before: 'the reply went past its completion limit of 64 tokens: the server counted 1000000000000 completion tokens', 3 requests, the call failed.
    expect(outcome).toMatchObject({ content: '4', finishReason: 'stop', attempts: 1, usage: null });
    expect(requests).toBe(1);
    expect(stats.retries).toBe(0);
  });

  test('a whole JSON reply with that usage is its answer too', async () => {
    const { outcome, requests } = await callAgainst((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'tmas-sim', choices: [{ index: 0, message: { role: 'assistant', content: '4' }, finish_reason: 'stop' }], usage: USAGE }));
    });
    expect(outcome).toMatchObject({ content: '4', attempts: 1, usage: null });
    expect(requests).toBe(1);
  });

  test('prompt tokens past the bytes of the request (10^15) are none: 0, as for a usage without them; a count the request holds is kept', async () => {
    const answerWith = (usage: object) => (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'tmas-sim', choices: [{ index: 0, message: { role: 'assistant', content: '4' }, finish_reason: 'stop' }], usage }));
    };
    const absurd = await callAgainst(answerWith({ prompt_tokens: 1_000_000_000_000_000, completion_tokens: 1, total_tokens: 1_000_000_000_000_001 }), 3);
    // Before: promptTokens 10^15, journaled and summed into the run's totals.
    expect(absurd.outcome).toMatchObject({ content: '4', usage: { promptTokens: 0, completionTokens: 1 } });
    // Before: set to 0 and nothing said; now told once for the endpoint's three replies.
    expect(absurd.told).toHaveLength(1);
    // Said of what was done with this count: the prompt's set to none, the completion's kept (before, the warning said both were counted with the tokenizer).
    expect(absurd.told[0]).toMatch(/: 1000000000000000 prompt tokens for a request of \d+ bytes, counted as none; its completion tokens are kept$/);
    expect(absurd.told[0]).toContain(absurd.url.replace(/\/$/, ''));
    const honest = await callAgainst(answerWith({ prompt_tokens: 30, completion_tokens: 1, total_tokens: 31 }), 2);
    expect(honest.outcome).toMatchObject({ usage: { promptTokens: 30, completionTokens: 1 } });
    expect(honest.told).toEqual([]);
  });

  test('completion tokens the text cannot hold are told once per endpoint too, with what they were set against', async () => {
    const { told } = await callAgainst((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'tmas-sim', choices: [{ index: 0, message: { role: 'assistant', content: '4' }, finish_reason: 'stop' }], usage: USAGE }));
    }, 2);
    // Before: dropped without a word, the reply journaled as estimated.
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/: 1000000000000 completion tokens for a reply of 1 character, counted with the run's tokenizer instead \(usage\.estimated in the journal\)$/);
  });

  test('a server that ignores max_tokens, its text holding the count it reports past the limit, is still cut and retried', async () => {
    const { outcome, stats } = await callAgainst((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let body = chatChunkEvent({ role: 'assistant', content: '' });
      for (let n = 1; n <= 100; n++) body += chatChunkEvent({ content: ' word' }).replace(/}\n\n$/, `,"usage":{"prompt_tokens":12,"completion_tokens":${n},"total_tokens":${12 + n}}}\n\n`);
      res.end(`${body}${chatChunkEvent({}, 'stop')}data: [DONE]\n\n`);
    });
    expect(outcome).toBeInstanceOf(CallFailedError);
    expect((outcome as CallFailedError).message).toMatch(/went past its completion limit of 64 tokens: the server counted (6[5-9]|[7-9]\d|100) completion tokens/);
    expect(stats.retriesByCause).toEqual({ malformed: 2 });
  });
});
