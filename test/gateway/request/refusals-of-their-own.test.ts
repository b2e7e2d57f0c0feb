/**
 * Calls refused for their own reasons at the start of a healthy run (a
 * content filter tripped by one problem's statement, or by a few problems'
 * while the other calls are still generating) are each their call's: the
 * run goes on and the other problems are answered. Only an endpoint that
 * refused every call sent to it, over several prompts, stops the run.
 * Real servers over real sockets, through `tmas run`.
 */
import { createServer } from 'node:http';
import path from 'node:path';
import { expect } from 'vitest';
import { chatCompletionBody, listening, runCliInProcess, smallProblems, test, writeProblems } from '../../fixtures.ts';

const FLAGS = ['--no-proof', '--strategy', 'majority', '--samples', '4', '--max-iterations', '1', '--wait-for-server', '0', '--model-name', 'm'];

/** A hosted API's refusal of a prompt its safety system flags. */
const FILTERED = JSON.stringify({ error: { message: 'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed.', type: 'invalid_request_error', param: null, code: null } });

/** A server listing m that refuses at once the prompts naming a flagged problem and answers the others after `generatingMs`, as a model generating would. */
function serveFiltering(flagged: readonly string[], generatingMs: number) {
  let answered = 0;
  const started = listening(createServer((req, res) => {
    if (req.url === '/metrics') return void res.writeHead(404).end();
    if (req.url?.endsWith('/models')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] }));
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (flagged.some((question) => body.includes(question))) return void res.writeHead(400, { 'content-type': 'application/json' }).end(FILTERED);
      setTimeout(() => {
        answered++;
        res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('The product is \\boxed{6}.', { model: 'm' }));
      }, generatingMs);
    });
  }));
  return { started, answered: () => answered };
}

// Before: the first 3 refusals, all come before any call was answered, stopped the healthy run as TMAS_ENDPOINT_DOWN (exit 2).
test('one problem whose samples are all filtered, or three problems filtered while the others generate: the run goes on', async ({ dir }) => {
  const problems = smallProblems(5);
  for (const [name, flagged, concurrency] of [
    ['one problem', [problems[0]!.question], '4'],
    ['three problems', [problems[0]!.question, problems[1]!.question, problems[2]!.question], '20'],
  ] as const) {
    const server = serveFiltering(flagged, 400);
    const http = await server.started;
    try {
      const input = await writeProblems(dir, problems);
      const run = await runCliInProcess(['run', '--input-file', input, '--base-url', http.url, ...FLAGS, '--concurrency', concurrency, '--output-file', path.join(dir, `run-${flagged.length}`)]);
      // The flagged problems stop (exit 3); the others are answered, every sample of them.
      expect(run.stderr, name).not.toContain('TMAS_ENDPOINT_DOWN');
      expect(run.code, `${name}: ${run.stderr}`).toBe(3);
      expect(server.answered(), name).toBe(4 * (problems.length - flagged.length));
    } finally {
      await http.close();
    }
  }
}, 60_000);
