import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { Envelope } from '../src/kernel/protocol.ts';
import { readLog, runInProcess, smallProblems, test, writeProblems } from './fixtures.ts';

/** Per (problem, iteration), the log positions of each message type. */
function positions(log: Envelope[], problem: string, iteration: number, type: string): number[] {
  const seqs: number[] = [];
  log.forEach((envelope, position) => {
    const message = envelope.message;
    if (message.type === type && message.problem === problem && message.iteration === iteration) seqs.push(position);
  });
  return seqs;
}

async function runWith(dir: string, schedule: string): Promise<{ results: string; log: Envelope[] }> {
  const input = await writeProblems(dir, smallProblems(2));
  const output = path.join(dir, schedule);
  // Concurrency 1: calls go in the order they were requested, so the log order shows the schedule, not the timing.
  await runInProcess(['--input-file', input, '--output-file', output, '--no-proof', '--n-candidates', '3', '--n-verifications', '2', '--max-iterations', '2', '--concurrency', '1', '--schedule', schedule]);
  return { results: await readFile(path.join(output, 'results.jsonl'), 'utf8'), log: await readLog(output) };
}

describe('schedules', () => {
  test('pipelined and barrier runs give the same results.jsonl, and only the barrier waits for whole phases', async ({ dir }) => {
    const pipelined = await runWith(dir, 'pipelined');
    const barrier = await runWith(dir, 'barrier');
    expect(pipelined.results.trim().split('\n')).toHaveLength(4);
    expect(barrier.results).toBe(pipelined.results);

    for (const [problem, iteration] of [['p1', 0], ['p1', 1], ['p2', 0], ['p2', 1]] as const) {
      const phase = (run: { log: Envelope[] }, type: string) => positions(run.log, problem, iteration, type);
      // Barrier: the first verification is asked for after the last solution came back, the first summary after the last verification.
      expect(Math.min(...phase(barrier, 'verification.requested'))).toBeGreaterThan(Math.max(...phase(barrier, 'solution.completed')));
      expect(Math.min(...phase(barrier, 'summary.requested'))).toBeGreaterThan(Math.max(...phase(barrier, 'verification.completed')));
      // Pipelined: a candidate's verifications are asked for while later solutions are still outstanding.
      expect(Math.min(...phase(pipelined, 'verification.requested'))).toBeLessThan(Math.max(...phase(pipelined, 'solution.completed')));
      expect(phase(barrier, 'verification.requested')).toHaveLength(6);
      expect(phase(barrier, 'summary.requested')).toHaveLength(3);
    }
  });

  test('an unknown --schedule is a usage error naming the flag', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    await expect(runInProcess(['--input-file', input, '--output-file', path.join(dir, 'out'), '--schedule', 'eager'])).rejects.toMatchObject({ code: 'TMAS_USAGE', message: expect.stringContaining('--schedule') });
  });
});
