/**
 * A server that works out a call's completion limit as what its window
 * leaves the prompt, and refuses a limit of none: vLLM's "max_tokens must be
 * at least 1, got 0.", OpenAI's "Expected a value >= 1, but got 0 instead.",
 * a proxy that clamps the limit to its model's window. The prompt alone
 * fills the server's window: a context-length error, the call refitted into
 * the prompt less its overshoot (trimmed, or not sent when it cannot be),
 * not a refused request. Real servers over real sockets.
 */
import path from 'node:path';
import { describe, expect, test as plain } from 'vitest';
import { CallFailedError, createGateway } from '../../../src/gateway/gateway.ts';
import { noCompletionLeft } from '../../../src/gateway/request/no-completion-left.ts';
import { shrunkWindow } from '../../../src/host/calls/context-errors.ts';
import { startSimServer } from '../../../src/sim/server.ts';
import { additionRequest, runInProcess, serveHttp, smallProblems, startProxy, test, writeProblems } from '../../fixtures.ts';

const wordings: Array<[string, number, Record<string, unknown>]> = [
  ['vLLM', 0, { object: 'error', message: 'max_tokens must be at least 1, got 0.', type: 'BadRequestError', param: null, code: 400 }],
  ['vLLM, the prompt past the window', -952, { error: { message: 'max_tokens must be at least 1, got -952.', type: 'BadRequestError', param: null, code: 400 } }],
  ['OpenAI', 0, { error: { message: "Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'integer_below_min_value' } }],
  ['TGI', -3, { error: 'Input validation error: `max_new_tokens` must be strictly positive, got -3', error_type: 'validation' }],
];

describe('a completion limit the server worked out as none', () => {
  // Before: TMAS_CALL_REJECTED after one request, the server's words alone, the call's problem stopped.
  plain.for(wordings)("%s's words: a context-length error (TMAS_CONTEXT_LENGTH), read as the prompt's overshoot", async ([, got, body]) => {
    const server = await serveHttp((_req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
    const gateway = createGateway({ concurrency: 2, maxRetries: 2, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 10_000 });
    try {
      const failed = (await gateway.complete(additionRequest(server.url, 1, 1000)).catch((error: unknown) => error)) as CallFailedError;
      expect(failed).toBeInstanceOf(CallFailedError);
      expect(failed.code).toBe('TMAS_CONTEXT_LENGTH');
      expect(server.requests()).toBe(1);
      expect(noCompletionLeft(failed.message)).toBe(got);
      // A prompt of 3,000 tokens in a window of 32,768: refitted into the prompt less its overshoot, not 28,672 (an eighth off).
      expect(shrunkWindow(32_768, failed.message, 3000)).toBe(3000 + got);
    } finally {
      gateway.close();
      await server.close();
    }
  });

  plain('a limit the server got that is above 0, or words of no limit, are no such error', () => {
    expect(noCompletionLeft('max_tokens must be at least 1, got 5.')).toBeNull();
    expect(noCompletionLeft('temperature must be at least 0, got -1.')).toBeNull();
    expect(noCompletionLeft('max_tokens must be at least 1, got 0.'.padStart(70_000, ' '))).toBeNull();
  });

  // Before: each call whose prompt filled the server's window failed for good (TMAS_CALL_REJECTED), its problem stopped, exit 3.
  test('a run against a server whose window its longer prompts fill: each such call is refused once, refitted and answered; no problem stops', async ({ dir }) => {
    const WINDOW = 600;
    const problems = smallProblems(2);
    const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
    const counts = { refused: 0, answered: 0 };
    // The server's count of a prompt: a quarter of its characters; its limit, what its window leaves, refused when none.
    const proxy = await startProxy(sim.url, (url, body, res) => {
      if (!url.endsWith('/chat/completions')) return false;
      const prompt = Math.ceil(JSON.stringify((JSON.parse(body) as { messages: unknown }).messages).length / 4);
      if (prompt < WINDOW) {
        counts.answered++;
        return false;
      }
      counts.refused++;
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'error', message: `max_tokens must be at least 1, got ${WINDOW - prompt}.`, type: 'BadRequestError', param: null, code: 400 }));
      return true;
    });
    try {
      const flags = ['--model-name', 'tmas-sim', '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0', '--max-tokens', '8192'];
      const outcome = await runInProcess(['--input-file', await writeProblems(dir, problems), '--base-url', proxy.url, ...flags, '--output-file', path.join(dir, 'run')]);
      expect(outcome.stopped).toEqual([]);
      expect(outcome.calls.failed).toBe(0);
      // The memory roles' prompts (about 820 tokens by the server's count) were refused once each, then trimmed into the window and answered.
      expect(counts.refused).toBeGreaterThan(0);
      expect(counts.refused).toBeLessThanOrEqual(4);
      expect(counts.answered).toBe(outcome.calls.issued);
    } finally {
      proxy.server.closeAllConnections();
      proxy.server.close();
      await sim.close();
    }
  });
});
