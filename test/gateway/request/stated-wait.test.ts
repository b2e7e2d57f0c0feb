/**
 * A 429 that states its wait in its body alone, no header saying it (a proxy
 * that passes the API's error on without its headers): OpenAI's and Groq's
 * "Please try again in 7m12s", Azure's "Please retry after N seconds",
 * Gemini's RetryInfo `retryDelay`. A wait of seconds is waited out before the
 * retry, a daily limit's hours stop the call at once as rate-limited. Real
 * servers over real sockets.
 */
import type { ServerResponse } from 'node:http';
import { APIError } from 'openai';
import { describe, expect, test } from 'vitest';
import { CallFailedError, createGateway, type Completion } from '../../../src/gateway/gateway.ts';
import { statedWaitMs } from '../../../src/gateway/request/stated-wait.ts';
import { additionRequest, chatCompletionBody, serveHttp } from '../../fixtures.ts';

/** One call, short backoffs (10 ms doubling) and 4 retries, to a server that refuses with `refuse` until `refusing` says no more; its result, time and requests. */
async function callTo(refuse: (res: ServerResponse) => void, refusing: (started: number) => boolean) {
  let refused = 0;
  const started = performance.now();
  const server = await serveHttp((_req, res) => {
    if (refusing(started)) {
      refused++;
      return refuse(res);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('The answer is 2.'));
  });
  const gateway = createGateway({ concurrency: 2, maxRetries: 4, backoff: { baseMs: 10, capMs: 10_000 }, timeoutMs: 10_000, stream: false });
  try {
    const result = (await gateway.complete(additionRequest(server.url, 1, 1000)).catch((error: unknown) => error)) as Completion | CallFailedError;
    return { result, ms: performance.now() - started, refused, requests: server.requests() };
  } finally {
    gateway.close();
    await server.close();
  }
}

const json = (status: number, body: unknown) => (res: ServerResponse) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('a 429 whose wait is stated in its body alone', () => {
  // Before: 5 requests, each refused, the call failed for good (TMAS_CALL_FAILED) in a few tens of ms; in a run, every call
  // spent its retries so, and the run stopped as an endpoint down, advising to lower --concurrency.
  test("Groq's daily limit ('on requests per day (RPD) … Please try again in 7h12m3.5s'): the call fails at once as rate-limited", async () => {
    const refusal = json(429, { error: { message: 'Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01` service tier `on_demand` on requests per day (RPD): Limit 1000, Used 1000, Requested 1. Please try again in 7h12m3.5s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing', type: 'requests', code: 'rate_limit_exceeded' } });
    const { result, requests } = await callTo(refusal, () => true);
    expect(result).toBeInstanceOf(CallFailedError);
    expect((result as CallFailedError).code).toBe('TMAS_RATE_LIMITED');
    expect(requests).toBe(1);
  });

  // Before: retried after 10, 20, 40, 80 ms, each refused (5 requests), the call failed.
  test.for([
    ["OpenAI's 'Please try again in 1.5s'", json(429, { error: { message: 'Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 29800, Requested 900. Please try again in 1.5s. Visit https://platform.openai.com/account/rate-limits to learn more.', type: 'tokens', param: null, code: 'rate_limit_exceeded' } })],
    ["Azure's 'Please retry after 2 seconds'", json(429, { error: { code: '429', message: 'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current AIServices S0 pricing tier. Please retry after 2 seconds. Please contact Azure support service if you would like to further increase the default rate limit.' } })],
    ["Gemini's RetryInfo, a list of one error body", json(429, [{ error: { code: 429, message: 'You exceeded your current quota, please check your plan and billing details.', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }] } }])],
  ] as const)('%s: the retry waits it out, once refused', async ([, refusal]) => {
    // Refused for the first 1.4 s, as a per-minute limit that lifts then.
    const { result, refused, ms } = await callTo(refusal, (started) => performance.now() - started < 1_400);
    expect(result).toMatchObject({ content: 'The answer is 2.', attempts: 2 });
    expect(refused).toBe(1);
    expect(ms).toBeGreaterThan(1_400);
  });

  test('the words read, and none read as a wait where there is none', () => {
    const said = (message: string) => statedWaitMs(new APIError(429, { message }, undefined, new Headers()));
    expect(said('Please try again in 7m12s.')).toBe(432_000);
    expect(said('Please try again in 20ms.')).toBe(20);
    expect(said('Please retry in 37.583s.')).toBeCloseTo(37_583);
    expect(said('Please retry after 20 seconds.')).toBe(20_000);
    expect(said('Try again in 1 minute.')).toBe(60_000);
    expect(said('Rate limit reached. Please slow down.')).toBeNull();
    expect(said(`${'x'.repeat(70_000)} Please try again in 5s.`)).toBeNull();
  });
});
