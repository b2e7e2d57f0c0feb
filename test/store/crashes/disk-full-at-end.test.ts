/**
 * A disk that fills as a run ends: the write of its last messages (the last
 * iteration.completed, the problem's and the run's end) fails after the run's actor has finished, so the run's own watch on the store
 * (which maps a failed write to TMAS_STORE_WRITE) has already let it go. Before,
 * that write's LevelDB error came out of the log's flush as it was: "tmas:
 * internal error (please report it): Error: IO error: …/000006.log: No space left
 * on device", exit 1. Now it is TMAS_STORE_WRITE naming the directory, and once
 * space is freed the resume completes the run with the results of one never
 * stopped, no call sent again.
 *
 * The disk is a real tmpfs of 4 MiB (mounting one needs root with
 * CAP_SYS_ADMIN: the test is skipped, saying so, otherwise), filled by a file
 * the moment the last iteration.completed is published, before the batch that
 * holds it is handed to LevelDB.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { parseRunFlags, toRunConfig } from '../../../src/cli/run/run.command.ts';
import { loadProblems } from '../../../src/input/problems.ts';
import { runEvaluation } from '../../../src/host/run/run-evaluation.ts';
import { REPO, runCliInProcess, runInProcess, test } from '../../fixtures.ts';
import { mountSmallDisk, NO_TMPFS } from './tmpfs.ts';

/** Writes zeros to `file` until the disk refuses (ENOSPC). */
function fillDisk(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

describe('a disk full as the run ends', () => {
  test('the failed write of its last messages is TMAS_STORE_WRITE, not an internal error; resumed once space is freed, the run ends as one never stopped', async ({ dir, skip }) => {
    // Two of the demo's problems: with these the last iteration's write reliably comes after the actor is done.
    const demo = (await readFile(path.join(REPO, 'problems', 'demo.jsonl'), 'utf8')).split('\n').slice(0, 2);
    const problems = path.join(dir, 'problems.jsonl');
    await writeFile(problems, demo.join('\n') + '\n');
    const flags = ['--input-file', problems, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2'];
    const disk = path.join(dir, 'disk');
    await mkdir(disk);
    if (!mountSmallDisk(disk, '4m')) skip(NO_TMPFS);
    try {
      const run = path.join(disk, 'run');
      const filler = path.join(disk, 'filler');
      const { config, secrets } = toRunConfig(parseRunFlags([...flags, '--output-file', run]), {});
      const quiet = { stdout: () => {}, stderr: () => {} };
      let completed = 0;
      const outcome = runEvaluation(config, secrets, await loadProblems(problems), quiet, {
        // The last of the run's 4 iterations (2 problems × T=2) completed: its record and the messages after it are written once the actor is done.
        observe: ({ envelopes$ }) => envelopes$.subscribe((envelope) => envelope.message.type === 'iteration.completed' && ++completed === 4 && fillDisk(filler)),
      });
      await expect(outcome).rejects.toMatchObject({ code: 'TMAS_STORE_WRITE', message: expect.stringContaining(`tmas run --resume ${run}`) });

      await rm(filler);
      const resumed = await runCliInProcess(['run', '--resume', run]);
      await runInProcess([...flags, '--output-file', path.join(dir, 'clean')]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout + resumed.stderr).toMatch(/\b0 calls issued/);
      expect(await readFile(path.join(run, 'results.jsonl'), 'utf8')).toBe(await readFile(path.join(dir, 'clean', 'results.jsonl'), 'utf8'));
    } finally {
      execFileSync('umount', [disk]);
    }
  });
});
