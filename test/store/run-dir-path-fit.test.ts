import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { finishedRunOfFile, runCliInProcess, test as base } from '../fixtures.ts';

const test = base.extend<{ runToFit: string }>({
  runToFit: finishedRunOfFile('tmas-fit-path-', 1, ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1']),
});

/** The longest path Linux opens, in bytes. */
const PATH_MAX = 4095;

/** Makes, under `root`, folders down to a path of exactly `length` bytes, entering each in turn (an absolute path that long is refused). */
async function folderOfLength(root: string, length: number): Promise<string> {
  const start = process.cwd();
  process.chdir(root);
  let at = root;
  try {
    while (at.length < length) {
      const step = 'f'.repeat(Math.min(200, length - at.length - 1));
      await mkdir(step);
      process.chdir(step);
      at = `${at}/${step}`;
    }
  } finally {
    process.chdir(start);
  }
  return at;
}

describe('a run directory whose files fit under the path limit by a few bytes', () => {
  test(
    'is read as the system reads it: a store file padded past its real name never refuses a run whose every file opens',
    async ({ dir, runToFit: finished }) => {
      const longest = Math.max(...(await readdir(path.join(finished, 'store'))).map((name) => name.length));
      // The run directory's path leaves for its longest store file exactly the room it takes: every file opens.
      const runLength = PATH_MAX - '/store/'.length - longest;
      const parent = await folderOfLength(dir, runLength - '/run'.length);
      const start = process.cwd();
      process.chdir(parent);
      try {
        await cp(finished, 'run', { recursive: true });
      } finally {
        process.chdir(start);
      }
      const run = `${parent}/run`;
      expect(Buffer.byteLength(run)).toBe(runLength);
      try {
        // Before: TMAS_RUN_DIR 'has a path of … bytes … ENAMETOOLONG' of a run main read (its check padded MANIFEST to 10 digits).
        for (const args of [['log', run], ['calls', run]]) {
          const read = await runCliInProcess(args);
          expect(read.code, `${args[0]}: ${read.stderr}`).toBe(0);
          expect(read.stdout.length).toBeGreaterThan(0);
        }
      } finally {
        // Removed from its parent: the fixture's removal would name the run by a path too long for its files.
        process.chdir(parent);
        try {
          await rm('run', { recursive: true });
        } finally {
          process.chdir(start);
        }
      }
    },
    120_000,
  );
});
