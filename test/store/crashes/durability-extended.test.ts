/**
 * SIGKILL at moments test/store/crashes/durability.test.ts does not reach: during a resume
 * that takes a finished run further (--max-iterations above its T, written
 * into the manifest as the resume starts), during the summary calls of that
 * resume, and a plain resume after it. The run must end as one made to the
 * larger T in one go, and no call journaled before the last resume is sent
 * again.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { loadProblems } from '../../../src/input/problems.ts';
import { startSimServer } from '../../../src/sim/server.ts';
import { SIM_ROLES } from '../../../machines/strategies/sim-roles.ts';
import { requestLogReader } from './request-log.ts';
import { BIN, readJournal, REPO, runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../../fixtures.ts';

interface LoggedRequest {
  role: string | null;
  seed: number | null;
}

/** Runs `tmas` and SIGKILLs it once `role` was asked `times` times more than at `from` requests; resolves when it is dead. */
async function killAfter(args: string[], requests: () => Promise<readonly LoggedRequest[]>, role: string, times: number): Promise<void> {
  const from = (await requests()).length;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    if (child.exitCode !== null) throw new Error('the run finished before the kill point');
    if ((await requests()).slice(from).filter((r) => r.role === role).length >= times) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  child.kill('SIGKILL');
  await exited;
}

describe('a run taken further, killed and resumed', () => {
  test('SIGKILL during the solutions, then the summaries, of a resume to a larger T: a plain resume ends as a run made to that T in one go, no journaled call sent again', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(3));
    const requestLog = path.join(dir, 'requests.jsonl');
    const sim = await startSimServer({ problems: await loadProblems(problems), roles: SIM_ROLES, latency: { medianMs: 40, p99Ms: 150 }, requestLog });
    try {
      const common = ['--input-file', problems, '--base-url', sim.url, '--no-proof', '--n-candidates', '3', '--n-verifications', '2', '--concurrency', '4', '--seed', '5'];
      await runInProcess([...common, '--max-iterations', '3', '--output-file', path.join(dir, 'clean')]);
      const run = path.join(dir, 'run');
      const requests = requestLogReader<LoggedRequest>(requestLog);
      await runInProcess([...common, '--max-iterations', '1', '--output-file', run]);

      // Killed once its manifest says T=3 and its second iteration's solutions are being sent.
      await killAfter(['run', '--resume', run, '--max-iterations', '3'], requests, 'solution', 4);
      // Killed again, without the flag: the manifest carries the new T.
      await killAfter(['run', '--resume', run], requests, 'summary', 4);
      const journaled = new Set((await readJournal(run)).map((call) => call.request.seed));
      const mark = (await requests()).length;
      const finished = await runCliInProcess(['run', '--resume', run]);
      expect(finished.code, finished.stderr).toBe(0);

      expect(await readFile(path.join(run, 'results.jsonl'), 'utf8')).toBe(await readFile(path.join(dir, 'clean', 'results.jsonl'), 'utf8'));
      const resent = (await requests()).slice(mark).filter((r) => r.seed !== null && journaled.has(r.seed));
      expect(resent).toEqual([]);
      const seeds = async (dirOf: string) => (await readJournal(dirOf)).map((call) => call.request.seed).sort();
      expect(await seeds(run)).toEqual(await seeds(path.join(dir, 'clean')));
    } finally {
      await sim.close();
    }
  });
});
