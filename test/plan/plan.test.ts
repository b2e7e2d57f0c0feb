/**
 * `tmas plan`: its forecast of calls against what real runs (on the embedded
 * simulator) made, role by role; `--check` on a finished run; the what-if
 * replay of a finished run under other servers and schedules; and its usage
 * errors. The makespan's accuracy against a capacity-model run is measured by
 * the `plan` benchmark (bench/runs/plan.bench.ts), not here.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import path from 'node:path';
import OpenAI from 'openai';
import { describe, expect } from 'vitest';
import { tmasStrategy } from '../../machines/strategies/index.ts';
import { buildCallGraph } from '../../src/plan/call-graph.ts';
import { drawnLengths } from '../../src/plan/lengths.ts';
import { startSimServer } from '../../src/sim/server.ts';
import { acquireRunLock } from '../../src/store/run-lock.ts';
import { readJournal, runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

/** The loop flags of each strategy's small run; the plan gets the same. */
const RUNS: Record<string, string[]> = {
  tmas: ['--max-iterations', '2', '--n-candidates', '3', '--n-verifications', '2'],
  majority: ['--samples', '6'],
  pacore: ['--max-iterations', '3', '--round-widths', '3,2'],
  'self-refine': ['--max-iterations', '3', '--n-candidates', '3'],
  rse: ['--max-iterations', '2', '--n-candidates', '3'],
};

/**
 * The examples of docs/guide/plan.md that need no finished run and no table (a table's plan costs seconds of CPU):
 * each block opening with `$ tmas plan --input-file problems-8.jsonl`, its command and the lines it shows ("…"
 * stands for lines left out).
 */
async function planPageExamples(): Promise<Array<{ args: string[]; shown: string[] }>> {
  const page = await readFile(path.join(import.meta.dirname, '..', '..', 'docs', 'guide', 'plan.md'), 'utf8');
  return [...page.matchAll(/^```\n\$ tmas (plan --input-file problems-8\.jsonl [^\n]*)\n([\s\S]*?)^```/gm)]
    .filter((match) => !(match[1] as string).includes('--strategies'))
    .map((match) => ({ args: (match[1] as string).split(' '), shown: (match[2] as string).trimEnd().split('\n') }));
}

/** Whether `printed` shows `shown` as the page does: every run of lines between two "…" appears in it, in order. */
function showsAsThePage(printed: string[], shown: string[]): boolean {
  const runs = shown.join('\n').split(/^…$/m).map((run) => run.replace(/^\n|\n$/g, ''));
  if (runs.length === 1) return printed.join('\n') === runs[0];
  let from = 0;
  for (const run of runs) {
    const at = printed.join('\n').indexOf(run, from);
    if (at === -1) return false;
    from = at + run.length;
  }
  return true;
}

/** Calls by role of a finished run's journal. */
async function journaledCalls(outputDir: string): Promise<Record<string, number>> {
  const calls: Record<string, number> = {};
  for (const call of await readJournal(outputDir)) calls[call.role] = (calls[call.role] ?? 0) + 1;
  return calls;
}

/** Runs `tmas plan` with `args` and --json; the parsed object. */
async function plan(args: string[]): Promise<Record<string, unknown>> {
  const result = await runCliInProcess(['plan', ...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** A small run of `strategy` on the problems in `input`, into dir/<strategy>; its output directory. */
async function smallRun(dir: string, strategy: string, input: string): Promise<string> {
  const output = path.join(dir, strategy);
  await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--strategy', strategy, '--concurrency', '16', '--sim-output-tokens', '60', ...(RUNS[strategy] as string[])]);
  return output;
}

describe('tmas plan', () => {
  test('forecasts exactly the calls, role by role, that runs of tmas, majority and pacore make', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(3));
    await Promise.all(
      ['tmas', 'majority', 'pacore'].map(async (strategy) => {
        const [output, forecast] = await Promise.all([smallRun(dir, strategy, input), plan(['--input-file', input, '--no-proof', '--strategy', strategy, ...(RUNS[strategy] as string[]), '--draws', '1'])]);
        expect(forecast.calls, strategy).toEqual(await journaledCalls(output));
        expect(forecast.callsAre, strategy).toBe('exact');
        expect(forecast.makespanSeconds, strategy).toBeGreaterThan(0);
        expect(forecast.gpuHours, strategy).toBeGreaterThan(0);
        expect(forecast.outputTokens, strategy).toBeGreaterThan(0);
      }),
    );
  });

  test('refuses a loop flag the strategy does not read: N to majority would be forecast as its 64 samples', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const refused = await runCliInProcess(['plan', '--input-file', input, '--no-proof', '--strategy', 'majority', '--n-candidates', '4']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^tmas: --n-candidates: the majority strategy does not read it.*its own are --samples, --vote-pool.*\[TMAS_USAGE\]$/m);
    expect(refused.stdout).toBe('');
  });

  // Self-Refine stops a candidate early; rse asks a distillation again while its reply is not valid JSON, up to six attempts per rollout.
  const bounded: Array<{ strategy: string; roles: string[]; calls: Record<string, number> }> = [
    { strategy: 'self-refine', roles: ['critique', 'rewrite'], calls: { solution: 9, critique: 18, rewrite: 18 } },
    { strategy: 'rse', roles: ['distill'], calls: { rollout: 18, distill: 18 * 6 } },
  ];
  for (const { strategy, roles, calls } of bounded) test(`says the calls of ${strategy}, whose replies decide how many some roles make, are an upper bound, and the run stays under it`, async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(3));
    const flags = ['--input-file', input, '--no-proof', '--strategy', strategy, ...(RUNS[strategy] as string[]), '--draws', '1'];
    const [output, forecast, text] = await Promise.all([smallRun(dir, strategy, input), plan(flags), runCliInProcess(['plan', ...flags])]);
    expect(forecast.callsAre).toBe('upper bound');
    expect(forecast.bounded).toEqual(roles);
    expect(forecast.calls).toEqual(calls);
    for (const [role, made] of Object.entries(await journaledCalls(output))) expect(made, role).toBeLessThanOrEqual(calls[role] ?? 0);
    // "calls (exact)" said nothing of the calls an unusable output is asked again with: the label says what it counts.
    expect(text.stdout).toContain(`calls (upper bound: ${roles.join(', ')} can make fewer; counted one per output used: an output a role cannot use is asked again, up to 2 times (--parse-retries), each a call more)`);
    const exact = await runCliInProcess(['plan', '--input-file', input, '--no-proof', '--max-iterations', '1', '--draws', '1', '--parse-retries', '0']);
    expect(exact.stdout).toMatch(/^calls \(exact\)$/m);
  });

  // The judge grades every method's candidates; a method that does not count its own judge calls had them left out of the plan.
  test.for(['majority', 'self-refine', 'pacore', 'mas-ceo'])('counts the judge calls of %s as a bound that its run stays under', async (strategy, { dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const flags = ['--input-file', input, '--no-proof', '--strategy', strategy, ...(RUNS[strategy] ?? ['--max-iterations', '2']), '--judge-passes', '2'];
    const output = path.join(dir, strategy);
    await runInProcess([...flags, '--output-file', output, '--concurrency', '16', '--sim-output-tokens', '60']);
    const forecast = await plan([...flags, '--draws', '1']);
    expect(forecast.uncounted).toEqual([]);
    expect(forecast.bounded).toContain('judge');
    const judged = (await journaledCalls(output)).judge ?? 0;
    expect(judged).toBeGreaterThan(0);
    expect(judged).toBeLessThanOrEqual((forecast.calls as Record<string, number>).judge ?? 0);
  });

  test('--check sets the forecast from a run\'s own settings beside what it did; --lengths-from takes its lengths; --from replays it under other servers and schedules', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(3));
    const output = await smallRun(dir, 'tmas', input);
    const journal = await readJournal(output);
    // A server slow enough that the run's calls queue on it: four replicas take a quarter of the time, a barrier per phase longer.
    const server = ['--decode-tokens-per-second', '200', '--sequence-tokens-per-second', '50'];
    const [checked, resampled, one, four, barrier] = await Promise.all([
      plan(['--check', output, '--draws', '1']),
      plan(['--input-file', input, '--no-proof', ...(RUNS.tmas as string[]), '--draws', '1', '--lengths-from', output, '--price-per-million', '0.5,2']),
      plan(['--from', output, ...server]),
      plan(['--from', output, ...server, '--replicas', '4']),
      plan(['--from', output, ...server, '--replicas', '4', '--schedule', 'barrier']),
    ]);
    const { check } = checked as { check: { rows: Array<{ figure: string; forecast: number; actual: number }>; largest: Array<{ figure: string }> } };
    const rows = new Map(check.rows.map((row) => [row.figure, row]));
    expect(rows.get('calls')).toMatchObject({ forecast: journal.length, actual: journal.length });
    expect(rows.get('calls: verification')).toMatchObject({ forecast: 3 * 2 * 3 * 2, actual: 3 * 2 * 3 * 2 });
    expect(rows.get('output tokens')?.actual).toBe(journal.reduce((sum, call) => sum + call.usage.completionTokens, 0));
    // The simulator's replies are about 60 tokens, the forecast's thinking-length defaults 12,000: the largest difference is named.
    expect(check.largest.map((row) => row.figure)).toContain('output tokens');

    // Lengths taken from the run's journal instead of drawn: the output tokens lie within its shortest and longest call, times the calls; on an API, a cost instead of GPU-hours.
    const lengths = journal.map((call) => call.usage.completionTokens);
    const outputTokens = resampled.outputTokens as number;
    expect(outputTokens).toBeGreaterThanOrEqual(Math.min(...lengths) * journal.length);
    expect(outputTokens).toBeLessThanOrEqual(Math.max(...lengths) * journal.length);
    expect(resampled.gpuHours).toBeNull();
    expect(resampled.cost).toBeCloseTo(((resampled.promptTokens as number) * 0.5 + outputTokens * 2) / 1e6, 9);

    expect(one.decodedTokens).toBe(journal.reduce((sum, call) => sum + call.usage.completionTokens, 0));
    expect(one.schedule).toBe('pipelined');
    expect(four.makespanSeconds as number).toBeLessThan((one.makespanSeconds as number) / 2);
    expect(barrier.makespanSeconds as number).toBeGreaterThan(four.makespanSeconds as number);
  });

  test('--check of a run whose replies broke their format: the calls asked again are a row of their own, and every role stays within its bound', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const output = path.join(dir, 'broken');
    await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--n-candidates', '3', '--n-verifications', '2', '--max-iterations', '1', '--judge-passes', '1', '--sim-break-formats', '0.5', '--completion-max-tokens', '1500', '--judge-max-tokens', '1500']);
    const journal = await readJournal(output);
    const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8')) as { iterations: Array<{ outputsByRole: Record<string, { retried: number }> }> };
    const retried = metrics.iterations.flatMap((it) => Object.values(it.outputsByRole)).reduce((sum, role) => sum + role.retried, 0);
    expect(retried).toBeGreaterThan(0);
    const { check } = (await plan(['--check', output, '--draws', '1'])) as { check: { rows: Array<{ figure: string; forecast: number; actual: number }> } };
    const rows = new Map(check.rows.map((row) => [row.figure, row]));
    expect(rows.get('calls asked again')).toMatchObject({ forecast: 0, actual: retried });
    expect((rows.get('calls')?.actual ?? 0) + retried).toBe(journal.length);
    // Cut solutions are not verified, so the run may make fewer calls than the forecast, never more.
    for (const row of check.rows.filter((r) => r.figure.startsWith('calls: '))) expect(row.actual, row.figure).toBeLessThanOrEqual(row.forecast);
  });

  test('refuses --check and --from on a run still being written, which would compare or replay only part of it; --lengths-from takes what it has', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const output = await smallRun(dir, 'majority', input);
    // The run's own lock, held by a live process (this one), as a running tmas holds it.
    const release = await acquireRunLock(output);
    try {
      const [checked, replayed, lengths] = await Promise.all([
        runCliInProcess(['plan', '--check', output]),
        runCliInProcess(['plan', '--from', output]),
        runCliInProcess(['plan', '--input-file', input, '--no-proof', '--strategy', 'majority', '--samples', '6', '--lengths-from', output, '--draws', '1']),
      ]);
      for (const [result, flag] of [[checked, '--check'], [replayed, '--from']] as const) {
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(`${output} is still being written by a tmas run (pid ${process.pid}`);
        expect(result.stderr).toContain(`${flag} would read only the calls journaled so far`);
        expect(result.stderr).toContain('[TMAS_LOCKED]');
      }
      expect(lengths.code).toBe(0);
    } finally {
      await release();
    }
    // Finished, it is checked; a run that decoded faster than the servers described (1 token/s here) is said not to measure them.
    const checkAt = (rate: string) => runCliInProcess(['plan', '--check', output, '--draws', '1', '--decode-tokens-per-second', rate, '--sequence-tokens-per-second', rate]);
    const [slow, fast] = await Promise.all([checkAt('1'), checkAt('1000000000')]);
    expect(slow.code).toBe(0);
    expect(slow.stdout).toContain('utilization over 100%: the run decoded faster than the servers described here');
    expect(slow.stdout).toContain('it ran on the simulated model');
    expect(fast.stdout).not.toContain('utilization over 100%');
  });

  test('refuses --check with --from, a directory that holds no run, and run settings the mode would ignore, with exit 2', async ({ dir }) => {
    const [both, none, checkConcurrency, fromIterations] = await Promise.all([
      runCliInProcess(['plan', '--check', dir, '--from', dir]),
      runCliInProcess(['plan', '--check', dir]),
      runCliInProcess(['plan', '--check', dir, '--concurrency', '64', '--routing', 'least-loaded']),
      runCliInProcess(['plan', '--from', dir, '--max-iterations', '3', '--concurrency', '64']),
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('[TMAS_USAGE]');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('[TMAS_RUN_DIR]');
    expect(checkConcurrency.code).toBe(2);
    expect(checkConcurrency.stderr).toContain('--check reads the run\'s settings from its directory, so --concurrency, --routing would be ignored');
    // --from takes --concurrency (where the calls go), not --max-iterations (what the calls are).
    expect(fromIterations.code).toBe(2);
    expect(fromIterations.stderr).toContain('[TMAS_USAGE]');
    expect(fromIterations.stderr).toContain('so --max-iterations would be ignored');
    expect(fromIterations.stderr).not.toContain('--concurrency would');
  });

  // The page's worked example printed no pooled bound and no bound-by line after tmas plan had printed both for a
  // while, and its --from example none of the lines a replay now prints: a reader following it saw other output.
  test("the plan page's examples print what the page shows, on the demo's first eight problems", async ({ dir }) => {
    const demo = await readFile(path.join(import.meta.dirname, '..', '..', 'problems', 'demo.jsonl'), 'utf8');
    const input = path.join(dir, 'problems-8.jsonl');
    await writeFile(input, `${demo.split('\n').slice(0, 8).join('\n')}\n`);
    const examples = await planPageExamples();
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const { args, shown } of examples) {
      const printed = await runCliInProcess(args.map((arg) => (arg === 'problems-8.jsonl' ? input : arg)));
      expect(printed.code).toBe(0);
      expect(showsAsThePage(printed.stdout.trimEnd().split('\n'), shown), `tmas ${args.join(' ')} printed:\n${printed.stdout}`).toBe(true);
    }
  });

  // A plan of 400 problems × 20 iterations × 8 × 8 (656,000 calls) peaked at 2.7 GB: every call of the graph, made as
  // { ...lengths, problem, … }, had a hidden class of its own in V8 (545 bytes a call held), and its list of the calls
  // waiting on it an array with room for 17.
  test("a plan's call graph holds each call in under 350 bytes", () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const lengths = drawnLengths({ median: 12_000, p99: 60_000, problemSpread: 0, completionLimit: null, judgeLimit: 4096 });
    const roles = { solution: 8, verification: 64, summary: 8, experience: 1, guideline: 1 };
    const problems = Array.from({ length: 200 }, (_, problem) =>
      Array.from({ length: 2 }, (_, iteration) => ({
        iteration,
        roles: Object.entries(roles).map(([role, n]) => ({ role, calls: Array.from({ length: n }, (_, index) => lengths.lengthsOf({ draw: 0, problem, iteration, role, index })) })),
      })),
    );
    gc();
    const before = process.memoryUsage().heapUsed;
    const graph = buildCallGraph(problems, { stages: tmasStrategy.stages ?? {}, schedule: 'pipelined' });
    gc();
    const perCall = (process.memoryUsage().heapUsed - before) / graph.length;
    expect(graph).toHaveLength(200 * 2 * 82);
    expect(perCall).toBeLessThan(350);
  });

  test('refuses a KV cache that cannot hold one sequence of the window, naming both', async () => {
    const small = await runCliInProcess(['plan', '--demo', '--kv-tokens', '100000']);
    expect(small.code).toBe(2);
    expect(small.stderr).toContain('--kv-tokens 100000 cannot hold one sequence of the run\'s context window (131072 tokens, --max-tokens)');
    // Accepted under a window it holds: one draw of the lengths, where the default's several cost seconds to say the same.
    expect((await runCliInProcess(['plan', '--demo', '--kv-tokens', '100000', '--max-tokens', '65536', '--draws', '1'])).code).toBe(0);
  });

  test('--metrics-from reads a replica\'s throughput from its /metrics while it is busy, and refuses an idle one', async ({ dir }) => {
    const problem = { id: 'p1', question: 'What is 6 times 7?', answer: '42' };
    const sim = await startSimServer({ problems: [problem], capacity: { timeScale: 50, outputTokensMedian: 80_000, outputTokensP99: 100_000 } });
    try {
      const input = await writeProblems(dir, smallProblems(2));
      const flags = ['plan', '--input-file', input, '--no-proof', '--max-iterations', '1', '--draws', '1', '--metrics-from', sim.url, '--metrics-seconds', '1', '--time-scale', '50', '--json'];
      const idle = await runCliInProcess(flags);
      expect(idle.code).toBe(2);
      expect(idle.stderr).toContain('decoded nothing');
      // Sixteen long replies keep it decoding while tmas plan watches (each about 800 simulated s: 16 real s); they are stopped once it is done.
      const client = new OpenAI({ baseURL: sim.url, apiKey: 'sim', maxRetries: 0 });
      const controllers = Array.from({ length: 16 }, () => new AbortController());
      const load = controllers.map((controller, i) =>
        client.chat.completions.create({ model: 'tmas-sim', messages: [{ role: 'user', content: `${problem.question} (${i})` }], max_tokens: 500_000 }, { signal: controller.signal }).catch(() => null),
      );
      const busy = await runCliInProcess(flags);
      for (const controller of controllers) controller.abort();
      await Promise.all(load);
      expect(busy.code).toBe(0);
      // In the server's own seconds: sixteen sequences at its 100 tokens/s each (the watch may catch a few fewer).
      const [, decoded, running, each] = /decoded (\d+) tokens\/s with ([\d.]+) sequences running \((\d+) tokens\/s each\)/.exec(busy.stderr) ?? [];
      expect(Number(running)).toBeGreaterThan(8);
      expect(Number(each)).toBeGreaterThan(50);
      expect(Number(each)).toBeLessThan(200);
      expect(Number(decoded)).toBeGreaterThan(800);
      expect((JSON.parse(busy.stdout) as { makespanSeconds: number }).makespanSeconds).toBeGreaterThan(0);
    } finally {
      await sim.close();
    }
  });
});
