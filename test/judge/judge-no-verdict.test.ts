/**
 * A judge pass that gave no verdict keeps none in the later iterations that
 * carry its candidate. Before, it was asked again in each of them: majority's
 * samples, carried by every later iteration, got T chances at a verdict where
 * a method whose candidates are new each iteration got one, so its share
 * judged grew with --max-iterations (92.2% at T = 1, 96.9% at T = 3 on the
 * simulator at --sim-break-formats 0.3, the same 64 samples).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { readJournal, runCliInProcess, runInProcess, serveModel, test, writeProblems } from '../fixtures.ts';

/** A judge that gives no verdict the first time it reads a response, and one every time after. */
async function judgeOnSecondSight(): Promise<Awaited<ReturnType<typeof serveModel>>> {
  const seen = new Set<string>();
  return serveModel((body) => {
    const response = /<solution>([\s\S]*?)<\/solution>/.exec(JSON.parse(body).messages.at(-1).content as string)?.[1] ?? body;
    if (seen.has(response)) return 'The response concludes with 6.\nVERDICT: equivalent';
    seen.add(response);
    return 'I cannot tell what the response concludes.';
  });
}

interface Line {
  candidates: Array<{ judge?: { verdicts: Array<boolean | null> } }>;
}

interface Metrics {
  iterations: Array<{ judgeCoverage: number | null }>;
}

test("majority's share judged does not grow with --max-iterations: a pass without a verdict is not asked again, nor after a resume", async ({ dir }) => {
  // Each sample its own text (its seed), so each has its own judge request.
  const model = await serveModel((body) => `Multiplying, sample ${String(JSON.parse(body).seed)} finds \\boxed{6}.`);
  const input = await writeProblems(dir, [{ problem_id: 'p1', question: 'Compute 2 times 3.', answer: '6' }]);
  const run = async (name: string, iterations: number) => {
    const judge = await judgeOnSecondSight();
    const output = path.join(dir, name);
    const flags = ['--strategy', 'majority', '--samples', '3', '--judge-passes', '1', '--max-iterations', String(iterations)];
    try {
      await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--base-url', model.url, '--model-name', 'm', '--judge-base-url', judge.url, '--judge-model-name', 'm', ...flags]);
    } finally {
      await judge.close();
    }
    return output;
  };
  try {
    const once = await run('once', 1);
    const thrice = await run('thrice', 3);
    const coverage = async (output: string) => ((JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8')) as Metrics).iterations.at(-1)?.judgeCoverage ?? null);
    const judgeCalls = async (output: string) => (await readJournal(output)).filter((call) => call.role === 'judge').length;
    // The same three samples, each judged once, none with a verdict: at T = 1 and at T = 3 alike (before: 2 of 3 at T = 3, in 5 calls).
    expect(await coverage(once)).toBe(0);
    expect(await coverage(thrice)).toBe(0);
    expect(await judgeCalls(once)).toBe(3);
    expect(await judgeCalls(thrice)).toBe(3);

    // Run to 2 iterations and resumed to 3, before a judge that now gives a verdict every time: T = 3 cuts the
    // samples as 1, 2, 3, so sample 2, judged at iteration 1 before, comes at iteration 2 now; its pass, stored
    // without a verdict, is not asked again there either (before: asked again, a verdict the first run never had).
    const resumed = await run('resumed', 2);
    let asked = 0;
    const judge = await serveModel(() => {
      asked++;
      return 'The response concludes with 6.\nVERDICT: equivalent';
    });
    try {
      const ended = await runCliInProcess(['run', '--resume', resumed, '--max-iterations', '3', '--judge-base-url', judge.url]);
      expect(ended.stderr).toContain('TMAS_RUN_UNGRADED');
    } finally {
      await judge.close();
    }
    expect(asked).toBe(0);
    const lines = (await readFile(path.join(resumed, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Line);
    expect(lines.map((line) => line.candidates.map((candidate) => candidate.judge?.verdicts))).toEqual([[[null]], [[null], [null]], [[null], [null], [null]]]);
  } finally {
    await model.close();
  }
});
