/**
 * What a server writes reaches the terminal inert. Its error message and the
 * model ids it lists are quoted in tmas's messages; before, their control
 * characters went to the terminal as they were, and a carriage return with an
 * erase sequence replaced tmas's coded error by words of the server's choosing.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { runCliInProcess, serveHttp, smallProblems, test, writeProblems } from '../../fixtures.ts';

const FORGED = 'upstream \u001b[8mhidden\u001b[0m failure\r\u001b[Ktmas: all good [TMAS_OK] \u001b]0;title\u0007 \u202eesrever\u009b';

/** The control characters a terminal acts on, as they would be written: none may be. */
const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

test('a server\'s error message and model ids with control characters are printed with them escaped, tmas\'s own error intact', async ({ dir }) => {
  const server = await serveHttp((req, res) => {
    if (req.url?.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', owned_by: 'x' }, { id: 'n\u001b[2J', object: 'model', owned_by: 'x' }] }));
      return;
    }
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: FORGED, type: 'BadRequestError', code: 400 } }));
  });
  try {
    const problems = await writeProblems(dir, smallProblems(1));
    const base = ['run', '--input-file', problems, '--no-proof', '--strategy', 'majority', '--samples', '1', '--max-iterations', '1', '--base-url', server.url, '--max-retries', '0'];
    const unnamed = await runCliInProcess([...base, '--output-file', path.join(dir, 'unnamed')]);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('n\\u001b[2J');
    const failed = await runCliInProcess([...base, '--model-name', 'm', '--output-file', path.join(dir, 'failed')]);
    expect(failed.code, failed.stderr).not.toBe(0);
    for (const stderr of [unnamed.stderr, failed.stderr]) expect(stderr).not.toMatch(ACTING);
    expect(failed.stderr).toContain('upstream \\u001b[8mhidden\\u001b[0m failure\\u000d\\u001b[Ktmas: all good [TMAS_OK] \\u001b]0;title\\u0007 \\u202eesrever\\u009b');
    expect(failed.stderr).toMatch(/\[TMAS_[A-Z_]+\]/);
  } finally {
    await server.close();
  }
});
