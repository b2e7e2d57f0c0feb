/**
 * One grading for every strategy: with a judge named, each
 * strategy's Pass@1 is the judge's and says so; without one, it is the rule
 * grade and says so; a judge that fails on one problem lowers that
 * iteration's coverage and leaves Pass@1 computed over the candidates it
 * judged, never a substitute grade.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { STRATEGIES } from '../../machines/strategies/index.ts';
import type { IterationMetrics } from '../../src/observers/metrics.ts';
import { formatIterationTable } from '../../src/observers/table.ts';
import { chatCompletionBody, runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';
import { readResults } from '../../src/store/results-line.ts';

const SMALL = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--samples', '4'];

async function outputs(dir: string) {
  const metrics = JSON.parse(await readFile(path.join(dir, 'metrics.json'), 'utf8')) as { iterations: IterationMetrics[] };
  const results = await readResults(path.join(dir, 'results.jsonl'));
  return { metrics: metrics.iterations, results };
}

/** A judge endpoint of our own (whole replies: the run uses --no-stream): says "equivalent" to everything, except that calls about `failing` get a 400 (refused for good). */
async function startJudge(failing: string, reply = 'The forms agree.\nVERDICT: equivalent'): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/models')) return res.end(JSON.stringify({ object: 'list', data: [{ id: 'judge-model', object: 'model', owned_by: 'test' }] }));
      if (body.includes(failing)) {
        res.statusCode = 400;
        return res.end(JSON.stringify({ error: { message: 'this judge refuses the problem', type: 'invalid_request_error' } }));
      }
      res.end(chatCompletionBody(reply, { model: 'judge-model' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('shared grading', () => {
  let judge: { close: () => Promise<void> } | null = null;
  afterEach(async () => {
    await judge?.close();
    judge = null;
  });

  test.for(Object.keys(STRATEGIES))('%s: Pass@1 is the judge\'s when a judge is named, the rule grade otherwise, and each says which', async (strategy, { dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const flags = SMALL.filter((_, i, all) => strategy === 'majority' || (all[i] !== '--samples' && all[i - 1] !== '--samples'));
    await runInProcess(['--input-file', input, '--output-file', path.join(dir, 'rule'), '--strategy', strategy, ...flags]);
    const rule = await outputs(path.join(dir, 'rule'));
    for (const it of rule.metrics) {
      expect(it.grade).toBe('rule');
      expect(it.pass1).toBe(it.pass1Rule);
      expect(it.judgeCoverage).toBeNull();
    }
    expect(rule.results.every((line) => line.candidates.every((c) => c.judge === null))).toBe(true);
    expect(formatIterationTable(rule.metrics, { simulated: true })).toMatch(/Pass@1 is the rule-based grade: no LLM judge ran/);

    await runInProcess(['--input-file', input, '--output-file', path.join(dir, 'judged'), '--strategy', strategy, '--judge-model-name', 'tmas-sim', ...flags]);
    const judged = await outputs(path.join(dir, 'judged'));
    for (const it of judged.metrics) {
      expect(it.grade).toBe('judge');
      expect(it.pass1).toBe(it.pass1Judge);
      expect(it.judgeCoverage).toBe(1);
    }
    // Four passes by default once a judge is named.
    expect(judged.results.every((line) => line.candidates.every((c) => c.judge?.verdicts.length === 4))).toBe(true);
  });

  test('a judge that fails on one problem: coverage drops, and Pass@1 is over the judged candidates only', async ({ dir }) => {
    const problems = smallProblems(2);
    const input = await writeProblems(dir, problems);
    const server = await startJudge(problems[0]?.question ?? '');
    judge = server;
    const output = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', output, '--strategy', 'majority', '--samples', '4', '--no-proof', '--max-iterations', '1', '--judge-base-url', server.url, '--judge-model-name', 'judge-model', '--max-retries', '0', '--no-stream']);
    const { metrics, results } = await outputs(output);
    const [it] = metrics;
    const failed = results.find((line) => line.problem === 'p1');
    const fine = results.find((line) => line.problem === 'p2');
    // p1's candidates have no verdict at all; p2's are all "equivalent".
    expect(failed?.candidates.every((c) => c.correctJudge === null)).toBe(true);
    expect(fine?.candidates.every((c) => c.correctJudge === 1)).toBe(true);
    expect(it?.judgeCoverage).toBe(0.5);
    // Pass@1 over the judged candidates: p2's 100%, not the mean with p1's rule grade or a 0.
    expect(it?.grade).toBe('judge');
    expect(it?.pass1).toBe(1);
    expect(it?.graded).toBe(1);
    expect(formatIterationTable(metrics, { simulated: false })).toMatch(/100\.0% \(50\.0% judged\)/);
  });

  test('a judge that ran and gave no verdict at all is said to have run: the table does not tell the user to name one', async ({ dir }) => {
    // Every problem's judge calls refused: a reasoning judge cut in its thinking at --judge-max-tokens leaves the same table.
    const problems = smallProblems(2);
    const server = await startJudge('');
    judge = server;
    const output = path.join(dir, 'run');
    await runInProcess(['--input-file', await writeProblems(dir, problems), '--output-file', output, '--strategy', 'majority', '--samples', '2', '--no-proof', '--max-iterations', '1', '--judge-base-url', server.url, '--judge-model-name', 'judge-model', '--judge-passes', '1', '--max-retries', '0', '--no-stream']);
    const { metrics } = await outputs(output);
    expect(metrics[0]?.judgeCoverage).toBe(0);
    const table = formatIterationTable(metrics, { simulated: true });
    // Before: 'Pass@1' over '- (0.0% judged)' and 'Pass@1 is the rule-based grade: no LLM judge ran (name one with --judge-base-url …)'.
    expect(table).not.toMatch(/no LLM judge ran/);
    expect(table).toMatch(/Pass@1 judge/);
    expect(table).toMatch(/The LLM judge ran but gave no verdict/);
    expect(formatIterationTable(metrics, { simulated: true, wide: true })).toMatch(/Pass@1 rule/);
  });

  test('tmas run whose judge states its verdicts in prose only ends at 3, its outputs written: no Pass@1 is not an accuracy of 0', async ({ dir }) => {
    const server = await startJudge('\u0000never', 'Both give 42, so the candidate is equivalent to the reference.');
    judge = server;
    const output = path.join(dir, 'run');
    const args = ['run', '--input-file', await writeProblems(dir, smallProblems(2)), '--output-file', output, '--strategy', 'majority', '--samples', '2', '--no-proof', '--max-iterations', '1'];
    const result = await runCliInProcess([...args, '--judge-base-url', server.url, '--judge-model-name', 'judge-model', '--judge-passes', '1', '--parse-retries', '0', '--no-stream']);
    expect(result.code, result.stderr).toBe(3);
    const error = result.stderr.trimEnd().split('\n').at(-1) ?? '';
    expect(error).toMatch(/^tmas: The run finished, but the LLM judge gave no verdict on any candidate \(4 of 4 of its replies unusable, e\.g\. "no \\"VERDICT: equivalent\\"/);
    expect(error).toContain(`tmas calls ${output} --role judge`);
    expect(error).toMatch(/tmas fork .* --output-file NEW .*\[TMAS_RUN_UNGRADED\]$/);
    const { metrics } = await outputs(output);
    expect(metrics[0]?.graded).toBe(0);
  });
});
