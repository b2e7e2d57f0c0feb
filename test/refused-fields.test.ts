/**
 * A hosted API that refuses a field of the request with a 400 naming it, in
 * its own words (OpenAI's and Azure's "Unrecognized request argument
 * supplied", a strict pydantic server's extra_forbidden), over real sockets:
 * a field tmas adds on its own is left out for that endpoint, and one that a
 * flag sets stops the run, naming the flag.
 */
import path from 'node:path';
import { describe, expect } from 'vitest';
import { startSimServer } from '../src/sim/server.ts';
import { readJournal, runInProcess, smallProblems, startSwitchableProxy, test, writeProblems } from './fixtures.ts';

/** OpenAI's words for a field its chat models do not know. */
const unrecognized = (field: string) => ({ error: { message: `Unrecognized request argument supplied: ${field}`, type: 'invalid_request_error', param: null, code: null } });
/** A strict pydantic server's words (as SGLang's and vLLM's error shape carries them). */
const extraForbidden = (field: string) => ({ object: 'error', message: `[{'type': 'extra_forbidden', 'loc': ('body', '${field}'), 'msg': 'Extra inputs are not permitted', 'input': 1.05}]`, type: 'BadRequestError', param: null, code: 400 });

/** The simulator behind a proxy that refuses every request carrying `field` with `refusal`; counts the requests refused and passed on. */
async function refusing(field: string, refusal: Record<string, unknown>) {
  const problems = smallProblems(2);
  const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
  const counts = { refused: 0, passed: 0 };
  // Never set healthy: it refuses for the whole run.
  const proxy = await startSwitchableProxy(sim.url, (url, body, res) => {
    if (!url.endsWith('/chat/completions')) return false;
    if (!(field in (JSON.parse(body) as Record<string, unknown>))) {
      counts.passed++;
      return false;
    }
    counts.refused++;
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
    return true;
  });
  const close = () => proxy.close().then(() => sim.close());
  return { url: proxy.url, problems, counts, close };
}

const FLAGS = ['--model-name', 'tmas-sim', '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0'];

describe('a field tmas adds on its own, refused', () => {
  // Before, every call failed (TMAS_CALL_REJECTED, exit 3), each sent twice: once more without the continuous-usage field.
  test.for(['seed', 'stream_options'])('%s: the endpoint is sent its calls without it, and the run completes, each call journaled once', async (field, { dir }) => {
    const server = await refusing(field, unrecognized(field));
    try {
      const output = path.join(dir, 'run');
      const outcome = await runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--output-file', output]);
      expect(outcome.stopped).toEqual([]);
      const journal = await readJournal(output);
      // Every call answered was sent once without the field; only the calls in flight before the first refusal came back were refused.
      expect(server.counts.passed).toBe(journal.length);
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
