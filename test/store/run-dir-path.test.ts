import { cp, readdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { deepFolder, fileHashes, finishedRunOfFile, inFolder, runCliInProcess, smallProblems, test as base, writeProblems } from '../fixtures.ts';

const test = base.extend<{ shallowRun: string }>({
  shallowRun: finishedRunOfFile('tmas-deep-path-', 2, ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1']),
});

describe('a run directory whose path is too long for the files in it', () => {
  test(
    'every command that cannot open its files says so (TMAS_RUN_DIR, ENAMETOOLONG, how long, what to do), a resume and a repair where only reads fit, nothing changes, a short link reads it; a new run there is refused before any call',
    async ({ dir, shallowRun: finished }) => {
      // A run whose store's files can be opened, but not the outputs a resume writes or the copy a repair keeps.
      const deep = await deepFolder(dir, 4060);
      const run = `${deep}/run`;
      await inFolder(deep, () => cp(finished, 'run', { recursive: true }));
      // And one whose store's files cannot be opened at all.
      const deeper = await deepFolder(deep, 4076);
      const unreadable = `${deeper}/run`;
      await inFolder(deeper, () => cp(finished, 'run', { recursive: true }));
      try {
        await readsAndRefusals(dir, run, unreadable);
      } finally {
        // The fixture's removal of the test's folder opens every file by its whole path: the deepest are removed from nearer.
        await inFolder(deeper, () => rm('run', { recursive: true }));
      }
    },
    120_000,
  );
});

/** The reads that fit at `run`, the refusals at `run` and `unreadable`, a link that reads the latter and a new run refused beside them. */
async function readsAndRefusals(dir: string, run: string, unreadable: string): Promise<void> {
  const deep = path.dirname(run);
  const before = await inFolder(run, () => fileHashes('.'));
  const refusedBefore = await inFolder(unreadable, () => fileHashes('.'));
  for (const args of [['log', run], ['report', run, '--format', 'md']]) {
    const read = await runCliInProcess(args);
    expect(read.code, `${args[0]}: ${read.stderr}`).toBe(0);
  }
  // Before: a resume paid for nothing here, but 'it has no store/' (log, resume, fork), 'check its permissions' of its
  // first table, and a report advising the resume that failed the same way, at the deeper one.
  const refusals = [
    ['run', '--resume', run],
    ['repair', run],
    ['log', unreadable],
    ['show', unreadable, '--problem', 'p1'],
    ['replay', unreadable],
    ['report', unreadable],
    ['run', '--resume', unreadable],
    ['repair', unreadable],
    ['plan', '--from', unreadable],
    ['fork', unreadable, '--output-file', path.join(dir, 'fork')],
  ];
  for (const args of refusals) {
    const tried = await runCliInProcess(args);
    expect(tried.code, `${args.join(' ').slice(0, 40)}: ${tried.stderr}`).toBe(2);
    expect(tried.stderr, args.join(' ')).toMatch(/has a path of 40\d\d bytes: .*ENAMETOOLONG.*make a link to it with a short name .*\[TMAS_RUN_DIR\]/);
  }
  expect(await inFolder(run, () => fileHashes('.'))).toEqual(before);
  expect(await inFolder(unreadable, () => fileHashes('.'))).toEqual(refusedBefore);
  expect(await readdir(dir)).not.toContain('fork');

  const link = path.join(dir, 'short');
  await symlink(unreadable, link);
  const logged = await runCliInProcess(['log', link]);
  expect(logged.code, logged.stderr).toBe(0);
  expect(logged.stdout).toMatch(/run\.completed/);

  const input = await writeProblems(dir, smallProblems(1));
  const fresh = await runCliInProcess(['run', '--input-file', input, '--no-proof', '--max-iterations', '1', '--output-file', `${deep}/new-run-${'n'.repeat(30)}`]);
  expect(fresh.code, fresh.stderr).toBe(2);
  expect(fresh.stderr).toMatch(/ENAMETOOLONG.*Nothing was written.*\[TMAS_OUTPUT\]/);
  expect(fresh.stderr).not.toMatch(/calls issued/);
  expect((await inFolder(deep, () => readdir('.'))).filter((name) => name.startsWith('new-run'))).toEqual([]);
}
