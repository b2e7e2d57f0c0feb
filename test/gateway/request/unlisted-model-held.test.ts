/**
 * A server whose model list is a 404 and whose completions never answer: the
 * start-up check's one-token completion is given up at its deadline, and the
 * refusal says the call was held open. Before, it quoted the client's "Error:
 * Request was aborted." and sent the user to check --base-url alone.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { runCliInProcess, serveHttp, smallProblems, test, writeProblems } from '../../fixtures.ts';

test('a model list of 404 and a completion held open: refused at start, saying the call was not answered, not that it was aborted', async ({ dir }) => {
  const server = await serveHttp((req, res) => {
    if (req.url?.endsWith('/models')) res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Not Found' } }));
    // Completions: held open, never answered.
  });
  try {
    const problems = await writeProblems(dir, smallProblems(1));
    const tried = await runCliInProcess(['run', '--input-file', problems, '--output-file', path.join(dir, 'run'), '--no-proof', '--base-url', server.url, '--model-name', 'm', '--strategy', 'majority', '--samples', '1', '--max-iterations', '1']);
    expect(tried.code, tried.stderr).toBe(2);
    expect(tried.stderr).toContain('A one-token completion of "m" failed too (it was not answered before the start-up check gave up waiting: the server holds the call open)');
    expect(tried.stderr).not.toContain('Request was aborted');
  } finally {
    await server.close();
  }
}, 120_000);
