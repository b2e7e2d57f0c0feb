/**
 * The judge is told why a candidate's response stopped before its end: cut
 * off at its length limit (`finish_reason: "length"`), or stopped by the
 * provider's content filter (`"content_filter"`). Before, a filtered response
 * was said to be cut at its length limit, which tells the judge the model ran
 * out of room when it was stopped for what it wrote. Only that candidate's
 * prompt changes: every other judge call keys as it did, so a resumed run
 * finds them in its journal.
 */
import { createServer } from 'node:http';
import path from 'node:path';
import { expect } from 'vitest';
import { chatChunkEvent, chatCompletionBody, listening, readJournal, runInProcess, serveModel, test, writeProblems } from '../fixtures.ts';

const CUT = 'Multiplying the factors in turn, the product comes to';

/** The model under test: p1's solution stopped by the content filter, p2's cut at its length limit, p3's whole. */
function modelServer(): ReturnType<typeof listening> {
  const reply = (content: string, finish: string) => chatCompletionBody(content, { model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }] });
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url?.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', created: 0, owned_by: 'test' }] }));
      } else if (!req.url?.endsWith('/chat/completions')) res.writeHead(404).end();
      else if (body.includes('Compute 2 times 3.')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end(chatChunkEvent({ role: 'assistant', content: CUT }, null, 'm') + chatChunkEvent({}, 'content_filter', 'm') + 'data: [DONE]\n\n');
      } else if (body.includes('Compute 3 times 4.')) res.writeHead(200, { 'content-type': 'application/json' }).end(reply(CUT, 'length'));
      else res.writeHead(200, { 'content-type': 'application/json' }).end(reply('The product is \\boxed{20}.', 'stop'));
    });
  });
  return listening(server);
}

test("the judge's prompt says a response was stopped by the content filter, not cut at its length limit; every other judge call keys as before", async ({ dir }) => {
  const model = await modelServer();
  const judgeBodies: string[] = [];
  const judge = await serveModel((body) => {
    judgeBodies.push(body);
    return 'The response states no final answer.\nVERDICT: not equivalent';
  });
  try {
    const input = await writeProblems(dir, [
      { problem_id: 'p1', question: 'Compute 2 times 3.', answer: '6' },
      { problem_id: 'p2', question: 'Compute 3 times 4.', answer: '12' },
      { problem_id: 'p3', question: 'Compute 4 times 5.', answer: '20' },
    ]);
    const output = path.join(dir, 'out');
    const flags = ['--strategy', 'majority', '--samples', '1', '--max-iterations', '1', '--parse-retries', '0', '--judge-passes', '1'];
    await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--base-url', model.url, '--model-name', 'm', '--judge-base-url', judge.url, '--judge-model-name', 'm', ...flags]);
    const told = (question: string) => {
      const body = judgeBodies.find((b) => b.includes(question)) ?? '';
      return { filter: body.includes("The response was stopped by the provider's content filter before it finished"), length: body.includes('The response was cut off at its length limit before it finished') };
    };
    expect(told('Compute 2 times 3.')).toEqual({ filter: true, length: false });
    expect(told('Compute 3 times 4.')).toEqual({ filter: false, length: true });
    expect(told('Compute 4 times 5.')).toEqual({ filter: false, length: false });
    // The keys the judge calls of p2 (cut at its length limit) and p3 (whole) had before the filter was told apart.
    const keys = (await readJournal(output)).filter((call) => call.key.includes('/judge/')).map((call) => call.key);
    expect(keys.filter((key) => !key.startsWith('p1/')).sort()).toEqual(PINNED_KEYS);
    expect(keys.find((key) => key.startsWith('p1/'))).not.toBe('p1/0/judge/0/d6e82422d86a46cf');
  } finally {
    await Promise.all([model.close(), judge.close()]);
  }
});

/** The journal keys of p2's and p3's judge calls as tmas made them before (p1's, filtered, was d6e82422d86a46cf). */
const PINNED_KEYS = ['p2/0/judge/0/6ba8efae9365a83d', 'p3/0/judge/0/669bf1907ffb53b7'];
