/**
 * `tmas report` of a run a tmas process is writing now (a resume taking it
 * further). The outputs in the directory are still those its last process
 * wrote: before, a run of T=2 being resumed to T=12 was reported as a finished
 * run of T=2, its "final Pass@1" unmarked. Now it is marked ‡ and the note says
 * that it is still being written, by which process, and to report it again
 * once that has ended (not to resume it: that would be refused while it runs).
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { acquireRunLock } from '../../src/store/run-lock.ts';
import { runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

describe('a report of a run still being written', () => {
  test('its row is marked ‡ and its note names the process writing it; once that has ended the same run reports unmarked', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2']);
    const markdown = path.join(dir, 'report.md');
    const html = path.join(dir, 'report.html');
    // This process holds the run's directory as a resume writing it does.
    const release = await acquireRunLock(run);
    try {
      const live = await runCliInProcess(['report', run, '--out', markdown]);
      expect(live.code, live.stderr).toBe(0);
      const text = await readFile(markdown, 'utf8');
      expect(text).toContain('| run (simulated) ‡ |');
      expect(text).toContain(`> ‡ run: the run is still being written by a tmas process (pid ${process.pid}, since `);
      expect(text).toContain('report it again once that process has ended');
      expect(text).not.toContain('Finish them with');
      expect((await runCliInProcess(['report', run, '--out', html])).code).toBe(0);
      expect(await readFile(html, 'utf8')).toContain('still being written by a tmas process');
    } finally {
      await release();
    }
    expect((await runCliInProcess(['report', run, '--out', markdown])).code).toBe(0);
    const after = await readFile(markdown, 'utf8');
    expect(after).not.toContain('‡');
    expect(after).not.toContain('still being written');
  });

  test('a lock whose pid is now another program\'s (a pid reused after a restart) is marked with how to clear it, not only to wait', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, 'run');
    await runInProcess(['--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1']);
    // A live process that is no tmas: the pid a killed run's lock names, given since to another program.
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      await writeFile(path.join(run, 'tmas.lock'), JSON.stringify({ pid: other.pid, host: os.hostname(), since: '2026-01-01T00:00:00.000Z' }));
      const markdown = path.join(dir, 'report.md');
      const reported = await runCliInProcess(['report', run, '--out', markdown]);
      expect(reported.code, reported.stderr).toBe(0);
      const text = await readFile(markdown, 'utf8');
      expect(text).toContain(`still being written by a tmas process (pid ${other.pid}`);
      expect(text).toContain(`if no tmas process runs with pid ${other.pid}, the lock is stale: remove ${path.join(run, 'tmas.lock')}`);
    } finally {
      other.kill();
    }
  });
});
