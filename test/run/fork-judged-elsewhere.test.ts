/**
 * A fork pays no judge call twice. `majority`'s iteration t holds the first
 * ⌊n(t+1)/T⌋ samples, so the iteration a sample is first judged at depends on
 * T: a run made to T = 2 and extended to 3 judged sample 1 at iteration 0,
 * where a fork of it to T = 3 judges it at 1, with that iteration's seed. The
 * judge is asked the same question about the same response, so the fork
 * answers it from the run's journal rather than pays for it again.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { readJournal, replayInProcess, runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

test('a fork to T = 3 of a majority run extended from 2 to 3 pays none of the judge calls the run paid, though it judges samples at other iterations; it replays and resumes as its own', async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(2));
  const run = path.join(dir, 'run');
  await runInProcess(['--input-file', input, '--output-file', run, '--no-proof', '--strategy', 'majority', '--samples', '4', '--max-iterations', '2', '--judge-passes', '2']);
  const extended = await runCliInProcess(['run', '--resume', run, '--max-iterations', '3']);
  expect(extended.code, extended.stderr).toBe(0);
  const paid = await readJournal(run);
  // 2 problems: 4 samples, each judged twice.
  expect(paid.length).toBe(2 * (4 + 4 * 2));

  const fork = path.join(dir, 'fork');
  const forked = await runCliInProcess(['fork', run, '--output-file', fork]);
  expect(forked.code, forked.stderr).toBe(0);
  expect(forked.stdout).toContain(`${paid.length} calls answered from the journal of ${run}, 0 issued.`);
  expect(forked.stdout).toContain(`expects to answer about ${paid.length} calls`);

  // Under T = 3 sample 1 is judged at iteration 1 (the run judged it at 0): kept under the fork's own key, naming the run's.
  const calls = await readJournal(fork);
  const moved = calls.filter((call) => call.askedAs !== undefined);
  expect(moved.length).toBeGreaterThan(0);
  const original = new Map(paid.map((call) => [call.key, call]));
  for (const call of moved) {
    const there = original.get(call.askedAs ?? '');
    expect(there?.role).toBe('judge');
    expect(there?.iteration).not.toBe(call.iteration);
    expect(call.key.startsWith(`${call.problem}/${call.iteration}/judge/`)).toBe(true);
    expect({ ...call, key: there?.key, iteration: there?.iteration, askedAs: undefined }).toEqual({ ...there, askedAs: undefined });
  }

  // `tmas calls` shows where each such call was asked in the run.
  const listed = await runCliInProcess(['calls', fork, '--role', 'judge']);
  const lines = listed.stdout.trim().split('\n').map((line) => JSON.parse(line) as { key: string; askedAs?: string });
  expect(lines.filter((line) => line.askedAs !== undefined).map((line) => [line.key, line.askedAs])).toEqual(moved.map((call) => [call.key, call.askedAs]));

  const report = await replayInProcess(fork);
  expect(report.misses).toEqual([]);
  expect(report.identical).toBe(true);
  const resumed = await runCliInProcess(['run', '--resume', fork]);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stdout).toMatch(/^0 calls issued/m);
});
