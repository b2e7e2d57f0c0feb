/**
 * A response that stopped before its end, cut off at its length limit
 * (`finish_reason: "length"`) or stopped by the provider's content filter
 * (`"content_filter"`), has no final answer: it is not sent to the judge and is
 * graded 0, the rule's verdict standing (`ruled`). Before, the judge read it,
 * told it was cut, and credited what it wrote on its way. Every other judge
 * call keys as it did.
 */
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
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

test('a response stopped by the content filter or cut at its length limit is not judged but graded 0; a whole one\'s judge call keys as before', async ({ dir }) => {
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
    expect(judgeBodies.map((body) => ['Compute 2 times 3.', 'Compute 3 times 4.', 'Compute 4 times 5.'].filter((question) => body.includes(question)))).toEqual([['Compute 4 times 5.']]);
    const lines = (await readFile(path.join(output, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { problem: string; candidates: Array<{ correct_judge: number | null; ruled?: true }> });
    const grades = Object.fromEntries(lines.map((line) => [line.problem, line.candidates.map((c) => ({ correctJudge: c.correct_judge, ruled: c.ruled === true }))]));
    expect(grades).toEqual({ p1: [{ correctJudge: 0, ruled: true }], p2: [{ correctJudge: 0, ruled: true }], p3: [{ correctJudge: 0, ruled: false }] });
    // The key the judge call of p3 (whole) had before.
    const keys = (await readJournal(output)).filter((call) => call.key.includes('/judge/')).map((call) => call.key);
    expect(keys).toEqual(PINNED_KEYS);
  } finally {
    await Promise.all([model.close(), judge.close()]);
  }
});

/** The journal key of p3's judge call as tmas made it before. */
const PINNED_KEYS = ['p3/0/judge/0/669bf1907ffb53b7'];
