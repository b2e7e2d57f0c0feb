/**
 * Two processes given one run directory at once. A new run builds its store
 * under .store-new and renames it into place; a second new run started into
 * the same directory meanwhile deleted that folder under the first (or renamed
 * its own over the first's store) and ended with an internal error. Now the
 * directory is locked while the store is built, and the second is refused.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { acquireRunLock } from '../../../src/store/run-lock.ts';
import { runCli, smallProblems, test, writeProblems } from '../../fixtures.ts';

const SMALL = ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2'];

describe('a new run into a directory another process is making', () => {
  test('a run building its store there holds the directory: a second run is refused with TMAS_LOCKED and its .store-new is left alone', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const run = path.join(dir, 'run');
    await mkdir(path.join(run, '.store-new'), { recursive: true });
    const building = path.join(run, '.store-new', 'being-built');
    await writeFile(building, 'the first run writes here');
    // This process is the first run: it holds the directory as a new run does while it builds its store.
    const release = await acquireRunLock(run);
    try {
      const second = await runCli(['run', '--input-file', problems, '--output-file', run, ...SMALL]);
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toContain('[TMAS_LOCKED]');
      expect(second.stderr).toContain(`pid ${process.pid}`);
      expect(second.stderr).not.toContain('not empty');
      expect(await readFile(building, 'utf8')).toBe('the first run writes here');
      const fork = await runCli(['fork', run, '--output-file', run]);
      expect(fork.code, fork.stderr).toBe(2);
    } finally {
      await release();
    }
  });

  test('two runs started at once into one new directory: one makes the run, the other is refused (exit 2, no internal error), and the run resumes whole', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(3));
    const run = path.join(dir, 'run');
    const args = ['run', '--input-file', problems, '--output-file', run, ...SMALL];
    const both = await Promise.all([runCli(args), runCli(args)]);
    for (const each of both) {
      expect(each.stderr).not.toContain('internal error');
      expect(each.stderr).not.toMatch(/\n\s+at /);
    }
    const codes = both.map((each) => each.code).sort();
    expect(codes, both.map((each) => each.stderr).join('\n---\n')).toEqual([0, 2]);
    const refused = both.find((each) => each.code === 2)!;
    expect(refused.stderr).toMatch(/\[TMAS_LOCKED\]|already holds a tmas run/);
    expect(existsSync(path.join(run, '.store-new'))).toBe(false);
    expect(existsSync(path.join(run, 'tmas.lock'))).toBe(false);
    const resumed = await runCli(['run', '--resume', run]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout + resumed.stderr).toContain('0 calls issued');
  });

  test('a lock left by a killed new run (its process gone) does not stop the same command', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const run = path.join(dir, 'run');
    await mkdir(path.join(run, '.store-new', 'store'), { recursive: true });
    await writeFile(path.join(run, 'tmas.lock'), JSON.stringify({ pid: 2 ** 22 + 7, host: (await import('node:os')).hostname(), since: '2026-01-01T00:00:00Z' }));
    const again = await runCli(['run', '--input-file', problems, '--output-file', run, ...SMALL]);
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(path.join(run, 'tmas.lock'))).toBe(false);
  });
});
