/**
 * A message log that lost its end, or all of it, while the journal, the
 * iteration records and the outputs are intact. Before, it read as a shorter
 * run without a gap: with the whole log deleted, `tmas log` printed nothing
 * and exited 0, and a resume of the finished run exited 0 and wrote over its
 * metrics.json one of 0 problems, 0 iterations and no Pass@1.
 */
import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Level } from 'level';
import { describe, expect } from 'vitest';
import { fileHashes, finishedRunOfFile, runCliInProcess, test as base } from '../fixtures.ts';

const test = base.extend<{ loggedRun: string }>({
  loggedRun: finishedRunOfFile('tmas-log-end-', 2, ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2']),
});

/** Deletes the last `count` messages of the run's log (all of them when `count` is Infinity); resolves how many it held. */
async function cutLogEnd(run: string, count: number): Promise<number> {
  const db = new Level<string, unknown>(path.join(run, 'store'), { valueEncoding: 'json' });
  try {
    const messages = db.sublevel<string, unknown>('messages', { valueEncoding: 'json' });
    const keys = await messages.keys().all();
    for (const key of keys.slice(Math.max(0, keys.length - count))) await messages.del(key);
    return keys.length;
  } finally {
    await db.close();
  }
}

describe('a message log that lost its end', () => {
  for (const [name, count] of [
    ['deleted whole', Infinity],
    ['its last 10 messages deleted', 10],
  ] as const) {
    test(`${name}: log, report, replay and a resume refuse it (TMAS_STORE_DAMAGED, naming the messages lost) and change nothing; after a repair the resume goes on past them`, async ({ dir, loggedRun }) => {
      const run = path.join(dir, 'run');
      await cp(loggedRun, run, { recursive: true });
      const held = await cutLogEnd(run, count);
      const first = count === Infinity ? 0 : held - count;
      const before = await fileHashes(run);
      for (const args of [['log', run], ['report', run], ['replay', run], ['run', '--resume', run]]) {
        const tried = await runCliInProcess(args);
        expect(tried.code, `${args[0]}: ${tried.stderr}`).toBe(2);
        expect(tried.stderr, args[0]).toContain(`messages ${first} to ${held - 1} are lost`);
        expect(tried.stderr, args[0]).toMatch(/Nothing was changed\. Restore the run directory from a copy.*\[TMAS_STORE_DAMAGED\]/);
      }
      expect(await fileHashes(run)).toEqual(before);

      // The loss accepted: the repair notes the messages as lost, and the resume's own messages take numbers after them.
      const repaired = await runCliInProcess(['repair', run]);
      expect(repaired.code, repaired.stderr).toBe(0);
      // Said by the repair, which before counted the log's messages and named none lost.
      expect(repaired.stdout).toContain(`Its message log lost ${held - first} messages (${first}-${held - 1}): noted as lost`);
      const resumed = await runCliInProcess(['run', '--resume', run]);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/0 calls issued/);
      const logged = await runCliInProcess(['log', run]);
      expect(logged.code, logged.stderr).toBe(0);
      const seqs = logged.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { seq: number }).seq);
      expect(seqs.filter((seq) => seq >= first && seq < held)).toEqual([]);
      expect(Math.max(...seqs)).toBeGreaterThanOrEqual(held);
      expect(JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8'))).toHaveProperty('run');
    }, 60_000);
  }
});
