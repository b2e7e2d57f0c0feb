/**
 * `tmas plan` on a pool of replicas: the simulated pool against its pooled
 * bound on a synthetic graph (1, 2 and 4 replicas, replicas of two speeds,
 * both routings, two runs at once); a whole table (`--strategies`) against
 * its methods alone; `--from` on a finished run of the embedded simulator
 * under other replica counts, and on a table's folder of runs; and the usage
 * errors of the pool's flags.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlannedCall } from '../../src/plan/call-graph.ts';
import { simulateRuns, type PlannedRun, type Servers } from '../../src/plan/simulate.ts';
import { resolveCapacity } from '../../src/sim/capacity/options.ts';
import { runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

/**
 * `problems` problems of `iterations` iterations, each a stage of 8 calls of
 * 2,000 to 3,000 output tokens and a summary of 500 waiting on them: 25 to
 * 35 s a link of a chain at 100 tokens/s; 200 problems are far more work
 * than four replicas' knees take at once, so the decoding binds, not the
 * chains (with fewer, the last chains leave the replicas idle: 60 problems
 * of 3 iterations took 1.20 times the bound on 4 replicas).
 */
function syntheticRun(problems: number, iterations: number): PlannedRun {
  const calls: PlannedCall[] = [];
  for (let problem = 0; problem < problems; problem++) {
    let before: number[] = [];
    for (let iteration = 0; iteration < iterations; iteration++) {
      const wide = Array.from({ length: 8 }, (_, index) => calls.push({ problem, iteration, role: 'solution', promptTokens: 500, outputTokens: 2_000 + ((problem * 7 + index * 131 + iteration * 17) % 1_000), deps: before, prompt: problem * iterations + iteration }) - 1);
      before = [calls.push({ problem, iteration, role: 'summary', promptTokens: 4_000, outputTokens: 500, deps: wide, prompt: null }) - 1];
    }
  }
  return { calls, iterations, stages: { solution: 0, summary: 1 } };
}

const servers = (speeds: number[], routing: Servers['routing'] = 'prefix'): Servers => ({
  replicas: speeds.map((speed) => resolveCapacity({ decodeTokensPerSecond: 8_000 * speed, sequenceTokensPerSecond: 100 * speed })),
  concurrency: 800,
  routing,
  replicaMaxInFlight: null,
});

describe('a forecast on a pool of replicas', () => {
  it('shortens with each replica added, stays near the pooled bound, and keeps every replica busy alike', () => {
    const run = syntheticRun(200, 2);
    const [one, two, four] = [1, 2, 4].map((n) => simulateRuns([run], servers(Array.from({ length: n }, () => 1))));
    for (const pool of [one, two, four]) {
      const { makespanSeconds, boundSeconds } = pool as { makespanSeconds: number; boundSeconds: number };
      expect(makespanSeconds).toBeGreaterThanOrEqual(boundSeconds);
      expect(makespanSeconds / boundSeconds).toBeLessThan(1.15);
    }
    // Decoding binds this run, not its chains: its bound is its work, which each replica added shortens.
    for (const pool of [one, two, four]) {
      expect(pool?.boundSeconds).toBe(pool?.workSeconds);
      expect(pool?.chainSeconds).toBeLessThan(pool?.workSeconds as number);
    }
    expect(two?.makespanSeconds).toBeLessThan((one?.makespanSeconds as number) * 0.6);
    expect(four?.makespanSeconds).toBeLessThan((two?.makespanSeconds as number) * 0.6);
    // Every call decoded once, spread over the replicas by their throughput.
    expect(four?.decodedTokens).toBe(one?.decodedTokens);
    expect(four?.replicaUtilization).toHaveLength(4);
    for (const share of four?.replicaUtilization ?? []) expect(Math.abs(share - (four?.utilization as number))).toBeLessThan(0.1);
  });

  it('says when a run is bound by its chains: replicas added then leave its bound, and nearly its makespan, where they were', () => {
    const run = syntheticRun(4, 3);
    const [four, eight] = [4, 8].map((n) => simulateRuns([run], servers(Array.from({ length: n }, () => 1)))) as [ReturnType<typeof simulateRuns>, ReturnType<typeof simulateRuns>];
    for (const pool of [four, eight]) {
      expect(pool.boundSeconds).toBe(pool.chainSeconds);
      expect(pool.workSeconds).toBeLessThan(pool.chainSeconds);
    }
    expect(eight.chainSeconds).toBe(four.chainSeconds);
    expect(eight.makespanSeconds).toBeGreaterThan(four.makespanSeconds * 0.95);
  });

  it('on replicas of two speeds, lies between the pools of their equals and near its own bound, under either routing', () => {
    const run = syntheticRun(200, 2);
    const mixed = (routing: Servers['routing']) => simulateRuns([run], servers([1, 1, 0.5, 0.5], routing));
    const [prefix, leastLoaded] = [mixed('prefix'), mixed('least-loaded')];
    const [fast, slow] = [simulateRuns([run], servers([1, 1, 1, 1])), simulateRuns([run], servers([0.5, 0.5, 0.5, 0.5]))];
    for (const pool of [prefix, leastLoaded]) {
      expect(pool.makespanSeconds).toBeGreaterThan(fast.makespanSeconds);
      expect(pool.makespanSeconds).toBeLessThan(slow.makespanSeconds);
      expect(pool.makespanSeconds / pool.boundSeconds).toBeLessThan(1.25);
    }
    // The bound counts the half-speed replicas at half their throughput.
    expect(prefix.boundSeconds).toBeCloseTo(prefix.decodedTokens / (2 * 8_000 + 2 * 4_000), 6);
  });

  it('runs two runs at once no longer than one after the other, nor shorter than the longer alone', () => {
    const [a, b] = [syntheticRun(30, 3), syntheticRun(30, 2)];
    const pool = servers([1, 1]);
    const together = simulateRuns([a, b], pool);
    const [aloneA, aloneB] = [simulateRuns([a], pool), simulateRuns([b], pool)];
    expect(together.decodedTokens).toBe(aloneA.decodedTokens + aloneB.decodedTokens);
    expect(together.makespanSeconds).toBeLessThan(aloneA.makespanSeconds + aloneB.makespanSeconds);
    expect(together.makespanSeconds).toBeGreaterThanOrEqual(Math.max(aloneA.makespanSeconds, aloneB.makespanSeconds));
  });
});

/** Runs `tmas plan` with `args` and --json; the parsed object. */
async function plan(args: string[]): Promise<Record<string, unknown>> {
  const result = await runCliInProcess(['plan', ...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe('tmas plan on a cluster', () => {
  test('--strategies forecasts a table: each method\'s calls as its own plan gives them, and all at once sooner than one after another', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(3));
    const loop = ['--input-file', input, '--no-proof', '--max-iterations', '2', '--n-candidates', '4', '--n-verifications', '2', '--judge-passes', '0', '--draws', '1', '--replicas', '2'];
    const [table, tmas, text] = await Promise.all([
      plan([...loop, '--strategies', 'majority,tmas', '--samples', '8', '--vote-pool', '8']),
      plan([...loop, '--strategy', 'tmas']),
      runCliInProcess(['plan', ...loop, '--strategies', 'majority,tmas', '--samples', '8', '--vote-pool', '8']),
    ]);
    const methods = table.methods as Array<{ strategy: string; calls: Record<string, number>; aloneSeconds: number }>;
    expect(methods.map((method) => method.strategy)).toEqual(['majority', 'tmas']);
    expect(methods[0]?.calls).toEqual({ solution: 3 * 8 });
    expect(methods[1]?.calls).toEqual(tmas.calls);
    const makespan = table.makespanSeconds as number;
    expect(makespan).toBeLessThan(table.sequentialSeconds as number);
    expect(makespan).toBeGreaterThanOrEqual(Math.max(...methods.map((method) => method.aloneSeconds)));
    expect(table.replicaUtilization).toHaveLength(2);
    expect(text.stdout).toContain('a table of 2 methods run at once');
    expect(text.stdout).toMatch(/one after another\s+[\d,]+ s/);
  });

  test("--demo forecasts the table tmas table1 --demo runs: each method at the demo's sizes, as tmas run --demo takes them, not the paper's 20 iterations of N = M = 8", async () => {
    const [table, tmas] = await Promise.all([plan(['--demo', '--strategies', 'tmas', '--draws', '1']), plan(['--demo', '--draws', '1'])]);
    const methods = table.methods as Array<{ strategy: string; calls: Record<string, number> }>;
    expect(methods[0]?.calls).toEqual(tmas.calls);
    expect(tmas.calls).toMatchObject({ solution: 40 * 4 * 8, verification: 40 * 4 * 8 * 4 });
  });

  test('--from replays a finished run on other replica counts (shorter with each, on the run\'s own pool by default), and a table\'s runs at once', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(3));
    const output = path.join(dir, 'table', 'tmas');
    const common = ['--input-file', input, '--no-proof', '--concurrency', '64', '--sim-output-tokens', '60'];
    await Promise.all([
      runInProcess([...common, '--output-file', output, '--max-iterations', '2', '--n-candidates', '4', '--n-verifications', '4']),
      runInProcess([...common, '--output-file', path.join(dir, 'table', 'majority'), '--strategy', 'majority', '--samples', '6']),
    ]);
    // A server slow enough that the run's calls queue on it.
    const server = ['--from', output, '--decode-tokens-per-second', '200', '--sequence-tokens-per-second', '50'];
    const [own, two, four, mixed, text, table] = await Promise.all([
      plan(server),
      plan([...server, '--replicas', '2']),
      plan([...server, '--replicas', '4']),
      plan([...server, '--replica-speeds', '1,1,0.5,0.5', '--routing', 'least-loaded']),
      runCliInProcess(['plan', ...server, '--replicas', '4']),
      plan(['--from', path.join(dir, 'table'), '--decode-tokens-per-second', '200', '--sequence-tokens-per-second', '50', '--replicas', '2']),
    ]);
    // The run went to the embedded simulator: one server.
    expect(own.replicas).toBe(1);
    expect(own.routing).toBe('prefix');
    expect(two.makespanSeconds as number).toBeLessThan(own.makespanSeconds as number);
    expect(four.makespanSeconds as number).toBeLessThan(two.makespanSeconds as number);
    for (const replay of [own, two, four, mixed]) expect(replay.makespanSeconds as number).toBeGreaterThanOrEqual((replay.boundSeconds as number) * 0.999);
    expect(four.decodedTokens).toBe(own.decodedTokens);
    expect(mixed.replicaUtilization).toHaveLength(4);
    expect(mixed.routing).toBe('least-loaded');
    expect(text.stdout).toContain('4 replicas, each D 200 tok/s');
    expect(text.stdout).toMatch(/per replica\s+[\d.]+%, [\d.]+%, [\d.]+%, [\d.]+%/);
    expect(text.stdout).toMatch(/pooled bound\s+[\d,]+ s \(the makespan [\d.]+x it\)/);
    // Which of the bound's terms binds, named as the replay's figures have it.
    const binding = (four.chainSeconds as number) > (four.workSeconds as number) ? 'its chains' : 'the work';
    expect(text.stdout).toMatch(new RegExp(`bound by\\s+${binding}: `));
    // A table's folder: its methods' runs replayed at once on the pool, sooner than the tmas run alone and the majority run after it.
    expect(table.methods).toEqual(['majority', 'tmas']);
    expect(table.calls).toBe((own.calls as number) + 3 * 6);
    expect(table.decodedTokens as number).toBeGreaterThan(two.decodedTokens as number);
    expect(table.makespanSeconds as number).toBeGreaterThanOrEqual(two.makespanSeconds as number);
  });

  test('refuses bad pool flags with exit 2, naming the flag', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const base = ['plan', '--input-file', input, '--no-proof', '--draws', '1'];
    const [zero, disagree, unknown, routing, both] = await Promise.all([
      runCliInProcess([...base, '--replica-speeds', '1,0']),
      runCliInProcess([...base, '--replicas', '3', '--replica-speeds', '1,1']),
      runCliInProcess([...base, '--strategies', 'tmas,nope']),
      runCliInProcess([...base, '--routing', 'random']),
      runCliInProcess([...base, '--strategies', 'tmas', '--from', dir]),
    ]);
    for (const result of [zero, disagree, unknown, routing, both]) expect(result.code).toBe(2);
    expect(zero.stderr).toContain('--replica-speeds');
    expect(disagree.stderr).toContain('[TMAS_USAGE]');
    expect(disagree.stderr).toContain('--replica-speeds 1,1 (2 factors)');
    expect(unknown.stderr).toContain('[TMAS_USAGE]');
    expect(unknown.stderr).toContain('unknown strategy "nope"');
    expect(routing.stderr).toContain('--routing');
    expect(both.stderr).toContain('[TMAS_USAGE]');
  });
});
