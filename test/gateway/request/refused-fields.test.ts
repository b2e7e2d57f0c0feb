/**
 * A hosted API that refuses a field of the request with a 400 naming it, in
 * its own words (OpenAI's and Azure's "Unrecognized request argument
 * supplied", a strict pydantic server's extra_forbidden), over real sockets:
 * a field tmas adds on its own is left out for that endpoint, and one that a
 * flag sets stops the run, naming the flag; so does a completion limit above
 * the cap the API states, and so does an account whose quota or credits
 * are spent (a resume then pays for no call twice), or a model that is no
 * longer served.
 */
import type { ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { startSimServer } from '../../../src/sim/server.ts';
import { readJournal, runCliInProcess, runInProcess, smallProblems, startSwitchableProxy, test, writeProblems } from '../../fixtures.ts';

/** OpenAI's words for a field its chat models do not know. */
const unrecognized = (field: string) => ({ error: { message: `Unrecognized request argument supplied: ${field}`, type: 'invalid_request_error', param: null, code: null } });
/** A strict pydantic server's words (as SGLang's and vLLM's error shape carries them). */
const extraForbidden = (field: string) => ({ object: 'error', message: `[{'type': 'extra_forbidden', 'loc': ('body', '${field}'), 'msg': 'Extra inputs are not permitted', 'input': 1.05}]`, type: 'BadRequestError', param: null, code: 400 });

/** Mistral's API: a pydantic validation error held in `message` as an object (before, read as no message at all). */
/** Anthropic's 400 for a model that takes one of temperature and top_p (its OpenAI-compatible endpoint words it alike). */
const eitherNotBoth = { type: 'error', error: { type: 'invalid_request_error', message: '`temperature` and `top_p` cannot both be specified for this model. Please use only one.' } };
const mistralForbidden = (field: string) => ({ object: 'error', message: { detail: [{ type: 'extra_forbidden', loc: ['body', field], msg: 'Extra inputs are not permitted', input: 1, url: 'https://errors.pydantic.dev/2.10/v/extra_forbidden' }] }, type: 'invalid_request_error', param: null, code: null });

/** The simulator behind a proxy that refuses every request carrying `field` (or that `carries` says has it) with `refusal` (a `status`); counts the requests refused and passed on. */
async function refusing(field: string, refusal: Record<string, unknown>, status = 400, carries = (body: Record<string, unknown>) => field in body) {
  const problems = smallProblems(2);
  const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
  const counts = { refused: 0, passed: 0 };
  // Never set healthy: it refuses for the whole run.
  const proxy = await startSwitchableProxy(sim.url, (url, body, res) => {
    if (!url.endsWith('/chat/completions')) return false;
    if (!carries(JSON.parse(body) as Record<string, unknown>)) {
      counts.passed++;
      return false;
    }
    counts.refused++;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
    return true;
  });
  const close = () => proxy.close().then(() => sim.close());
  return { url: proxy.url, problems, counts, close };
}

const FLAGS = ['--model-name', 'tmas-sim', '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0'];

describe('a field tmas adds on its own, refused', () => {
  // Before, every call failed (TMAS_CALL_REJECTED, exit 3), each sent twice: once more without the continuous-usage field.
  test.for([
    ['seed', 'seed', unrecognized('seed'), 400],
    ['stream_options', 'stream_options', unrecognized('stream_options'), 400],
    // Mistral's API refuses the seed (it takes random_seed) with a 422 whose message is an object: before, 'HTTP 422: status
    // code (no body)', every call refused (TMAS_CALL_REJECTED), the field it names unread.
    ["seed, Mistral's 422", 'seed', mistralForbidden('seed'), 422],
    // OpenAI's reasoning models for an organization not verified, and its first o1 models: before, every call was refused
    // twice (TMAS_CALL_REJECTED) and every problem stopped; now its calls go whole, not streamed, their usage read.
    ['stream, for an organization not verified', 'stream', { error: { message: 'Your organization must be verified to stream this model. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization.', type: 'invalid_request_error', param: 'stream', code: 'unsupported_value' } }, 400],
    ["stream, o1's first words", 'stream', { error: { message: "Unsupported value: 'stream' does not support true with this model. Supported values are: false.", type: 'invalid_request_error', param: null, code: 'unsupported_value' } }, 400],
  ] as const)('%s: the endpoint is sent its calls without it, and the run completes, each call journaled once', async ([, field, refusal, status], { dir }) => {
    const server = await refusing(field, refusal, status);
    try {
      const output = path.join(dir, 'run');
      const outcome = await runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--output-file', output]);
      expect(outcome.stopped).toEqual([]);
      const journal = await readJournal(output);
      // Every call answered was sent once without the field; only the calls in flight before the first refusal came back were refused.
      expect(server.counts.passed).toBe(journal.length);
      expect(server.counts.refused).toBeGreaterThan(0);
      expect(server.counts.refused).toBeLessThanOrEqual(4);
      // Sent whole, a reply's usage comes with it: none is counted by the run's tokenizer.
      if (field === 'stream') expect(journal.filter((record) => record.usage.estimated === true)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('the system role, refused by a chat template without one', () => {
  const withSystem = (body: Record<string, unknown>) => (body['messages'] as Array<{ role: string }>).some((message) => message.role === 'system');
  // Gemma 2's template raises 'System role not supported' (vLLM's 400), older Mistral templates 'Conversation roles must
  // alternate', OpenAI's first o1 models refused it by name. Before, every call was refused alike (TMAS_CALL_REJECTED), each
  // problem stopped, exit 3.
  test.for([
    ["vLLM's 400 for Gemma 2's template", { object: 'error', message: 'System role not supported', type: 'BadRequestError', param: null, code: 400 }],
    ["o1's words", { error: { message: "Unsupported value: 'messages[0].role' does not support 'system' with this model.", type: 'invalid_request_error', param: 'messages[0].role', code: 'unsupported_value' } }],
  ] as const)('%s: the system message opens the first user message from then on, and the run completes, each call journaled once', async ([, refusal], { dir }) => {
    const server = await refusing('system', refusal, 400, withSystem);
    try {
      const output = path.join(dir, 'run');
      const outcome = await runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--output-file', output]);
      expect(outcome.stopped).toEqual([]);
      expect(server.counts.passed).toBe((await readJournal(output)).length);
      expect(server.counts.refused).toBeGreaterThan(0);
      expect(server.counts.refused).toBeLessThanOrEqual(4);
    } finally {
      await server.close();
    }
  });
});

describe('a field a flag sets, refused', () => {
  test.for([
    ['top_k', ['--top-k', '20'], unrecognized('top_k'), '--top-k'],
    ['repetition_penalty', ['--extra-body', '{"repetition_penalty":1.05}'], extraForbidden('repetition_penalty'), '--extra-body'],
    // Before, every call was refused alike (TMAS_CALL_REJECTED, exit 3), each problem stopped in turn.
    ['top_p', ['--top-p', '0.9'], eitherNotBoth, '--top-p'],
  ] as const)('%s: the run stops at once, exit 2 (TMAS_FIELD_REFUSED), naming the flag; no call is sent twice', async ([field, flags, refusal, flag], { dir }) => {
    const server = await refusing(field, refusal);
    try {
      const run = runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, ...flags, '--output-file', path.join(dir, 'run')]);
      await expect(run).rejects.toMatchObject({ code: 'TMAS_FIELD_REFUSED', message: expect.stringContaining(`request field ${field}`) });
      await expect(run).rejects.toMatchObject({ message: expect.stringContaining(`It is set by ${flag}`) });
      // Before, each call went once more without the continuous-usage field, as if the 400 were about that one.
      expect(server.counts.refused).toBeLessThanOrEqual(4);
      expect(server.counts.passed).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('a completion limit above the cap a hosted API states', () => {
  // Each API's 400 for a max_tokens above its cap, as it words it.
  const wordings: Array<[string, (asked: number, cap: number) => Record<string, unknown>]> = [
    ['OpenAI', (asked, cap) => ({ error: { message: `max_tokens is too large: ${asked}. This model supports at most ${cap} completion tokens, whereas you provided ${asked}.`, type: 'invalid_request_error', param: 'max_tokens', code: 'invalid_value' } })],
    ['DeepSeek', (_asked, cap) => ({ error: { message: `Invalid max_tokens value, the valid range of max_tokens is [1, ${cap}]`, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } })],
    ['Groq', (_asked, cap) => ({ error: { message: `\`max_tokens\` must be less than or equal to \`${cap}\`, the maximum value for \`max_tokens\` is less than the \`context_window\` for this model`, type: 'invalid_request_error' } })],
    ['Anthropic', (asked, cap) => ({ type: 'error', error: { type: 'invalid_request_error', message: `max_tokens: ${asked} > ${cap}, which is the maximum allowed number of output tokens for claude-sonnet-4-5` } })],
    // text-generation-inference (and LoRAX) without a tokenizer: a 422 naming max_new_tokens; before, each call failed as refused (TMAS_CALL_REJECTED).
    // Numbers grouped in thousands, as APIs that write their messages for people do; before, the cap read was 8.
    ['OpenAI, its numbers grouped', (asked, cap) => ({ error: { message: `max_tokens is too large: ${asked.toLocaleString('en-US')}. This model supports at most ${cap.toLocaleString('en-US')} completion tokens.`, type: 'invalid_request_error', param: 'max_tokens', code: 'invalid_value' } })],
    ['TGI, its 422', (asked, cap) => ({ error: `Input validation error: \`max_new_tokens\` must be <= ${cap}. Given: ${asked}`, error_type: 'validation' })],
  ];
  const CAP = 8192;

  /** The simulator behind a proxy that refuses every call asking for more than CAP completion tokens with `refusal`; counts the refusals. */
  async function capping(refusal: (asked: number, cap: number) => Record<string, unknown>) {
    const problems = smallProblems(2);
    const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
    const counts = { refused: 0 };
    const proxy = await startSwitchableProxy(sim.url, (url, body, res) => {
      const asked = url.endsWith('/chat/completions') ? (JSON.parse(body) as { max_tokens: number }).max_tokens : 0;
      if (asked <= CAP) return false;
      counts.refused++;
      const refused = refusal(asked, CAP);
      res.writeHead(refused.error_type === 'validation' ? 422 : 400, { 'content-type': 'application/json' }).end(JSON.stringify(refused));
      return true;
    });
    const close = () => proxy.close().then(() => sim.close());
    return { url: proxy.url, problems, counts, close };
  }

  /** The stop a run against such a server ends with. */
  const stop = (output: string) => ({
    code: 'TMAS_FIELD_REFUSED',
    message: expect.stringMatching(
      new RegExp(`^The endpoint of the solution agent generates at most ${CAP} completion tokens a call, fewer than the run asked for: .*Bound the completion with --completion-max-tokens ${CAP} \\(or less\\), then continue with: tmas run --resume ${output} --completion-max-tokens ${CAP} --force`),
    ),
  });

  // Before, every call (its limit what the window leaves, about 130,000) was refused and failed: each problem stopped, exit 3.
  test.for(wordings)('%s: the run stops at once, exit 2 (TMAS_FIELD_REFUSED), naming --completion-max-tokens and the cap', async ([, refusal], { dir }) => {
    const server = await capping(refusal);
    try {
      const output = path.join(dir, 'run');
      await expect(runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--output-file', output])).rejects.toMatchObject(stop(output));
      expect(server.counts.refused).toBeLessThanOrEqual(4);
    } finally {
      await server.close();
    }
  });

  test('the resume it names completes', async ({ dir }) => {
    const server = await capping(wordings[0]![1]);
    try {
      const output = path.join(dir, 'run');
      await expect(runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--output-file', output])).rejects.toMatchObject(stop(output));
      const resumed = await runCliInProcess(['run', '--resume', output, '--completion-max-tokens', String(CAP), '--force']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect((await readJournal(output)).every((call) => call.request.maxTokens <= CAP)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

/** The simulator behind a proxy that answers the first `answered` calls, then refuses calls with `refusal` (at most `refusals` of them) while `spent` is set; counts both. */
async function refusingAfter(answered: number, status: number, refusal: Record<string, unknown> | ((res: ServerResponse) => void), refusals = Number.POSITIVE_INFINITY, latencyMs = 0) {
  const problems = smallProblems(2);
  const latency = latencyMs > 0 ? { latency: { medianMs: latencyMs, p99Ms: 2 * latencyMs } } : {};
  const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3, ...latency });
  const counts = { refused: 0, passed: 0 };
  const spent = { current: true };
  const proxy = await startSwitchableProxy(sim.url, (url, _body, res) => {
    if (!url.endsWith('/chat/completions')) return false;
    if (!spent.current || counts.passed < answered || counts.refused >= refusals) {
      counts.passed++;
      return false;
    }
    counts.refused++;
    if (typeof refusal === 'function') refusal(res);
    else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
    return true;
  });
  const close = () => proxy.close().then(() => sim.close());
  return { url: proxy.url, problems, counts, spent, close };
}

describe('an account whose quota or credits are spent', () => {
  // Each API's refusal of a call for an account with nothing left to spend, as it words it.
  const wordings: Array<[string, number, Record<string, unknown>]> = [
    ['OpenAI 429 insufficient_quota', 429, { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } }],
    ['OpenRouter 402', 402, { error: { message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits', code: 402 } }],
    ['DeepSeek 402', 402, { error: { message: 'Insufficient Balance', type: 'unknown_error', param: null, code: 'invalid_request_error' } }],
    ['Anthropic 400', 400, { type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.' } }],
  ];

  // Before, a 429 of a spent quota was retried as a rate limit (51 requests over 144 s for 3 problems) and the run stopped as an
  // endpoint down, advising to check the server or lower --concurrency; a 402 or a 400 failed every call of the run, exit 3.
  test.for(wordings)('%s: the run stops at once, exit 2 (TMAS_QUOTA), saying to top up and resume; the resume pays no call twice', async ([, status, refusal], { dir }) => {
    const server = await refusingAfter(3, status, refusal);
    try {
      const output = path.join(dir, 'run');
      const run = runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--max-retries', '3', '--retry-base-ms', '1', '--output-file', output]);
      await expect(run).rejects.toMatchObject({ code: 'TMAS_QUOTA', message: expect.stringMatching(/quota or credits are spent: .*No retry would pass.*billing page.*--api-key.*tmas run --resume /) });
      // The calls in flight when the first refusal came back, each refused once: none retried.
      expect(server.counts.refused).toBeGreaterThan(0);
      expect(server.counts.refused).toBeLessThanOrEqual(4);
      server.spent.current = false;
      const resumed = await runCliInProcess(['run', '--resume', output]);
      expect(resumed.code, resumed.stderr).toBe(0);
      // Every call answered was journaled once: the resume sent none of them again.
      expect(await readJournal(output)).toHaveLength(server.counts.passed);
    } finally {
      await server.close();
    }
  });

  // Before, the method that met the refusal stopped at once and each other method did as its next call met it, each aborting
  // its calls in flight: answered (billed) by the API, never journaled, and paid again by the resume (35 answered, 32 journaled).
  test('tmas table1: the first refusal stops every method, each once its calls in flight are journaled; the table resumes, paying no call twice', async ({ dir }) => {
    const [, status, refusal] = wordings[0] as [string, number, Record<string, unknown>];
    const server = await refusingAfter(6, status, refusal, Number.POSITIVE_INFINITY, 40);
    try {
      const out = path.join(dir, 'table');
      const args = ['table1', '--strategies', 'majority,tmas', '--input-file', await writeProblems(dir, server.problems), '--output-file', out, '--base-url', server.url, ...FLAGS, '--samples', '2', '--concurrency', '8', '--max-retries', '3', '--retry-base-ms', '1'];
      const stopped = await runCliInProcess(args);
      expect(stopped.code, stopped.stderr).toBe(2);
      expect(stopped.stderr).toContain('[TMAS_QUOTA]');
      expect(stopped.stderr).toMatch(/tmas table1: majority, tmas stopped together, each once its calls in flight were journaled; .* give the same tmas table1 command again/);
      expect(stopped.stderr).not.toMatch(/ran to their end/);
      server.spent.current = false;
      const resumed = await runCliInProcess(args);
      expect(resumed.code, resumed.stderr).toBe(0);
      // Every call the API answered was journaled once, by one method or the other.
      const journaled = (await readJournal(path.join(out, 'majority'))).length + (await readJournal(path.join(out, 'tmas'))).length;
      expect(journaled).toBe(server.counts.passed);
    } finally {
      await server.close();
    }
  });

  // Gemini words a per-minute rate limit as a spent quota does, under a 429 that passes once the minute does.
  test("Gemini's per-minute 429 RESOURCE_EXHAUSTED, worded 'You exceeded your current quota', is still retried: the run completes", async ({ dir }) => {
    const perMinute = { error: { code: 429, message: 'You exceeded your current quota, please check your plan and billing details.', status: 'RESOURCE_EXHAUSTED' } };
    const server = await refusingAfter(1, 429, perMinute, 2);
    try {
      const output = path.join(dir, 'run');
      await runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--max-retries', '3', '--retry-base-ms', '1', '--output-file', output]);
      expect(server.counts.refused).toBe(2);
      expect(await readJournal(output)).toHaveLength(server.counts.passed);
    } finally {
      await server.close();
    }
  });
});

describe('a model no longer served mid-run', () => {
  // Before, every call of the run was sent and refused with the 404 (TMAS_CALL_REJECTED), each problem stopped, exit 3.
  test.for([
    ['OpenAI model_not_found', 404, { error: { message: 'The model `tmas-sim` does not exist or you do not have access to it.', type: 'invalid_request_error', param: null, code: 'model_not_found' } }],
    ['Azure DeploymentNotFound', 404, { error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.' } }],
    // Said with a 400 (before, each call was refused one by one as TMAS_CALL_REJECTED, exit 3): a vLLM replica reloaded
    // with another model (older vLLM answered 400), DeepSeek, Mistral; and Gemini's 404, whose words went unread.
    ['vLLM reloaded with another model, a 400', 400, { object: 'error', message: 'The model `tmas-sim` does not exist.', type: 'invalid_request_error', param: null, code: 400 }],
    // A dot inside the model's name is no sentence's end (before, vLLM's 404 and 400 naming Qwen/Qwen2.5-… or Llama-3.1-… went unread).
    ['current vLLM, a 404 naming a model with a dot in its name', 404, { object: 'error', message: 'The model `Qwen/Qwen2.5-Math-7B-Instruct` does not exist.', type: 'NotFoundError', param: null, code: 404 }],
    ['older vLLM, a 400 naming a model with a dot in its name', 400, { object: 'error', message: 'The model `meta-llama/Llama-3.1-8B-Instruct` does not exist.', type: 'invalid_request_error', param: null, code: 400 }],
    ['DeepSeek, a 400', 400, { error: { message: 'Model Not Exist', type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }],
    ['Mistral, a 400', 400, { object: 'error', message: 'Invalid model: tmas-sim', type: 'invalid_model', param: null, code: '1500' }],
    ['Gemini, a 404', 404, { error: { code: 404, message: 'models/tmas-sim is not found for API version v1main, or is not supported for generateContent.', status: 'NOT_FOUND' } }],
  ] as const)('%s: the run stops at once, exit 2 (TMAS_MODEL_NOT_SERVED), naming the resume', async ([, status, refusal], { dir }) => {
    const server = await refusingAfter(3, status, refusal);
    try {
      const output = path.join(dir, 'run');
      const run = runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--output-file', output]);
      await expect(run).rejects.toMatchObject({ code: 'TMAS_MODEL_NOT_SERVED', message: expect.stringMatching(/no longer serves its model: .*model id or the deployment.*tmas run --resume /) });
      expect(server.counts.refused).toBeLessThanOrEqual(4);
      expect(await readJournal(output)).toHaveLength(server.counts.passed);
    } finally {
      await server.close();
    }
  });
});

describe('a model listed but not served through chat completions', () => {
  // OpenAI's models of the Responses API alone, and its completion models. Before, every call was refused alike
  // (TMAS_CALL_REJECTED), each problem stopped, exit 3, with no word of what to give instead.
  test.for([
    ['a model of the Responses API alone', { error: { message: 'This model is only supported in v1/responses and not in v1/chat/completions.', type: 'invalid_request_error', param: 'model', code: null } }],
    ['a completion model', { error: { message: 'This is not a chat model and thus not supported in the v1/chat/completions endpoint. Did you mean to use v1/completions?', type: 'invalid_request_error', param: 'model', code: null } }],
  ] as const)('%s: the run stops at once, exit 2 (TMAS_MODEL_NOT_SERVED), naming --model-name and the resume', async ([, refusal], { dir }) => {
    const server = await refusingAfter(0, 404, refusal);
    try {
      const output = path.join(dir, 'run');
      const run = runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--output-file', output]);
      await expect(run).rejects.toMatchObject({ code: 'TMAS_MODEL_NOT_SERVED', message: expect.stringMatching(/does not serve its model through chat completions.*--model-name.*tmas run --resume .* --model-name MODEL --force/) });
      expect(server.counts.refused).toBeLessThanOrEqual(4);
    } finally {
      await server.close();
    }
  });
});

describe("a proxy's sign-in page under a 200 in place of replies, mid-run", () => {
  // Before, each call spent its 8 retries on the page, and the run stopped only once 3 calls in a row had (67 pages sent
  // for 3 problems), as an endpoint down, advising to check the server or lower --concurrency.
  test.for([
    ['labelled text/html', 'text/html; charset=utf-8'],
    ['labelled as an event stream', 'text/event-stream'],
  ] as const)('%s: each call sees it twice at most, and the run stops at once, exit 2 (TMAS_WEB_PAGE), naming the sign-in and the resume', async ([, type], { dir }) => {
    const page = (res: ServerResponse) => res.writeHead(200, { 'content-type': type }).end('<!DOCTYPE html>\n<html><head><title>Sign in - Corporate SSO</title></head><body>Please sign in</body></html>');
    const server = await refusingAfter(3, 200, page);
    try {
      const output = path.join(dir, 'run');
      const run = runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--output-file', output]);
      await expect(run).rejects.toMatchObject({ code: 'TMAS_WEB_PAGE', message: expect.stringMatching(/answers with a web page, not the API's reply: .*Sign in - Corporate SSO.*Sign in to the proxy .*--(?:\w+-)?base-url.*tmas run --resume /s) });
      // The calls in flight when the page came (at most 4 here), each sent twice.
      expect(server.counts.refused).toBeLessThanOrEqual(8);
      expect(await readJournal(output)).toHaveLength(server.counts.passed);
    } finally {
      await server.close();
    }
  });
});

describe("an account's per-minute token limit smaller than one call (the prompt and the completion limit counted)", () => {
  // Before: Groq's 413 failed each call as refused (TMAS_CALL_REJECTED), told to raise a proxy's body-size limit; OpenAI's 429
  // was retried 8 times into the same refusal; every call of the run failed (exit 3).
  const groq = (requested: number) => [413, { error: { message: `Request too large for model \`llama-3.3-70b-versatile\` in organization \`org_1\` service tier \`on_demand\` on tokens per minute (TPM): Limit 12000, Requested ${requested}, please reduce your message size and try again.`, type: 'tokens', code: 'rate_limit_exceeded' } }] as const;
  const openai = (requested: number) => [429, { error: { message: `Request too large for gpt-4o in organization org-1 on tokens per min (TPM): Limit 12000, Requested ${requested}. The input or output tokens must be reduced in order to run successfully.`, type: 'tokens', param: null, code: 'rate_limit_exceeded' } }] as const;
  test.for([
    ['Groq, a 413', groq],
    ['OpenAI, a 429', openai],
  ] as const)('%s: the run stops at once, exit 2 (TMAS_FIELD_REFUSED), naming --completion-max-tokens and the limit', async ([, refusal], { dir }) => {
    const problems = smallProblems(2);
    const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
    const counts = { refused: 0 };
    const proxy = await startSwitchableProxy(sim.url, (url, body, res) => {
      const asked = url.endsWith('/chat/completions') ? (JSON.parse(body) as { max_tokens: number }).max_tokens : 0;
      if (asked <= 12_000) return false;
      counts.refused++;
      const [status, said] = refusal(asked + 300);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(said));
      return true;
    });
    try {
      const output = path.join(dir, 'run');
      const run = runInProcess(['--input-file', await writeProblems(dir, problems), '--base-url', proxy.url, ...FLAGS, '--retry-base-ms', '1', '--output-file', output]);
      await expect(run).rejects.toMatchObject({ code: 'TMAS_FIELD_REFUSED', message: expect.stringMatching(/per-minute limit of 12000 tokens, and a call asked for \d+: .*Bound the completion with --completion-max-tokens \(the prompt and it must fit in 12000 tokens\).*tmas run --resume /s) });
      expect(((await run.catch((error: unknown) => error)) as Error).message).not.toMatch(/client_max_body_size/);
      expect(counts.refused).toBeLessThanOrEqual(4);
    } finally {
      await proxy.close();
      await sim.close();
    }
  });
});


describe('sampling flags under --openai-reasoning, which sends none', () => {
  // Before: the run went on, sent neither, said nothing, and its manifest and metrics.json recorded temperature 0.6.
  test('are refused at start, exit 2 (TMAS_USAGE), naming each, before anything is written', async ({ dir }) => {
    const output = path.join(dir, 'run');
    const input = await writeProblems(dir, smallProblems(1));
    const refused = await runCliInProcess(['run', '--input-file', input, '--output-file', output, ...FLAGS, '--openai-reasoning', '--temperature', '0.6', '--verify-top-k', '20']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('--openai-reasoning sends no temperature, top_p, top_k or min_p');
    expect(refused.stderr).toContain('so --temperature, --verify-top-k would not be sent');
    expect(refused.stderr).toContain('[TMAS_USAGE]');
    expect(existsSync(output)).toBe(false);
  });
});
