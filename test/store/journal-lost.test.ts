/**
 * A journal deleted from a store whose iteration records, message log and
 * outputs are intact. Before, the commands that read the journal took it for
 * a run that made no call: `tmas calls` printed nothing with exit 0, export
 * and plan said no call had completed, replay listed each call as a
 * divergence, and a fork sent (and paid for) every call again.
 *
 * A journal that lost some of its records (a table of them gone, or the
 * records deleted) while the message log still holds the replies of those
 * calls: the same commands read on as if nothing were missing (`tmas calls`
 * listed the rest with exit 0, a fork sent them again, paid, without a word).
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
  test('calls, export, replay, plan, fork and a resume refuse it (TMAS_STORE_DAMAGED, saying what each would have done), nothing changes and no fork is made; log, show and report read what is intact', async ({ dir, journaledRun }) => {
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
      [['run', '--resume', run, '--max-iterations', '2'], 'A resume would send every call of the iterations it finishes again'],
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

/** Deletes the journal records of `count` calls of the run's, the first in key order; resolves their keys and how many the journal held. */
async function loseCalls(run: string, count: number): Promise<{ lost: string[]; held: number }> {
  const db = new Level<string, unknown>(path.join(run, 'store'), { valueEncoding: 'json' });
  const calls = db.sublevel<string, unknown>('calls', { valueEncoding: 'json' });
  const keys = await calls.keys().all();
  const lost = keys.slice(0, count);
  await calls.batch(lost.map((key) => ({ type: 'del' as const, key })));
  await db.close();
  return { lost, held: keys.length };
}

describe('a journal that lost some calls whose replies the message log holds', () => {
  test('calls, export, replay, plan and fork refuse it (TMAS_STORE_DAMAGED, naming the run, how many, and tmas repair), nothing changes; once tmas repair notes the loss, they read on, and a resume warns of the calls it may pay for again', async ({ dir, journaledRun }) => {
    const run = path.join(dir, 'run');
    await cp(journaledRun, run, { recursive: true });
    const { lost, held } = await loseCalls(run, 3);
    const before = await fileHashes(run);
    const fork = path.join(dir, 'fork');
    for (const args of [['calls', run], ['export', run, '--out', path.join(dir, 'export')], ['replay', run], ['plan', '--from', run], ['fork', run, '--output-file', fork]]) {
      const tried = await runCliInProcess(args);
      expect(tried.code, `${args[0]}: ${tried.stderr}`).toBe(2);
      expect(tried.stderr, args[0]).toContain(`The store of ${run} is damaged: its message log holds the replies of 3 calls (of ${held} replies logged) that its journal does not hold`);
      expect(tried.stderr.match(/\(the first: ([^)]+)\)/)?.[1], args[0]).toBeOneOf(lost);
      expect(tried.stderr, args[0]).toMatch(/Nothing was changed\. Restore the run directory from a copy; or accept the loss with `tmas repair .*\[TMAS_STORE_DAMAGED\]/);
    }
    expect(await fileHashes(run)).toEqual(before);
    expect(Object.keys(await fileHashes(dir)).filter((file) => file.startsWith('fork') || file.startsWith('export'))).toEqual([]);

    const repaired = await runCliInProcess(['repair', run]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain('Its message log holds the replies of 3 calls its journal lost, which no repair brings back: noted as lost');
    const listed = await runCliInProcess(['calls', run]);
    expect(listed.code, listed.stderr).toBe(0);
    for (const key of lost) expect(listed.stdout).not.toContain(key);
    // A resume goes on, and says that what it needs of those calls is paid for again.
    const resumed = await runCliInProcess(['run', '--resume', run, '--max-iterations', '2']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`tmas: warning: the journal of ${run} lost 3 calls (noted by tmas repair): this resume sends again, and pays for, those of them the run still needs.`);

    // A loss past what the repair noted is refused again.
    await loseCalls(run, 1);
    const again = await runCliInProcess(['calls', run]);
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toContain('its message log holds the replies of 4 calls');
  }, 60_000);
});
