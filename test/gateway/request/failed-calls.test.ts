import type { Server } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startSimServer, type SimServer } from '../../../src/sim/server.ts';
import { replayInProcess, runCliInProcess, runInProcess, smallProblems, startProxy, test, writeProblems } from '../../fixtures.ts';

/**
 * A proxy in front of the simulator whose `refuse` decides, per chat call
 * (counted from 1), to answer with an error status instead. GET /v1/models
 * always answers, as a server with a revoked key or a failing model still
 * lists its models.
 */
async function startRefusingProxy(target: string, refuse: { current: (call: number, body: string) => number | null }): Promise<{ url: string; server: Server }> {
  let calls = 0;
  return startProxy(target, (url, body, res) => {
    const status = url.endsWith('/chat/completions') ? refuse.current(++calls, body) : null;
    if (status === null) return false;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: status === 401 ? 'Incorrect API key provided' : 'refused by the test proxy', type: 'error', code: null } }));
    return true;
  });
}

const PROBLEMS = smallProblems(2);
let sim: SimServer;

beforeAll(async () => {
  sim = await startSimServer({ problems: PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 3 });
});
afterAll(async () => {
  await sim.close();
});

const SMALL = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--model-name', 'tmas-sim', '--max-retries', '0', '--retry-base-ms', '1'];

interface ResultLine {
  problem: string;
  iteration: number;
  candidates: Array<{ failures: string[] }>;
}

async function results(run: string): Promise<ResultLine[]> {
  const text = await readFile(path.join(run, 'results.jsonl'), 'utf8');
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as ResultLine);
}

async function failuresInMetrics(run: string): Promise<number> {
  const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { iterations: Array<{ failures: number }> };
  return metrics.iterations.reduce((sum, iteration) => sum + iteration.failures, 0);
}

describe('a failed call is never a result', () => {
  test('a key revoked mid-run (401 while /v1/models answers) stops the run at once with exit 2 naming role, endpoint and key; a resume with a good key completes, and results, metrics and replay agree with an uninterrupted run', async ({ dir }) => {
    const problems = await writeProblems(dir, PROBLEMS);
    const refuse = { current: (call: number): number | null => (call > 6 ? 401 : null) };
    const proxy = await startRefusingProxy(sim.url, refuse);
    try {
      const run = path.join(dir, 'run');
      const stopped = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, '--base-url', proxy.url, ...SMALL]);
      expect(stopped.code, stopped.stderr).toBe(2);
      expect(stopped.stderr).toMatch(/\[TMAS_AUTH\]/);
      expect(stopped.stderr).toMatch(/of (the \w+ agent|the LLM judge) refused its API key/);
      expect(stopped.stderr).toContain(proxy.url);
      expect(stopped.stderr).toMatch(/--(\w+-)?api-key/);
      expect(stopped.stderr).toMatch(/OPENAI_API_KEY/);
      expect(stopped.stderr).toContain(`tmas run --resume ${run}`);
      for (const line of await results(run)) for (const candidate of line.candidates) expect(candidate.failures).toEqual([]);

      refuse.current = () => null;
      const resumed = await runCliInProcess(['run', '--resume', run]);
      expect(resumed.code, resumed.stderr).toBe(0);
      const fresh = path.join(dir, 'fresh');
      await runInProcess(['--input-file', problems, '--output-file', fresh, '--base-url', proxy.url, ...SMALL]);
      expect(await readFile(path.join(run, 'results.jsonl'), 'utf8')).toBe(await readFile(path.join(fresh, 'results.jsonl'), 'utf8'));
      expect(await failuresInMetrics(run)).toBe(0);
      expect((await replayInProcess(run)).identical).toBe(true);
    } finally {
      proxy.server.close();
    }
  });

  test('calls that fail for good leave their iteration unmarked: the run exits 3 saying how many and where, and a resume issues them again; metrics and replay agree', async ({ dir }) => {
    const problems = await writeProblems(dir, PROBLEMS);
    // Every call about the second problem is refused (a 400 the gateway does not retry).
    const refuse = { current: (_call: number, body: string): number | null => (body.includes(PROBLEMS[1]?.question ?? '?') ? 400 : null) };
    const proxy = await startRefusingProxy(sim.url, refuse);
    try {
      const run = path.join(dir, 'run');
      const ended = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, '--base-url', proxy.url, ...SMALL]);
      expect(ended.code, ended.stderr).toBe(3);
      expect(ended.stderr).toMatch(/\[TMAS_RUN_INCOMPLETE\]/);
      expect(ended.stderr).toMatch(/\d+ calls failed for good, in 1 problems: p2 at iteration 0/);
      const lines = await results(run);
      expect(lines.map((line) => line.problem)).toEqual(['p1', 'p1']);
      const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { incomplete: Array<{ problem: string; iteration: number }> };
      expect(metrics.incomplete.map((entry) => [entry.problem, entry.iteration])).toEqual([['p2', 0]]);

      refuse.current = () => null;
      const resumed = await runCliInProcess(['run', '--resume', run]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect((await results(run)).map((line) => `${line.problem}/${line.iteration}`)).toEqual(['p1/0', 'p1/1', 'p2/0', 'p2/1']);
      expect(await failuresInMetrics(run)).toBe(0);
      expect((await replayInProcess(run)).identical).toBe(true);
    } finally {
      proxy.server.close();
    }
  });

  test('a majority run whose second problem failed at T = 2, then finished by a resume that extended it to T = 3, replays as identical: each problem is replayed to the target it first reached its end under', async ({ dir }) => {
    const problems = await writeProblems(dir, PROBLEMS);
    const refuse = { current: (_call: number, body: string): number | null => (body.includes(PROBLEMS[1]?.question ?? '?') ? 400 : null) };
    const proxy = await startRefusingProxy(sim.url, refuse);
    try {
      const run = path.join(dir, 'run');
      const ended = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, '--base-url', proxy.url, '--strategy', 'majority', '--samples', '4', '--judge-passes', '1', ...SMALL.slice(0, 1), ...SMALL.slice(5)]);
      expect(ended.code, ended.stderr).toBe(3);
      refuse.current = () => null;
      const resumed = await runCliInProcess(['run', '--resume', run, '--max-iterations', '3']);
      expect(resumed.code, resumed.stderr).toBe(0);
      // p1 ran to T = 2 and was extended; p2 first ran under T = 3, its samples judged where T = 3 first shows them.
      const report = await replayInProcess(run);
      expect(report.misses).toEqual([]);
      expect(report.identical).toBe(true);
    } finally {
      proxy.server.close();
    }
  });

  test("a judge pass that failed for good is asked again on resume: metrics.json's iteration figures are the ones results.jsonl and its problems hold, not the first save's", async ({ dir }) => {
    const problems = await writeProblems(dir, PROBLEMS);
    // The judge's calls about the second problem are refused (a 400): it completes ungraded, and a resume asks them again.
    const refuse = { current: (_call: number, body: string): number | null => (body.includes('Judge agent') && body.includes(PROBLEMS[1]?.question ?? '?') ? 400 : null) };
    const proxy = await startRefusingProxy(sim.url, refuse);
    try {
      const run = path.join(dir, 'run');
      const args = ['--input-file', problems, '--output-file', run, '--base-url', proxy.url, '--strategy', 'majority', '--samples', '2', '--judge-passes', '1', ...SMALL, '--max-iterations', '1'];
      await runInProcess(args);
      type Metrics = { iterations: Array<{ iteration: number; graded: number; pass1: number | null; oracle: number | null }>; problems: Array<{ problem: string; iterations: Array<{ iteration: number; pass1: number | null }> }> };
      const read = async () => JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as Metrics;
      expect((await read()).iterations.map((it) => it.graded)).toEqual([1]);
      refuse.current = () => null;
      const resumed = await runCliInProcess(['run', '--resume', run]);
      expect(resumed.code, resumed.stderr).toBe(0);
      const metrics = await read();
      for (const it of metrics.iterations) {
        const perProblem = metrics.problems.flatMap((problem) => problem.iterations.filter((row) => row.iteration === it.iteration && row.pass1 !== null).map((row) => row.pass1 as number));
        expect(it.graded).toBe(2);
        expect(it.pass1).toBeCloseTo(perProblem.reduce((a, b) => a + b, 0) / perProblem.length, 12);
      }
    } finally {
      proxy.server.close();
    }
  });

  test('an endpoint that goes down mid-run: after the stop and a good resume, metrics count no failure and replay is identical', async ({ dir }) => {
    const problems = await writeProblems(dir, PROBLEMS);
    const refuse = { current: (call: number): number | null => (call > 10 ? 503 : null) };
    const proxy = await startRefusingProxy(sim.url, refuse);
    try {
      const run = path.join(dir, 'run');
      const down = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, '--base-url', proxy.url, ...SMALL]);
      // Whether the endpoint is declared down (3 failures in a row) before every problem has stopped on a failed call
      // depends on timing; either way the run stops unfinished, and what follows must hold.
      expect([2, 3], down.stderr).toContain(down.code);
      expect(down.stderr).toMatch(/\[TMAS_ENDPOINT_DOWN\]|\[TMAS_RUN_INCOMPLETE\]/);
      refuse.current = () => null;
      const resumed = await runCliInProcess(['run', '--resume', run]);
      expect(resumed.code, resumed.stderr).toBe(0);
      for (const line of await results(run)) for (const candidate of line.candidates) expect(candidate.failures).toEqual([]);
      expect(await failuresInMetrics(run)).toBe(0);
      expect((await replayInProcess(run)).identical).toBe(true);
    } finally {
      proxy.server.close();
    }
  });

  test('a question that cannot fit the window is never sent: a warning at start, and each candidate records TMAS_CONTEXT_LENGTH', async ({ dir }) => {
    const huge = `Compute the sum of these numbers: ${Array.from({ length: 3000 }, (_, i) => `${i * 7919 % 10007}`).join(' + ')}.`;
    const problems = await writeProblems(dir, [PROBLEMS[0] as (typeof PROBLEMS)[number], { problem_id: 'huge', question: huge, answer: '1' }]);
    let sentHuge = 0;
    const refuse = {
      current: (_call: number, body: string): number | null => {
        if (body.includes('Compute the sum of these numbers')) sentHuge++;
        return null;
      },
    };
    const proxy = await startRefusingProxy(sim.url, refuse);
    try {
      const run = path.join(dir, 'run');
      const done = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, '--base-url', proxy.url, ...SMALL, '--max-tokens', '2048']);
      expect(done.code, done.stderr).toBe(0);
      expect(done.stderr).toMatch(/warning: 1 question\(s\) cannot fit the prompt budget of \d+ tokens \(--max-tokens 2048\) even alone: huge \(\d+ tokens\)/);
      expect(sentHuge).toBe(0);
      const lines = (await results(run)).filter((line) => line.problem === 'huge');
      expect(lines).toHaveLength(2);
      for (const line of lines) for (const candidate of line.candidates) expect(candidate.failures.join(' ')).toMatch(/TMAS_CONTEXT_LENGTH: not sent: the prompt needs \d+ tokens/);
      // When no question fits, the run would send nothing and score 0: it is refused before its directory is made.
      await mkdir(path.join(dir, 'alone'));
      const alone = await writeProblems(path.join(dir, 'alone'), [{ problem_id: 'huge', question: huge, answer: '1' }]);
      const refused = await runCliInProcess(['run', '--input-file', alone, '--output-file', path.join(dir, 'none'), '--base-url', proxy.url, ...SMALL, '--max-tokens', '2048']);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(/None of the 1 questions fits the prompt budget of \d+ tokens \(--max-tokens 2048\) even alone .*\[TMAS_CONTEXT_LENGTH\]/);
      expect(existsSync(path.join(dir, 'none'))).toBe(false);
      expect(sentHuge).toBe(0);
    } finally {
      proxy.server.close();
    }
  });

  interface RunMetrics {
    calls: { issued: number; reused: number; failed: number };
    totals: { failures: number; retries: number | null };
    gateway: { failures: number; retries: number; retriesByCause: Record<string, number> };
  }
  const metricsOf = async (run: string) => JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as RunMetrics;

  test('a run in which every call fails (a server that answers 500): metrics.json totals.failures counts them as gateway.failures does, and the closing line says so', async ({ dir }) => {
    // One problem, two candidates: both fail, and the endpoint is not yet down (three in a row).
    const problems = await writeProblems(dir, PROBLEMS.slice(0, 1));
    const refuse = { current: (): number | null => 500 };
    const proxy = await startRefusingProxy(sim.url, refuse);
    try {
      const run = path.join(dir, 'run');
      const ended = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, '--base-url', proxy.url, ...SMALL]);
      expect(ended.code, ended.stderr).toBe(3);
      expect(ended.stdout).toMatch(/^0 calls issued and answered, 2 failed for good, 0 answered from the journal, in [\d.]+ s\.$/m);
      const metrics = await metricsOf(run);
      expect(metrics.gateway.failures).toBe(2);
      expect(metrics.totals.failures).toBe(2);
      expect(metrics.calls).toEqual({ issued: 0, reused: 0, failed: 2 });

      // Two problems: the third failure in a row declares the endpoint down and stops the run at once, its own failure not yet logged.
      await mkdir(path.join(dir, 'both'));
      const both = await writeProblems(path.join(dir, 'both'), PROBLEMS);
      const downRun = path.join(dir, 'down');
      const down = await runCliInProcess(['run', '--input-file', both, '--output-file', downRun, '--base-url', proxy.url, ...SMALL]);
      expect([2, 3], down.stderr).toContain(down.code);
      const downMetrics = await metricsOf(downRun);
      expect(downMetrics.totals.failures).toBe(downMetrics.gateway.failures);
      expect(downMetrics.totals.failures).toBeGreaterThan(0);
    } finally {
      proxy.server.close();
    }
  });

  test("a resume that issues no call keeps the run's gateway counters in metrics.json, not its own zeros", async ({ dir }) => {
    const problems = await writeProblems(dir, PROBLEMS);
    // Two 503s on the way, which the gateway retries: counters a user reads afterwards.
    const refuse = { current: (call: number): number | null => (call === 3 || call === 7 ? 503 : null) };
    const proxy = await startRefusingProxy(sim.url, refuse);
    try {
      const run = path.join(dir, 'run');
      const done = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, '--base-url', proxy.url, ...SMALL.filter((flag, i, all) => flag !== '--max-retries' && all[i - 1] !== '--max-retries')]);
      expect(done.code, done.stderr).toBe(0);
      const before = await metricsOf(run);
      expect(before.gateway.retries).toBe(2);
      const resumed = await runCliInProcess(['run', '--resume', run]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/^0 calls issued, 0 answered from the journal/m);
      const after = await metricsOf(run);
      expect(after.gateway).toEqual(before.gateway);
      expect(after.totals.retries).toBe(2);
    } finally {
      proxy.server.close();
    }
  });
});
