/**
 * A store that lost an iteration before a problem's last one (a repair that
 * dropped a damaged block can leave iteration 0 lost, iteration 1 kept). A
 * resume goes on after the last one and never redoes it; before, `tmas repair`
 * said to resume ("only calls the journal lost are issued again"), and the
 * resume changed nothing while the figures at that iteration counted without
 * the problem. The repair names the gap and the way to whole figures: a fork,
 * which answers every call the journal holds from it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Level } from 'level';
import { expect } from 'vitest';
import { runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

test('tmas repair names the problems that lost an iteration before their last, and says a fork, not a resume, makes the figures whole again', async ({ dir }) => {
  const problems = await writeProblems(dir, smallProblems(2));
  const run = path.join(dir, 'run');
  await runInProcess(['--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2']);
  // The first problem's iteration 0, record and banks, gone as a dropped block takes them.
  const db = new Level<string, unknown>(path.join(run, 'store'), { valueEncoding: 'json' });
  for (const name of ['iterations', 'banks']) await db.sublevel(name).del('000000!0000');
  await db.close();
  const repaired = await runCliInProcess(['repair', run]);
  expect(repaired.code, repaired.stderr).toBe(0);
  expect(repaired.stdout).toContain('1 problem lost an iteration before its last one: p1 (iteration 0).');
  expect(repaired.stdout).toContain(`run it again with: tmas fork ${run} --output-file NEW`);
  expect(repaired.stdout).not.toContain('Continue with: tmas run --resume');
  // A resume (which rewrites the outputs from the store) leaves the gap, and the report says what it is: before, it
  // read as problems stopped before their last iteration, its counts per iteration reversed, to be finished by a resume.
  const resumed = await runCliInProcess(['run', '--resume', run]);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stdout).toMatch(/^0 calls issued/m);
  const report = await runCliInProcess(['report', run, '--format', 'md']);
  expect(report.code, report.stderr).toBe(0);
  expect(report.stdout).toContain(`1 of 2 problems lost an iteration before their last one (p1 at iteration 0): its store was repaired, the figures at those iterations count without them, and a resume does not redo them: tmas fork ${run} --output-file NEW`);
  expect(report.stdout).not.toMatch(/stopped before their last iteration|Finish them with/);
  // The way it names: every call answered from the journal, every iteration of every problem in the results.
  const fork = path.join(dir, 'fork');
  const forked = await runCliInProcess(['fork', run, '--output-file', fork]);
  expect(forked.code, forked.stderr).toBe(0);
  expect(forked.stdout).toMatch(/^0 calls issued/m);
  expect((await readFile(path.join(fork, 'results.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(4);
});
