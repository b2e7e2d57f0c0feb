import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createActor } from 'xstate';
import { describe, expect } from 'vitest';
import type { ProblemInput } from '../../machines/contract.ts';
import { createProgramMachine } from '../../machines/program.machine.ts';
import { tmasProgram } from '../../machines/strategies/tmas/tmas.program.ts';
import type { Envelope, Message, MessageOf } from '../../src/kernel/protocol.ts';
import { readLog, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

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
      expect(phase(barrier, 'verification.requested')).toHaveLength(6);
      expect(phase(barrier, 'summary.requested')).toHaveLength(3);
    }
  });

  // Whether a run's log shows the overlap depends on timing (journal writes land in batches); the problem actor shows it for sure.
  test.each(['pipelined', 'barrier'] as const)('%s: what the problem actor asks for when one of its N solutions is in', (schedule) => {
    const posted: Message[] = [];
    const input: ProblemInput = {
      run: 'r',
      ordinal: 0,
      problem: { id: 'p1', question: 'What is 1 + 1?', answer: '2' },
      settings: { nCandidates: 3, nVerifications: 2, maxIterations: 1, epsilon: 0.2, seed: 0, jaccardThreshold: 0.7, schedule, judgePasses: 0, proof: false },
      start: { iteration: 0, experience: [], guidelines: [], rollouts: [] },
    };
    const actor = createActor(createProgramMachine(tmasProgram).provide({ actions: { post: (_, params) => void posted.push(params.message) } }), { input });
    actor.start();
    expect(posted.filter((message) => message.type === 'solution.requested')).toHaveLength(3);
    actor.send({ type: 'solution.completed', run: 'r', problem: 'p1', iteration: 0, correlation: 'p1/0/solution/0', candidate: 0, source: 'normal', text: 'So \\boxed{2}.', answer: '2', call: { key: 'k0', usage: { promptTokens: 10, completionTokens: 5 }, finishReason: 'stop' } });
    const asked = posted.filter((message) => message.type === 'verification.requested');
    // Pipelined: candidate 0's M verifications start while the other two solutions are outstanding; barrier: nothing yet.
    expect(asked.map((message) => (message as MessageOf<'verification.requested'>).candidate)).toEqual(schedule === 'pipelined' ? [0, 0] : []);
    actor.stop();
  });

  test('an unknown --schedule is a usage error naming the flag', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    await expect(runInProcess(['--input-file', input, '--output-file', path.join(dir, 'out'), '--schedule', 'eager'])).rejects.toMatchObject({ code: 'TMAS_USAGE', message: expect.stringContaining('--schedule') });
  });
});
