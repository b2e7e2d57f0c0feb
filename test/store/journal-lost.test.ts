/**
 * A journal deleted from a store whose iteration records, message log and
 * outputs are intact. Before, the commands that read the journal took it for
 * a run that made no call: `tmas calls` printed nothing with exit 0, export
 * and plan said no call had completed, replay listed each call as a
 * divergence, and a fork sent (and paid for) every call again.
 */
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { Level } from 'level';
import { describe, expect } from 'vitest';
import { fileHashes, finishedRunOfFile, runCliInProcess, test as base } from '../fixtures.ts';

const test = base.extend<{ journaledRun: string }>({
  journaledRun: finishedRunOfFile('tmas-journal-lost-', 2, ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1']),
});

describe('a journal deleted, the rest of the store intact', () => {
  test('calls, export, replay, plan and fork refuse it (TMAS_STORE_DAMAGED, saying what each would have done), nothing changes and no fork is made; log, show and report read what is intact', async ({ dir, journaledRun }) => {
    const run = path.join(dir, 'run');
    await cp(journaledRun, run, { recursive: true });
    const db = new Level<string, unknown>(path.join(run, 'store'), { valueEncoding: 'json' });
    await db.sublevel('calls').clear();
    await db.close();
    const before = await fileHashes(run);
    const fork = path.join(dir, 'fork');
    for (const [args, would] of [
      [['calls', run], 'tmas calls would list none'],
      [['export', run, '--out', path.join(dir, 'export')], 'An export would hold none of its generations'],
      [['replay', run], 'A replay would find no call to serve'],
      [['plan', '--from', run], 'A plan would read its calls as none made'],
      [['fork', run, '--output-file', fork], 'A fork would send every one of its calls again'],
    ] as const) {
      const tried = await runCliInProcess([...args]);
      expect(tried.code, `${args[0]}: ${tried.stderr}`).toBe(2);
      expect(tried.stderr, args[0]).toMatch(/its journal holds no call, yet the run completed iterations with candidates/);
      expect(tried.stderr, args[0]).toContain(would);
      expect(tried.stderr, args[0]).toMatch(/Nothing was changed\. Restore the run directory from a copy.*\[TMAS_STORE_DAMAGED\]/);
    }
    expect(await fileHashes(run)).toEqual(before);
    expect(await fileHashes(dir).then((files) => Object.keys(files).filter((file) => file.startsWith('fork') || file.startsWith('export')))).toEqual([]);
    for (const args of [['log', run], ['show', run, '--problem', 'p1'], ['report', run, '--format', 'md']]) {
      const read = await runCliInProcess(args);
      expect(read.code, `${args[0]}: ${read.stderr}`).toBe(0);
    }
  }, 60_000);
});
