/**
 * An endpoint that refuses every call of the run with a 4xx no retry passes
 * (vLLM serving a model without a chat template, a gateway's schema that
 * refuses tmas's requests): after 3 calls refused before any answered, the
 * run stops, naming the server's words, rather than send and see refused
 * every call it has. Refusals after an answer stay each call's own, as do a
 * proxy's 413s. Real servers over real sockets, through `tmas run`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { expect } from 'vitest';
import { chatCompletionBody, runCliInProcess, serveHttp, smallProblems, test, writeProblems } from '../../fixtures.ts';

const FLAGS = ['--no-proof', '--strategy', 'majority', '--samples', '4', '--max-iterations', '1', '--wait-for-server', '0', '--model-name', 'm'];

/** vLLM's 400 for a model whose tokenizer has no chat template. */
const NO_TEMPLATE = { object: 'error', message: 'As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one.', type: 'BadRequestError', param: null, code: 400 };

/** A server that lists model m and answers each chat completion with `answer` (told how many came before); counts them. */
function serveChats(answer: (before: number, body: string, res: ServerResponse) => void) {
  let chats = 0;
  const started = serveHttp((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.endsWith('/models')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] }));
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    answer(chats++, body, res);
  });
  return { started, chats: () => chats };
}

const ANSWERED = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('The product is \\boxed{6}.', { model: 'm' }));

// Before: every call of the run was sent and refused (20 of 20 for 5 problems of 4 samples), each problem stopped, exit 3 (TMAS_RUN_INCOMPLETE).
test('every call refused from the first: the run stops after 3 calls (and those in flight), exit 2, naming the server\'s words', async ({ dir }) => {
  const server = serveChats((_before, _body, res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(NO_TEMPLATE)));
  const http = await server.started;
  try {
    const input = await writeProblems(dir, smallProblems(5));
    const run = await runCliInProcess(['run', '--input-file', input, '--base-url', http.url, ...FLAGS, '--concurrency', '2', '--output-file', path.join(dir, 'run')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/refused each of the first 3 calls sent to it, and answered none: HTTP 400: As of transformers v4\.44, default chat template is no longer allowed.*Fix what the server says, then resume the run.*\[TMAS_ENDPOINT_DOWN\]/);
    // 3 calls, each sent twice (the second time without continuous usage, which a 400 naming nothing may refuse), and the one in flight.
    expect(server.chats()).toBeLessThanOrEqual(8);
  } finally {
    await http.close();
  }
});

test('refusals after a call was answered are each call\'s own, and so are 413s from the first: the run goes to its end', async ({ dir }) => {
  for (const [name, refuse] of [
    ['a 400 after an answer', (before: number) => before >= 1],
    ['413s from the first', () => true],
  ] as const) {
    const tooLarge = name.startsWith('413');
    const server = serveChats((before, _body, res) => {
      // Every other call refused: some answered, some not, whatever their order.
      if (!refuse(before) || before % 2 === 0) return ANSWERED(res);
      if (tooLarge) return void res.writeHead(413, { 'content-type': 'text/html' }).end('<html><head><title>413 Request Entity Too Large</title></head><body>nginx</body></html>');
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Your request was rejected as a result of our safety system.', type: 'invalid_request_error', code: null } }));
    });
    const http = await server.started;
    try {
      const input = await writeProblems(dir, smallProblems(5));
      const run = await runCliInProcess(['run', '--input-file', input, '--base-url', http.url, ...FLAGS, '--concurrency', '1', '--output-file', path.join(dir, `run-${tooLarge}`)]);
      // Calls failed for good, their problems stopped (exit 3), every call sent: not stopped as an endpoint that refuses all.
      expect(run.code, `${name}: ${run.stderr}`).toBe(3);
      expect(run.stderr).not.toContain('TMAS_ENDPOINT_DOWN');
      expect(server.chats()).toBe(20);
    } finally {
      await http.close();
    }
  }
});
