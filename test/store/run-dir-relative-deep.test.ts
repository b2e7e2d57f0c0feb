import { cp, mkdir, rename, rmdir } from 'node:fs/promises';
import { describe, expect } from 'vitest';
import { finishedRunOfFile, runCliInProcess, test as base } from '../fixtures.ts';

const test = base.extend<{ runGivenRelative: string }>({
  runGivenRelative: finishedRunOfFile('tmas-relative-deep-', 1, ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1']),
});

/** Folders under `root` entered one by one until the working directory's path is past `length` bytes; the steps taken. */
async function enterPast(root: string, length: number): Promise<string[]> {
  process.chdir(root);
  const steps: string[] = [];
  for (let at = root.length; at <= length; at += 201) {
    const step = 'w'.repeat(200);
    await mkdir(step);
    process.chdir(step);
    steps.push(step);
  }
  return steps;
}

describe('a run given by a relative path from a working directory past the path limit', () => {
  test(
    'is read, as the system opens it: only the path given counts, and the working directory is never asked for',
    async ({ dir, runGivenRelative: finished }) => {
      const start = process.cwd();
      // Copied beside the folders, then moved down by a short relative path: a copy names its files by their whole path.
      await cp(finished, `${dir}/run`, { recursive: true });
      const steps = await enterPast(dir, 4200);
      const up = '../'.repeat(steps.length);
      try {
        await rename(`${up}run`, 'run');
        // Before: 'internal error (please report it): ERANGE … uv_cwd' (the check resolved the path), exit 1; main read it.
        for (const args of [['log', 'run'], ['calls', 'run']]) {
          const read = await runCliInProcess(args);
          expect(read.code, `${args[0]}: ${read.stderr}`).toBe(0);
          expect(read.stdout.length).toBeGreaterThan(0);
        }
      } finally {
        // Moved back up and the folders removed one by one from below: the fixture removes the test's folder by paths that fit.
        await rename('run', `${up}run`).catch(() => {});
        for (const step of [...steps].reverse()) {
          process.chdir('..');
          await rmdir(step);
        }
        process.chdir(start);
      }
    },
    120_000,
  );
});
