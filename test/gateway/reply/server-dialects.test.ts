/**
 * Replies of real servers that the simulator never sends, read through the
 * gateway over real sockets: each server here is a plain HTTP server of the
 * test, answering as vLLM, SGLang or a hosted API does.
 */
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { APIError } from 'openai';
import { CallFailedError, createGateway, DEFAULT_BACKOFF, type Completion, type GatewayOptions } from '../../../src/gateway/gateway.ts';
import { backoffMs } from '../../../src/gateway/request/retry.ts';
import { startSimServer } from '../../../src/sim/server.ts';
import { createPool } from '../../../src/pool/pool.ts';
import { additionRequest, chatChunkEvent, chatCompletionBody, readJournal, runCliInProcess, runInProcess, serveHttp, smallProblems, startProxy, test, writeProblems } from '../../fixtures.ts';

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

/** A rate limit's refusal with `status` and `headers`. */
function refuse(res: ServerResponse, status: number, headers: Record<string, string>): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: { message: 'Rate limit reached for requests per day', type: 'requests', code: 'rate_limit_exceeded' } }));
}

describe('a generation the server ended unfinished is no reply', () => {
  // vLLM's and SGLang's engines end an aborted request (a pause for new weights, a lost KV transfer) with
  // finish_reason "abort" and the text so far; OpenRouter ends a generation that failed midway with "error".
  test.for([
    ['streamed', 'abort', streamed],
    ['streamed', 'error', streamed],
    ['whole', 'abort', whole],
    ['whole', 'error', whole],
  ] as const)('%s, finish_reason "%s": retried, and the reply that finished is the one returned', async ([mode, finishReason, reply]) => {
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

describe("a context-length error states the server's window in the words of its server", () => {
  const WINDOW = 8192;
  // Each server's 400 when a request's prompt and completion limit pass its window, with the prompt's tokens and the completion limit.
  const wordings: Array<[string, (prompt: number, completion: number) => unknown]> = [
    ['vLLM', (prompt, completion) => ({ error: { message: `This model's maximum context length is ${WINDOW} tokens. However, you requested ${prompt + completion} tokens (${prompt} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`, type: 'BadRequestError', param: null, code: 400 } })],
    // vLLM's VLLMValidationError (late 2025): before, its window ('is only W') and its request's size went unread: each
    // call refused was refitted by an eighth at a time, a 400 for each step, and no later call learned the window.
    ['vLLM, its newest wording', (prompt, completion) => ({ error: { message: `You passed ${prompt} input tokens and requested ${completion} output tokens. However, the model's context length is only ${WINDOW} tokens, resulting in a maximum input length of ${WINDOW - completion} tokens. Please reduce the length of the input prompt. (parameter=input_tokens, value=${prompt})`, type: 'BadRequestError', param: 'input_tokens', code: 400 } })],
    ['SGLang', (prompt, completion) => ({ object: 'error', message: `Requested token count exceeds the model's maximum context length of ${WINDOW} tokens. You requested a total of ${prompt + completion} tokens: ${prompt} tokens from the input messages and ${completion} tokens for the completion. Please reduce the number of tokens in the input messages or the completion to fit within the limit.`, type: 'BadRequestError', param: null, code: 400 })],
    ['SGLang on its input', (prompt, completion) => ({ object: 'error', message: `The input (${prompt + completion} tokens) is longer than the model's context length (${WINDOW} tokens).`, type: 'BadRequestError', param: null, code: 400 })],
    // Numbers grouped in thousands ("8,192 tokens"), as hosted APIs and proxies that write for people do: before, read as
    // the first group, a window of 8 tokens, and every call was refitted into 512 tokens, then refused as not fitting.
    ['its numbers grouped in thousands', (prompt, completion) => ({ error: { message: `This model's maximum context length is ${WINDOW.toLocaleString('en-US')} tokens. However, you requested ${(prompt + completion).toLocaleString('en-US')} tokens (${prompt.toLocaleString('en-US')} in the messages, ${completion.toLocaleString('en-US')} in the completion).`, type: 'invalid_request_error', code: 'context_length_exceeded' } })],
    // llama.cpp's server names the prompt's tokens and its context size (n_ctx); before, a 400 that failed the call (TMAS_CALL_REJECTED).
    ['llama.cpp', (prompt) => ({ error: { code: 400, message: `request (${prompt} tokens) exceeds the available context size (${WINDOW} tokens), try increasing it`, type: 'exceed_context_size_error', n_prompt_tokens: prompt, n_ctx: WINDOW } })],
    // Hosted APIs, in their words; before, each a 400 that failed the call (TMAS_CALL_REJECTED) and stopped its problem.
    ['Anthropic', (prompt, completion) => ({ type: 'error', error: { type: 'invalid_request_error', message: `input length and \`max_tokens\` exceed context limit: ${prompt} + ${completion} > ${WINDOW}, decrease input length or \`max_tokens\` and try again` } })],
    ['Anthropic on its prompt', (prompt, completion) => ({ type: 'error', error: { type: 'invalid_request_error', message: `prompt is too long: ${prompt + completion} tokens > ${WINDOW} maximum` } })],
    // Google's APIs send the error as a list of one body.
    ['Gemini', (prompt, completion) => [{ error: { code: 400, message: `The input token count (${prompt + completion}) exceeds the maximum number of tokens allowed (${WINDOW}).`, status: 'INVALID_ARGUMENT' } }]],
    // TGI's refusal of a prompt past its max_input_tokens; before, a 422 that failed the call (TMAS_CALL_REJECTED).
    ['TGI on its input, its 422', (prompt) => ({ error: `Input validation error: \`inputs\` must have less than ${WINDOW} tokens. Given: ${prompt}`, error_type: 'validation' })],
    ['TGI (Together), its 422', (prompt, completion) => ({ error: `Input validation error: \`inputs\` tokens + \`max_new_tokens\` must be <= ${WINDOW}. Given: ${prompt} \`inputs\` tokens and ${completion} \`max_new_tokens\``, error_type: 'validation' })],
    // Before, each of these windows went unread (the call refitted an eighth at a time, a 400 for each step, and no later
    // call learned the window), or the refusal was no context-length error at all (xAI's: the call failed, TMAS_CALL_REJECTED).
    ['LM Studio', (prompt, completion) => ({ error: `Trying to keep the first ${prompt + completion} tokens when context the overflows. However, the model is loaded with context length of only ${WINDOW} tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input` })],
    ['Mistral', (prompt, completion) => ({ object: 'error', message: `Prompt contains ${prompt + completion} tokens and 0 draft tokens, too large for model with ${WINDOW} maximum context length`, type: 'invalid_request_error', param: null, code: null })],
    ['Fireworks', (prompt, completion) => ({ error: { object: 'error', type: 'invalid_request_error', message: `The prompt is too long: ${prompt + completion}, model maximum context length: ${WINDOW}` } })],
    ['xAI', (prompt, completion) => ({ code: 'Client specified an invalid argument', error: `This model's maximum prompt length is ${WINDOW} but the request contains ${prompt + completion} tokens.` })],
    ['OpenRouter', (prompt, completion) => ({ error: { message: `This endpoint's maximum context length is ${WINDOW} tokens. However, you requested about ${prompt + completion} tokens (${prompt} of text input, ${completion} in the output). Please reduce the length of either one, or use the "middle-out" transform to compress your prompt automatically.`, code: 400 } })],
  ];

  /**
   * A server of WINDOW tokens in front of the simulator, that counts a prompt `extra` tokens longer
   * than a quarter of its characters, and refuses with a 400 or, `inBand`, inside a 200: a streamed one
   * (as SGLang does), or a whole JSON body; counts what it refused and answered.
   */
  async function smallWindow(refusal: (prompt: number, completion: number) => unknown, extra = 0, inBand: 'stream' | 'whole' | null = null, listsWindow: false | 'max_model_len' | 'context_length' = false) {
    const problems = smallProblems(1);
    const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
    // From `failFrom` answered calls on, every request is rejected (a 400 that is no context-length error).
    const counts = { refused: 0, answered: 0, smallestAnswered: Number.POSITIVE_INFINITY, failFrom: Number.POSITIVE_INFINITY, listsWindow };
    const proxy = await startProxy(sim.url, (url, body, res) => {
      if (counts.listsWindow && url.endsWith('/models')) {
        // As vLLM lists a model (its window is its max_model_len), or OpenRouter and Together (context_length).
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'tmas-sim', object: 'model', created: 0, owned_by: 'vllm', [counts.listsWindow]: WINDOW }] }));
        return true;
      }
      if (!url.endsWith('/chat/completions')) return false;
      if (counts.answered >= counts.failFrom) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'rejected by the test', code: 400 } }));
        return true;
      }
      const request = JSON.parse(body) as { max_tokens: number; messages: unknown };
      const prompt = Math.ceil(JSON.stringify(request.messages).length / 4) + extra;
      if (prompt + request.max_tokens <= WINDOW) {
        counts.answered++;
        counts.smallestAnswered = Math.min(counts.smallestAnswered, prompt + request.max_tokens);
        return false;
      }
      counts.refused++;
      if (inBand === 'stream') res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify({ error: refusal(prompt, request.max_tokens) })}\n\n`);
      else if (inBand === 'whole') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ error: refusal(prompt, request.max_tokens) }));
      // TGI answers its validation errors with a 422 (before, read as a refused request: TMAS_CALL_REJECTED), the others with a 400.
      else res.writeHead((refusal(prompt, request.max_tokens) as { error_type?: unknown }).error_type === 'validation' ? 422 : 400, { 'content-type': 'application/json' }).end(JSON.stringify(refusal(prompt, request.max_tokens)));
      return true;
    });
    const close = async () => {
      proxy.server.closeAllConnections();
      proxy.server.close();
      await sim.close();
    };
    return { url: proxy.url, problems, counts, close };
  }
  const FLAGS = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0', '--model-name', 'tmas-sim'];

  test.for(wordings)('%s: the window stated to the first calls is the one every later call is fitted into, and the run completes', async ([, refusal], { dir }) => {
    const server = await smallWindow(refusal);
    try {
      const outcome = await runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--output-file', path.join(dir, 'run')]);
      expect(outcome.stopped).toEqual([]);
      expect(outcome.calls.failed).toBe(0);
      expect(server.counts.answered).toBe(outcome.calls.issued);
      // Only the two solution calls sent before any refusal came back were refused (before, each of the 7 calls was, once).
      expect(server.counts.refused).toBeLessThanOrEqual(2);
      expect(server.counts.answered).toBeGreaterThan(2);
    } finally {
      await server.close();
    }
  });

  test.for(wordings.filter(([name]) => !['SGLang on its input', 'llama.cpp', 'TGI on its input, its 422', 'LM Studio'].includes(name)))('%s, counting the prompt longer than the run: a call refused in the stated window shrinks by the tokens it went over, not by half', async ([, refusal], { dir }) => {
    // 600 tokens of chat template the run does not count: a call fitted into 8,192 asks the server for about 8,280.
    const server = await smallWindow(refusal, 600);
    try {
      const outcome = await runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--output-file', path.join(dir, 'run')]);
      expect(outcome.calls.failed).toBe(0);
      // Each request answered asked for nearly the whole window (before, the halved window left it near 4,400 of 8,192).
      expect(server.counts.smallestAnswered).toBeGreaterThan(WINDOW - 512);
    } finally {
      await server.close();
    }
  });

  test.for([
    ['stream', []],
    ['whole', ['--no-stream']],
  ] as const)("SGLang's refusal inside a 200 (%s): each call is refitted as after a 400, and the run completes", async ([inBand, flags], { dir }) => {
    // Not streamed, the {"error"} body read as a reply without choices: retried as broken, never refitted, the endpoint stopped as down.
    const server = await smallWindow(wordings.find(([name]) => name === 'SGLang')![1], 0, inBand);
    try {
      const outcome = await runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, ...flags, '--output-file', path.join(dir, 'run')]);
      expect(outcome.calls.failed).toBe(0);
      expect(server.counts.answered).toBe(outcome.calls.issued);
      expect(server.counts.refused).toBeLessThanOrEqual(2);
    } finally {
      await server.close();
    }
  });

  test("a server that lists its window (vLLM's max_model_len): a new run under a larger --max-tokens is refused before anything is sent or written; one given that window is never refused; a resume of a larger-window run fits its calls into it from the first", async ({ dir }) => {
    const server = await smallWindow(wordings[0]![1], 0, null, 'max_model_len');
    try {
      const input = await writeProblems(dir, server.problems);
      const refused = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, ...FLAGS, '--output-file', path.join(dir, 'refused')]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(new RegExp(`serves tmas-sim with a context window of ${WINDOW} tokens \\(its max_model_len\\), under the run's --max-tokens 131072: .* Give --max-tokens ${WINDOW} \\(or less\\).*\\[TMAS_USAGE\\]`));
      expect(existsSync(path.join(dir, 'refused'))).toBe(false);
      expect(server.counts.answered + server.counts.refused).toBe(0);

      const fitted = await runInProcess(['--input-file', input, '--base-url', server.url, ...FLAGS, '--max-tokens', String(WINDOW), '--output-file', path.join(dir, 'fitted')]);
      expect(fitted.calls.failed).toBe(0);
      expect(server.counts.refused).toBe(0);

      // A run made while the server listed no window, extended by a resume once it does.
      server.counts.listsWindow = false;
      const run = path.join(dir, 'run');
      expect((await runInProcess(['--input-file', input, '--base-url', server.url, ...FLAGS, '--output-file', run])).calls.failed).toBe(0);
      server.counts.listsWindow = 'max_model_len';
      server.counts.refused = 0;
      const resumed = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain(`under the run's --max-tokens 131072: its calls are fitted into ${WINDOW} tokens from the first.`);
      expect(server.counts.refused).toBe(0);
    } finally {
      await server.close();
    }
  });

  // Before, a window listed as context_length was not read: every call was refused as too long first.
  test("a hosted API that lists its window as context_length (OpenRouter, Together): a new run under a larger --max-tokens is refused before anything is sent", async ({ dir }) => {
    const server = await smallWindow(wordings[0]![1], 0, null, 'context_length');
    try {
      const refused = await runCliInProcess(['run', '--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--output-file', path.join(dir, 'refused')]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(new RegExp(`context window of ${WINDOW} tokens \\(its context_length\\), under the run's --max-tokens 131072: .* Give --max-tokens ${WINDOW} \\(or less\\), or choose a model with a longer window.*\\[TMAS_USAGE\\]`));
      expect(server.counts.answered + server.counts.refused).toBe(0);
    } finally {
      await server.close();
    }
  });

  test('a resume, which starts knowing no window, answers from the journal every call fitted into the stated one: none is paid twice', async ({ dir }) => {
    const server = await smallWindow(wordings[0]![1]);
    const run = path.join(dir, 'run');
    try {
      // The first run ends with 4 calls journaled, fitted into the stated window, and its iteration stopped.
      server.counts.failFrom = 4;
      const first = await runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--max-retries', '0', '--output-file', run]);
      expect(first.stopped).not.toEqual([]);
      expect(first.calls.issued).toBe(4);
      server.counts.failFrom = Number.POSITIVE_INFINITY;
      const resumed = await runCliInProcess(['run', '--resume', run]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr + resumed.stdout).toMatch(/4 answered from the journal/);
      // Every call answered was paid once: the journal holds as many records as the server answered.
      expect(server.counts.answered).toBe((await readJournal(run)).length);
    } finally {
      await server.close();
    }
  });
});

describe('a usage of zeros is no count', () => {
  // Some proxies and gateways fill in usage they do not know with zeros: a reply with text has at least one token.
  const zeros = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  const text = 'The product is 6, so the answer is \\boxed{6}.';

  test.for([
    ['streamed', (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const usage = { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'tmas-sim', choices: [], usage: zeros };
      res.end(chatChunkEvent({ role: 'assistant', content: text }) + chatChunkEvent({}, 'stop') + `data: ${JSON.stringify(usage)}\n\ndata: [DONE]\n\n`);
    }],
    ['whole', (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody(text, { usage: zeros }))],
  ] as const)('%s: the reply is counted with the run\'s tokenizer, as one without usage', async ([mode, answer]) => {
    const pool = createPool({ threads: 1 });
    try {
      const countTokens = (texts: string[], signal: AbortSignal | undefined) => pool.countTokens(texts, signal === undefined ? {} : { signal });
      const { result } = await callOnce(answer, { stream: mode === 'streamed', countTokens });
      const completion = result as Completion;
      expect(completion.content).toBe(text);
      expect(completion.usage).toBeNull();
      expect(completion.countedTokens).toBeGreaterThan(5);
    } finally {
      await pool.close();
    }
  });
});

// Gemini's OpenAI-compatible API lists its models as 'models/gemini-2.5-flash' and takes 'gemini-2.5-flash', the name its
// documentation uses. Before, a run given that name was refused at start (TMAS_MODEL_NOT_SERVED) for a model it serves.
test("a model list whose ids carry a 'models/' prefix (Gemini's): the model's own name is served, and the run completes", async ({ dir }) => {
  const problems = smallProblems(1);
  const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
  const proxy = await startProxy(sim.url, (url, _body, res) => {
    if (!url.endsWith('/models')) return false;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'models/tmas-large', object: 'model', owned_by: 'google' }, { id: 'models/tmas-sim', object: 'model', owned_by: 'google' }] }));
    return true;
  });
  try {
    const flags = ['--no-proof', '--strategy', 'majority', '--samples', '2', '--max-iterations', '1', '--judge-passes', '0'];
    const outcome = await runInProcess(['--input-file', await writeProblems(dir, problems), '--base-url', proxy.url, '--model-name', 'tmas-sim', ...flags, '--output-file', path.join(dir, 'run')]);
    expect(outcome.calls.failed).toBe(0);
    expect(outcome.calls.issued).toBeGreaterThan(0);
  } finally {
    proxy.server.closeAllConnections();
    proxy.server.close();
    await sim.close();
  }
});

describe('a server without GET /models', () => {
  /** A server in front of the simulator that answers GET /v1/models with a 404, as servers and gateways without a model list do, and every path outside /v1/ too. */
  async function withoutModelList(body: (url: string) => Promise<void>): Promise<void> {
    const problems = smallProblems(1);
    const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
    const proxy = await startProxy(sim.url, (url, _body, res) => {
      if (url.startsWith('/v1/') && !url.endsWith('/models')) return false;
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not Found' }));
      return true;
    });
    try {
      await body(proxy.url);
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
      await sim.close();
    }
  }
  const FLAGS = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0'];

  test('with --model-name, and a chat route that answers for that model: the run goes ahead and completes', async ({ dir }) => {
    await withoutModelList(async (url) => {
      const outcome = await runInProcess(['--input-file', await writeProblems(dir, smallProblems(1)), '--base-url', url, '--model-name', 'tmas-sim', ...FLAGS, '--output-file', path.join(dir, 'run')]);
      expect(outcome.stopped).toEqual([]);
      expect(outcome.calls.issued).toBeGreaterThan(0);
    });
  });

  test('without --model-name: refused before any call, asking for one (TMAS_ENDPOINT)', async ({ dir }) => {
    await withoutModelList(async (url) => {
      const run = runInProcess(['--input-file', await writeProblems(dir, smallProblems(1)), '--base-url', url, ...FLAGS, '--output-file', path.join(dir, 'run')]);
      await expect(run).rejects.toMatchObject({ code: 'TMAS_ENDPOINT', message: expect.stringContaining('--model-name') });
    });
  });

  test('a base URL without its /v1, with --model-name: still refused before any call, naming the base URL (TMAS_ENDPOINT)', async ({ dir }) => {
    await withoutModelList(async (url) => {
      const run = runInProcess(['--input-file', await writeProblems(dir, smallProblems(1)), '--base-url', url.replace(/\/v1$/, ''), '--model-name', 'tmas-sim', ...FLAGS, '--output-file', path.join(dir, 'run')]);
      await expect(run).rejects.toMatchObject({ code: 'TMAS_ENDPOINT', message: expect.stringContaining('(ending in /v1)') });
    });
  });
});

describe("a FastAPI server's validation error", () => {
  test('names the field it is about, as the 422 says it', async () => {
    const detail = [{ type: 'int_parsing', loc: ['body', 'max_tokens'], msg: 'Input should be a valid integer', input: 'x' }];
    const { result, requests } = await callOnce((res) => res.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ detail })));
    expect((result as CallFailedError).code).toBe('TMAS_CALL_REJECTED');
    expect((result as CallFailedError).message).toContain('HTTP 422: Input should be a valid integer (body.max_tokens)');
    // Sent once more without the usage field the gateway adds to streams (a 422 may be about it), and not retried.
    expect(requests).toBe(2);
  });
});

describe('a 400 inside a streamed 200', () => {
  // vLLM reports an exception raised while it streams (an engine's RuntimeError) this way; SGLang a ValueError.
  const inBand = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(chatChunkEvent({ role: 'assistant', content: 'The answer' }) + `data: ${JSON.stringify({ error: { object: 'error', message: 'RuntimeError: CUDA error: an illegal memory access was encountered', type: 'BadRequestError', param: null, code: 400 } })}\n\n`);
  };

  test('is retried once, and the reply that finished is the one returned', async () => {
    const { result, requests } = await callOnce((res, index) => (index === 0 ? inBand(res) : streamed(res, 'The answer is \\boxed{2}.', 'stop')), { maxRetries: 3 });
    expect(result).not.toBeInstanceOf(CallFailedError);
    expect((result as Completion).attempts).toBe(2);
    expect(requests).toBe(2);
  });

  test('twice fails the call as rejected, naming the server\'s words, without the rest of its retries', async () => {
    const { result, requests } = await callOnce(inBand, { maxRetries: 3 });
    expect(result).toBeInstanceOf(CallFailedError);
    expect((result as CallFailedError).code).toBe('TMAS_CALL_REJECTED');
    expect((result as CallFailedError).message).toContain("the server's error inside a 200 reply: RuntimeError");
    expect(requests).toBe(2);
  });
});

describe('what a refusal says to change', () => {
  test("a proxy's 413 names the body-size limit and the flag that bounds the prompt, not its web page", async () => {
    const page = '<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>';
    const { result } = await callOnce((res) => res.writeHead(413, { 'content-type': 'text/html' }).end(page));
    const { code, message } = result as CallFailedError;
    expect(code).toBe('TMAS_CALL_REJECTED');
    expect(message).toContain('HTTP 413: the request is larger than the server, or a proxy in front of it, accepts');
    expect(message).toContain('client_max_body_size');
    expect(message).toContain('--max-tokens');
    expect(message).not.toContain('<html>');
  });

  test("a refused key's message ends the server's sentence once", async ({ dir }) => {
    const problems = smallProblems(1);
    const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
    const refusal = { error: { message: 'Incorrect API key provided: sk-abc***. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };
    const proxy = await startProxy(sim.url, (url, _body, res) => {
      if (!url.endsWith('/chat/completions')) return false;
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
      return true;
    });
    try {
      const run = runInProcess(['--input-file', await writeProblems(dir, problems), '--base-url', proxy.url, '--model-name', 'tmas-sim', '--no-proof', '--max-iterations', '1', '--judge-passes', '0', '--output-file', path.join(dir, 'run')]);
      await expect(run).rejects.toMatchObject({ code: 'TMAS_AUTH', message: expect.stringContaining('/api-keys. The run stopped at once') });
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
      await sim.close();
    }
  });
});

describe('a server that asks to be called again only hours later (a daily limit spent, a maintenance)', () => {
  const refusals = [
    ['a 429 with Retry-After 7200', 429, { 'retry-after': '7200' }],
    ["a 429 whose spent limit resets in 23h59m (OpenAI's headers)", 429, { 'x-ratelimit-reset-requests': '23h59m0s', 'x-ratelimit-remaining-requests': '0' }],
    ['a 503 with retry-after-ms 3600000', 503, { 'retry-after-ms': '3600000' }],
    // Before, each call spent its retries into a limit that lifts the next day, and the run stopped as an endpoint down.
    ['a 429 whose spent limit resets at an epoch in ms (X-RateLimit-Reset)', 429, { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Date.now() + 20 * 3_600_000) }],
  ] as const;
  // Before: the wait was cut to the backoff's cap (60 s) and each retry met the same refusal; the call spent its 8 retries in
  // 8 minutes, and the run stopped as an endpoint down, advising to check the server or lower --concurrency.
  test.for(refusals)('%s: the call fails at once as rate-limited, not retried every minute into the same refusal', async ([, status, headers]) => {
    const { result, requests } = await callOnce((res) => refuse(res, status, headers), { backoff: { baseMs: 10, capMs: 10_000 } });
    expect(result).toBeInstanceOf(CallFailedError);
    expect((result as CallFailedError).code).toBe('TMAS_RATE_LIMITED');
    expect(requests).toBe(1);
  });

  test("OpenRouter's daily limit of its :free models, its reset in the error's metadata.headers: the call fails at once as rate-limited", async () => {
    const reset = Date.now() + 20 * 3_600_000;
    const body = { error: { message: 'Rate limit exceeded: free-models-per-day. Add 10 credits to unlock 1000 free model requests per day', code: 429, metadata: { headers: { 'X-RateLimit-Limit': '50', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) } } }, user_id: 'user_1' };
    const { result, requests } = await callOnce((res) => res.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify(body)), { backoff: { baseMs: 10, capMs: 10_000 } });
    expect((result as CallFailedError).code).toBe('TMAS_RATE_LIMITED');
    expect(requests).toBe(1);
    // Its per-minute limit, 30 s from now, is waited for.
    const minute = new APIError(429, { ...body.error, message: 'Rate limit exceeded: free-models-per-min.', metadata: { headers: { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(Date.now() + 30_000) } } }, undefined, new Headers());
    expect(backoffMs(1, minute, DEFAULT_BACKOFF, () => 0)).toBeGreaterThan(25_000);
  });

  test('a wait of minutes is waited out in full, past the backoff\'s 60 s cap', () => {
    const refusal = new APIError(429, { message: 'Rate limit reached' }, undefined, new Headers({ 'x-ratelimit-reset-tokens': '6m0s', 'x-ratelimit-remaining-tokens': '0' }));
    expect(backoffMs(1, refusal, DEFAULT_BACKOFF, () => 0)).toBe(360_000);
  });

  test('in a pool, the call goes to another replica', async () => {
    const asking = await serveHttp((_req, res) => refuse(res, 429, { 'retry-after': '7200' }));
    const answering = await serveHttp((_req, res) => streamed(res, 'The answer is 2.', 'stop'));
    const gateway = createGateway({ ...OPTIONS, backoff: { baseMs: 10, capMs: 10_000 } });
    try {
      const request = additionRequest(asking.url);
      const result = await gateway.complete({ ...request, endpoint: { ...request.endpoint, replicas: [asking.url, answering.url] } });
      expect(result.content).toBe('The answer is 2.');
    } finally {
      gateway.close();
      await Promise.all([asking.close(), answering.close()]);
    }
  });

  test('tmas run stops at once, saying when to resume', async ({ dir }) => {
    let calls = 0;
    const server = await serveHttp((req, res) => {
      if (req.url?.endsWith('/models')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] }));
      calls++;
      refuse(res, 429, { 'retry-after': '7200' });
    });
    try {
      const input = await writeProblems(dir, smallProblems(2));
      const run = path.join(dir, 'run');
      const outcome = await runCliInProcess(['run', '--input-file', input, '--base-url', server.url, '--no-proof', '--strategy', 'majority', '--samples', '2', '--max-iterations', '1', '--output-file', run]);
      expect(outcome.stderr).toMatch(/asks to be called again in 2.0 h \(at \d{4}-\d\d-\d\dT[\d:]+Z\), longer than a call waits \(15 min\): .*HTTP 429.*Continue after then with: tmas run --resume .*\[TMAS_RATE_LIMITED\]/s);
      expect(outcome.code).toBe(2);
      // Each of the 4 calls sent once at most, none retried.
      expect(calls).toBeLessThanOrEqual(4);
    } finally {
      await server.close();
    }
  });
});

describe('a server that asks to be called again at once (Retry-After: 0) on every refusal', () => {
  // Before, each retry went out at once (0 s and a jitter under the backoff's first step): a proxy answering 429 with
  // Retry-After: 0 through a minute of overload spent a call's retries in a few seconds, and the call failed.
  test.for([['Retry-After: 0', { 'retry-after': '0' }], ['retry-after-ms: 1', { 'retry-after-ms': '1' }]] as const)('%s: each retry still waits the backoff\'s step, doubling', async ([, headers]) => {
    const waits: number[] = [];
    const { result, requests } = await callOnce((res) => refuse(res, 429, headers), { maxRetries: 3, backoff: { baseMs: 40, capMs: 10_000 }, onRetry: (event) => waits.push(event.waitMs) });
    expect(result).toBeInstanceOf(CallFailedError);
    expect(requests).toBe(4);
    // Full jitter: each wait is at least half its step (40, 80, 160 ms).
    expect(waits.map((wait, index) => wait >= 20 * 2 ** index)).toEqual([true, true, true]);
  });
});

describe("a 429 that says when its limit resets in OpenAI's headers (x-ratelimit-reset-requests, -tokens), not in Retry-After", () => {
  test.for([
    ['0.4s', { 'x-ratelimit-reset-tokens': '0.4s', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-requests': '20ms', 'x-ratelimit-remaining-requests': '59' }],
    ['400ms', { 'x-ratelimit-reset-requests': '400ms', 'x-ratelimit-remaining-requests': '0' }],
    ['0m0.4s', { 'x-ratelimit-reset-tokens': '0m0.4s' }],
    // Neither limit says it is spent (a prompt larger than the tokens left): the one that resets first is waited for, not a
    // daily request limit's 20 h, which stopped the run at once as rate-limited (TMAS_RATE_LIMITED, 1 request) before.
    ['0.4s, a daily request limit not spent', { 'x-ratelimit-reset-tokens': '0.4s', 'x-ratelimit-remaining-tokens': '1500', 'x-ratelimit-reset-requests': '20h0m0s', 'x-ratelimit-remaining-requests': '9000' }],
  ] as const)('reset in %s: the retry waits for it, not the backoff\'s first step', async ([, headers]) => {
    const times: number[] = [];
    const { result, requests } = await callOnce((res, index) => {
      times.push(performance.now());
      if (index === 0) res.writeHead(429, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }));
      else streamed(res, 'The answer is 2.', 'stop');
    }, { backoff: { baseMs: 10, capMs: 10_000 } });
    expect(result).not.toBeInstanceOf(CallFailedError);
    expect(requests).toBe(2);
    // 0.4 s, forty times the backoff's first step (at most 10 ms here), and waited in full.
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(380);
  });
});

describe('an error event named by its `event:` line, its data without an "error" field', () => {
  // As servers that name their events write it (event: error), the data being the error itself.
  const named = (res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`: ping\n\n${chatChunkEvent({ role: 'assistant', content: 'The answer' })}event: error\ndata: ${JSON.stringify({ type: 'overloaded_error', message: 'Overloaded: the model is at capacity' })}\n\n`);
  };

  test("fails the attempt with the server's words, and the retry's reply is the one returned", async () => {
    const { result, requests } = await callOnce((res, index) => (index === 0 ? named(res) : streamed(res, 'The answer is \\boxed{2}.', 'stop')), { maxRetries: 3 });
    expect((result as Completion).content).toBe('The answer is \\boxed{2}.');
    expect(requests).toBe(2);
  });

  test('on every attempt: the call fails naming them, not as a stream that ended before a finish reason', async () => {
    const { result } = await callOnce(named, { maxRetries: 1 });
    expect(result).toBeInstanceOf(CallFailedError);
    expect((result as CallFailedError).message).toContain("the server's error inside a 200 reply: Overloaded: the model is at capacity");
  });

  test("llama.cpp's error field (error: {…}, no data line): the server's words, retried (before: 'the event stream ended before a finish reason')", async () => {
    const llamaCpp = (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${chatChunkEvent({ role: 'assistant', content: 'The answer' })}error: ${JSON.stringify({ code: 500, message: 'Failed to decode the batch', type: 'server_error' })}\n\n`);
    };
    const failed = await callOnce(llamaCpp, { maxRetries: 1 });
    expect((failed.result as CallFailedError).message).toContain("the server's error inside a 200 reply: Failed to decode the batch");
    expect(failed.requests).toBe(2);
    const retried = await callOnce((res, index) => (index === 0 ? llamaCpp(res) : streamed(res, 'The answer is \\boxed{2}.', 'stop')), { maxRetries: 3 });
    expect((retried.result as Completion).content).toBe('The answer is \\boxed{2}.');
  });

  test.for([
    ['a stream', true],
    ['a JSON body', false],
  ] as const)('an error object without its "error" wrapper ({"object": "error", …}, the ErrorResponse shape some servers send bare) in %s: the server\'s words, retried (before: they were lost)', async ([, stream]) => {
    const bare = JSON.stringify({ object: 'error', message: 'CUDA out of memory', type: 'InternalServerError', code: 500 });
    const failed = await callOnce(
      (res) => {
        res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
        res.end(stream ? `${chatChunkEvent({ role: 'assistant', content: 'The answer' })}data: ${bare}\n\n` : bare);
      },
      { maxRetries: 1 },
    );
    expect((failed.result as CallFailedError).message).toContain("the server's error inside a 200 reply: CUDA out of memory");
    expect(failed.requests).toBe(2);
  });

  test('an event of another name (a ping with data) is no error and no chunk', async () => {
    const { result } = await callOnce((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`event: ping\ndata: {"type":"ping"}\n\n${chatChunkEvent({ role: 'assistant', content: 'The answer is 2.' })}${chatChunkEvent({}, 'stop')}data: [DONE]\n\n`);
    });
    expect((result as Completion).content).toBe('The answer is 2.');
  });
});

describe('an error field that says nothing', () => {
  test.for([
    ['{}', {}],
    ['null', null],
    ['""', ''],
  ] as const)('"error": %s beside every chunk of a stream that goes well says nothing: the reply is read in one attempt (before: every attempt failed)', async ([, empty]) => {
    const withEmpty = (delta: Record<string, unknown>, finish: string | null = null) => chatChunkEvent(delta, finish).replace('data: {', `data: {"error": ${JSON.stringify(empty)}, `);
    const { result, requests } = await callOnce((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`${withEmpty({ role: 'assistant', content: 'The answer is 2.' })}${withEmpty({}, 'stop')}data: [DONE]\n\n`);
    });
    expect(result).toMatchObject({ content: 'The answer is 2.', attempts: 1 });
    expect(requests).toBe(1);
  });
});
