import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { Envelope, Message } from '../../src/kernel/protocol.ts';
import { readLog, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

const N = 4;
const M = 2;
const T = 3;

function count(log: Envelope[], type: Message['type'], problem: string, iteration: number): number {
  return log.filter((e) => e.message.type === type && e.message.problem === problem && e.message.iteration === iteration).length;
}

function sources(log: Envelope[]): string[] {
  return log.flatMap((e) => (e.message.type === 'solution.requested' && e.message.iteration > 0 ? [e.message.source] : []));
}

describe('the TMAS loop against the simulated model', () => {
  test('each problem and iteration has N solutions, N×M verifications, N summaries, one experience and one guideline update', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(3));
    const output = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--n-candidates', `${N}`, '--n-verifications', `${M}`, '--max-iterations', `${T}`, '--sim-latency-ms', '5']);
    const log = await readLog(output);
    for (const problem of ['p1', 'p2', 'p3']) {
      for (let t = 0; t < T; t++) {
        expect(count(log, 'solution.completed', problem, t), `${problem} iteration ${t}`).toBe(N);
        expect(count(log, 'verification.completed', problem, t)).toBe(N * M);
        expect(count(log, 'summary.completed', problem, t)).toBe(N);
        expect(count(log, 'experience.completed', problem, t)).toBe(1);
        expect(count(log, 'guideline.completed', problem, t)).toBe(1);
        expect(count(log, 'iteration.completed', problem, t)).toBe(1);
      }
      expect(count(log, 'solution.completed', problem, T)).toBe(0);
    }
    const results = (await readFile(path.join(output, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    expect(results).toHaveLength(3 * T);
    expect(results[0]).toMatchObject({ problem: 'p1', iteration: 0, simulated: true });
    expect(results[0].candidates).toHaveLength(N);
    const metrics = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8'));
    expect(metrics.simulated).toBe(true);
    expect(metrics.iterations).toHaveLength(T);
  });

  test('ε = 0 never explores and ε = 1 never exploits after iteration 0', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const args = ['--input-file', input, '--no-proof', '--n-candidates', '4', '--n-verifications', '1', '--max-iterations', '3'];
    await runInProcess([...args, '--output-file', path.join(dir, 'greedy'), '--epsilon', '0']);
    await runInProcess([...args, '--output-file', path.join(dir, 'explore'), '--epsilon', '1']);
    const greedy = sources(await readLog(path.join(dir, 'greedy')));
    const explore = sources(await readLog(path.join(dir, 'explore')));
    expect(greedy).toHaveLength(2 * 2 * 4);
    expect(new Set(greedy)).toEqual(new Set(['experience']));
    expect(explore).toHaveLength(2 * 2 * 4);
    expect(new Set(explore)).toEqual(new Set(['guideline']));
  });

  test('exploit prompts carry R(t-1) and E(t-1); explore prompts carry G(t-1)', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const output = path.join(dir, 'run');
    await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--n-candidates', '8', '--n-verifications', '1', '--max-iterations', '3', '--epsilon', '0.5']);
    const requests = (await readLog(output)).flatMap((e) => (e.message.type === 'solution.requested' && e.message.iteration === 2 ? [e.message] : []));
    const exploit = requests.filter((r) => r.source === 'experience');
    const explore = requests.filter((r) => r.source === 'guideline');
    expect(exploit.length).toBeGreaterThan(0);
    expect(explore.length).toBeGreaterThan(0);
    for (const request of exploit) {
      expect(request.rollouts).toHaveLength(8);
      expect(request.rollouts.every((rollout) => rollout.summary.length > 0)).toBe(true);
      expect(request.experience.length).toBeGreaterThan(0);
      expect(request.guidelines).toEqual([]);
    }
    for (const request of explore) {
      expect(request.guidelines.length).toBeGreaterThan(0);
      expect(request.rollouts).toEqual([]);
      expect(request.experience).toEqual([]);
    }
  });

  test('the schedule changes no result: identical results.jsonl at concurrency 1 and 800, pipelined or barrier, whatever the dispatch and cap', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(3));
    const args = ['--input-file', input, '--no-proof', '--n-candidates', '3', '--n-verifications', '2', '--max-iterations', '2', '--seed', '7', '--sim-latency-ms', '3', '--sim-p99-ms', '40'];
    const variants = {
      one: ['--concurrency', '1'],
      many: ['--concurrency', '800'],
      barrier: ['--concurrency', '800', '--schedule', 'barrier', '--server-queue', 'server', '--dispatch-order', 'fifo'],
      held: ['--concurrency', '4', '--dispatch-order', 'fifo'],
      uncapped: ['--concurrency', '800', '--batch-cap', 'none'],
    };
    const results: Record<string, string> = {};
    for (const [name, flags] of Object.entries(variants)) {
      await runInProcess([...args, '--output-file', path.join(dir, name), ...flags]);
      results[name] = await readFile(path.join(dir, name, 'results.jsonl'), 'utf8');
    }
    expect(results.one?.length).toBeGreaterThan(0);
    for (const name of Object.keys(variants)) expect(results[name], name).toBe(results.one);
  });
});
