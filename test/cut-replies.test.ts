/**
 * A reply cut at its completion limit has no final answer, in every method
 * alike: a server of our own answers every call with a text that boxes a
 * guess and is then cut (finish_reason "length"), and no method may count
 * the guess as its candidate's answer. Before, TMAS's solutions and PaCoRe's
 * syntheses had none while RSE's rollouts and Self-Refine's rewrites graded
 * the guess, so a model that fills its window moved the table by method.
 * A reply a hosted API's content filter stopped (finish_reason
 * "content_filter", OpenAI's and Azure's) is cut as well: before, its
 * partial text was graded as the candidate's answer, and nothing said so.
 * Nor does any role read what a cut reply stated on its way (a verdict, a
 * score, a decision, a plan): it had not finished.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { chatChunkEvent, chatCompletionBody, runCliInProcess, runInProcess, serveFixedReply, serveHttp, smallProblems, smallWidthFlags, test, writeProblems } from './fixtures.ts';
import { STRATEGIES } from '../machines/strategies/index.ts';

/** A reasoning model's text cut mid-check, after a boxed guess at the problem's answer. */
const CUT = 'A first guess is \\boxed{2}, which I should check before trusting it: the sum of';

/**
 * A reply that states, on its way, what every role reads (a verdict, a score,
 * a decision, a correctness, the no-error sentence, a summary, a plan and a
 * team), each a provisional line a reasoning model may go on to revise, and is
 * then cut at its length limit.
 */
const CUT_VERDICTS = [
  'SUMMARY: the steps check out so far.',
  'Experts: 3',
  'Direction: algebra',
  'Budget: 4000',
  'Expert 1: an algebraist.',
  'Expert 2: a number theorist.',
  'Expert 3: a combinatorialist.',
  'It is correct.',
  'Decision: agree',
  'Correctness: 1',
  'Advice: none.',
  'SCORE: 1',
  'VERDICT: equivalent',
  'On a second look the last step divides by',
].join('\n');

/** A server of model `m` that answers every call with CUT, ended by `finishReason`: a whole reply when cut at its length, a stream when filtered. */
function cuttingServer(finishReason: string) {
  return serveHttp((req, res) => {
    if (req.url?.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', created: 0, owned_by: 'test' }] }));
      return;
    }
    if (finishReason === 'content_filter') {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(chatChunkEvent({ role: 'assistant', content: CUT }, null, 'm') + chatChunkEvent({}, finishReason, 'm') + 'data: [DONE]\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody(CUT, { model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: CUT }, finish_reason: finishReason }] }));
  });
}

describe('a reply cut at its length limit, or stopped by a content filter, has no final answer', () => {
  test.for([
    ['tmas', 'length'],
    ['rse', 'length'],
    ['self-refine', 'length'],
    ['pacore', 'length'],
    ['tmas', 'content_filter'],
    ['rse', 'content_filter'],
    ['self-refine', 'content_filter'],
    ['pacore', 'content_filter'],
  ] as const)('%s, finish_reason "%s": no candidate takes the boxed guess of a cut reply', async ([strategy, finishReason], { dir }) => {
    const server = await cuttingServer(finishReason);
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

describe('a reply stopped by a content filter is told', () => {
  test('once on stderr, naming the endpoint; counted as filtered in metrics.json and unusable', async ({ dir }) => {
    const server = await cuttingServer('content_filter');
    try {
      const run = path.join(dir, 'run');
      const args = ['run', '--input-file', await writeProblems(dir, smallProblems(1)), '--output-file', run, '--base-url', server.url, '--model-name', 'm'];
      const ended = await runCliInProcess([...args, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--parse-retries', '1']);
      expect(ended.code, ended.stderr).toBe(0);
      const told = ended.stderr.split('\n').filter((line) => line.includes('finish_reason "content_filter"'));
      expect(told).toHaveLength(1);
      expect(told[0]).toContain(server.url);
      const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { iterations: Array<{ faults: { filtered: number; invalidOutputs: number } }> };
      // Two solutions, each asked again once: four filtered replies of the solver at least, none of them an answer.
      expect(metrics.iterations[0]?.faults.filtered).toBeGreaterThanOrEqual(4);
      expect(metrics.iterations[0]?.faults.invalidOutputs).toBeGreaterThanOrEqual(2);
    } finally {
      await server.close();
    }
  });
});

interface CutLine {
  candidates: Array<{ verification_scores?: Array<number | null>; summary_score?: number | null; judge?: { verdicts: Array<boolean | null> } }>;
}
interface CutMetrics {
  iterations: Array<{ outputsByRole: Record<string, { outputs: number; unusable: number }> }>;
}

describe('a reply cut at its length limit states no verdict, score or plan', () => {
  test.for(Object.keys(STRATEGIES).filter((name) => name !== 'verify-refine-chains'))(
    '%s: every cut reply is unusable, and none of what it stated is used',
    async (strategy, { dir }) => {
      const server = await serveFixedReply(CUT_VERDICTS, 'length');
      try {
        const run = path.join(dir, strategy);
        const args = ['--strategy', strategy, '--input-file', await writeProblems(dir, smallProblems(1)), '--output-file', run, '--base-url', server.url, '--model-name', 'm'];
        const outcome = await runInProcess([...args, ...smallWidthFlags(strategy), '--no-proof', '--no-stream', '--max-iterations', '2', '--judge-passes', '1', '--parse-retries', '0']);
        expect(outcome.calls.failed).toBe(0);
        const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as CutMetrics;
        const usable = metrics.iterations.flatMap((iteration) => Object.entries(iteration.outputsByRole).filter(([, counts]) => counts.unusable < counts.outputs).map(([role]) => role));
        expect(usable).toEqual([]);
        const lines = (await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as CutLine);
        const stated = lines.flatMap((line) => line.candidates.flatMap((c) => [...(c.verification_scores ?? []), c.summary_score ?? null, ...(c.judge?.verdicts ?? [])]));
        expect(stated.length).toBeGreaterThan(0);
        expect(stated.filter((value) => value !== null)).toEqual([]);
      } finally {
        await server.close();
      }
    },
  );
});
