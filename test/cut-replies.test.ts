/**
 * A reply cut at its completion limit has no final answer, in every method
 * alike: a server of our own answers every call with a text that boxes a
 * guess and is then cut (finish_reason "length"), and no method may count
 * the guess as its candidate's answer. Before, TMAS's solutions and PaCoRe's
 * syntheses had none while RSE's rollouts and Self-Refine's rewrites graded
 * the guess, so a model that fills its window moved the table by method.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { chatCompletionBody, runInProcess, serveHttp, smallProblems, test, writeProblems } from './fixtures.ts';

/** A reasoning model's text cut mid-check, after a boxed guess at the problem's answer. */
const CUT = 'A first guess is \\boxed{2}, which I should check before trusting it: the sum of';

describe('a reply cut at its length limit has no final answer', () => {
  test.for(['tmas', 'rse', 'self-refine', 'pacore'])('%s: no candidate takes the boxed guess of a cut reply', async (strategy, { dir }) => {
    const server = await serveHttp((req, res) => {
      if (req.url?.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', created: 0, owned_by: 'test' }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody(CUT, { model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: CUT }, finish_reason: 'length' }] }));
    });
    try {
      const problems = smallProblems(1);
      const run = path.join(dir, strategy);
      const args = ['--strategy', strategy, '--input-file', await writeProblems(dir, problems), '--output-file', run, '--base-url', server.url, '--model-name', 'm'];
      const outcome = await runInProcess([...args, '--no-proof', '--no-stream', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0', '--parse-retries', '0']);
      expect(outcome.calls.failed).toBe(0);
      const lines = (await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { candidates: Array<{ answer: string | null }> });
      const answers = lines.flatMap((line) => line.candidates.map((candidate) => candidate.answer));
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.every((answer) => answer === null)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
