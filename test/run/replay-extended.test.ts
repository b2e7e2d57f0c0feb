import path from 'node:path';
import { expect } from 'vitest';
import { replayRun } from '../../src/analysis/replay.ts';
import type { Secrets } from '../../src/settings/config.ts';
import { ENDPOINT_SLOTS } from '../../src/kernel/slots.ts';
import { acquireRunLock } from '../../src/store/run-lock.ts';
import { runInProcess, smallProblems, test, writeProblems, runCliInProcess } from '../fixtures.ts';

const SECRETS = Object.fromEntries(ENDPOINT_SLOTS.map((slot) => [slot, 'EMPTY'])) as Secrets;

test('a run extended with --resume --max-iterations replays as identical: the extension is part of its history; while a run holds it, a replay is refused', async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(2));
  const run = path.join(dir, 'run');
  await runInProcess(['--input-file', input, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', '1']);
  const extended = await runCliInProcess(['run', '--resume', run, '--max-iterations', '3']);
  expect(extended.code, extended.stderr).toBe(0);

  // While a tmas run holds the directory (its lock, held here by this live process), its log ends where the run is now: refused, not replayed as stopped.
  const release = await acquireRunLock(run);
  try {
    await expect(replayRun(run, { secrets: SECRETS })).rejects.toMatchObject({ code: 'TMAS_LOCKED', message: expect.stringContaining('a replay would read only the calls journaled so far') });
  } finally {
    await release();
  }
  const report = await replayRun(run, { secrets: SECRETS });
  expect(report.divergence).toBeNull();
  expect(report.notReproduced).toBe(0);
  expect(report.identical).toBe(true);
  expect(report.misses).toEqual([]);
});

test('a majority run extended with --resume --max-iterations replays as identical: its first process judged each sample where T = 2 first showed it, and the replay runs T = 2, then the extension', async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(2));
  const run = path.join(dir, 'run');
  await runInProcess(['--input-file', input, '--output-file', run, '--no-proof', '--strategy', 'majority', '--samples', '4', '--max-iterations', '2', '--judge-passes', '1']);
  const extended = await runCliInProcess(['run', '--resume', run, '--max-iterations', '3']);
  expect(extended.code, extended.stderr).toBe(0);
  const report = await replayRun(run, { secrets: SECRETS });
  // Under T = 3 alone, samples 1 and 3 first showed at other iterations than they were judged at: 4 judge calls missed.
  expect(report.misses).toEqual([]);
  expect(report.divergence).toBeNull();
  expect(report.identical).toBe(true);
});
