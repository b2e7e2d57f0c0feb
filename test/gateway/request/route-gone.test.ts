/**
 * A chat route that is no longer there mid-run: a 404 that names no model
 * (FastAPI's `{"detail": "Not Found"}`, an nginx or ingress page) or a 405,
 * as a proxy's route removed or the port taken by another server after a
 * restart answers. The check at start passed; every later call would be
 * refused alike, so the run stops at once, naming the base URL to check,
 * and its resume pays for no answered call twice. In a pool, a replica that
 * answers so leaves its calls to its siblings. Real servers over real sockets.
 */
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { startSimServer } from '../../../src/sim/server.ts';
import { readJournal, runCliInProcess, runInProcess, smallProblems, startSwitchableProxy, test, writeProblems } from '../../fixtures.ts';

const FLAGS = ['--model-name', 'tmas-sim', '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0', '--wait-for-server', '0'];

/** The simulator behind a proxy whose chat route answers with `refuse` once `answered` calls went through; counts both. */
async function routeRemovedAfter(answered: number, refuse: (res: ServerResponse) => void) {
  const problems = smallProblems(2);
  const sim = await startSimServer({ problems: problems.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
  const counts = { refused: 0, passed: 0 };
  const route = { restored: false };
  const proxy = await startSwitchableProxy(sim.url, (url, _body, res) => {
    if (!url.endsWith('/chat/completions')) return false;
    if (route.restored || counts.passed < answered) {
      counts.passed++;
      return false;
    }
    counts.refused++;
    refuse(res);
    return true;
  });
  const restore = () => {
    route.restored = true;
  };
  return { url: proxy.url, sim, problems, counts, restore, close: () => proxy.close().then(() => sim.close()) };
}

const refusals: Array<[string, (res: ServerResponse) => void]> = [
  ["FastAPI's 404 (a server without the route)", (res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}')],
  ["nginx's 404 page (a route removed at the proxy)", (res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx/1.25.3</center></body></html>')],
  ['a 405 Method Not Allowed', (res) => res.writeHead(405, { 'content-type': 'application/json', allow: 'GET' }).end('{"detail":"Method Not Allowed"}')],
];

describe('a chat route no longer there mid-run', () => {
  // Before: each call of the run was sent and refused (TMAS_CALL_REJECTED), every problem stopped, exit 3.
  test.for(refusals)('%s: the run stops at once (TMAS_ENDPOINT), naming the flag and the resume; the resume completes, paying for no call twice', async ([, refuse], { dir }) => {
    const server = await routeRemovedAfter(3, refuse);
    try {
      const output = path.join(dir, 'run');
      const args = ['--input-file', await writeProblems(dir, server.problems), '--base-url', server.url, ...FLAGS, '--output-file', output];
      const run = runInProcess(args);
      await expect(run).rejects.toMatchObject({ code: 'TMAS_ENDPOINT', message: expect.stringMatching(/no longer has its chat route: .*HTTP 40[45].*Check that --base-url reaches the server.*tmas run --resume /) });
      // The calls in flight when the first refusal came (2 problems' solutions) at most: not every call of the run.
      expect(server.counts.refused).toBeLessThanOrEqual(4);
      const journaled = await readJournal(output);
      expect(journaled).toHaveLength(server.counts.passed);
      server.restore();
      const passedBefore = server.counts.passed;
      const resumed = await runCliInProcess(['run', '--resume', output]);
      expect(resumed.code, resumed.stderr).toBe(0);
      // Every call answered before the stop is answered from the journal, none sent again: each sent once, journaled once.
      expect(server.counts.passed).toBeGreaterThan(passedBefore);
      expect(await readJournal(output)).toHaveLength(server.counts.passed);
    } finally {
      await server.close();
    }
  });

  test('in a pool, a replica that answers 404 leaves its calls to the sibling that answers: the run completes', async ({ dir }) => {
    const server = await routeRemovedAfter(0, refusals[0]![1]);
    try {
      const output = path.join(dir, 'run');
      const outcome = await runInProcess(['--input-file', await writeProblems(dir, server.problems), '--base-url', `${server.url},${server.sim.url}`, ...FLAGS, '--output-file', output]);
      expect(outcome.calls.failed).toBe(0);
      expect(outcome.stopped).toEqual([]);
      expect(server.counts.refused).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
