/**
 * A stored value that decodes as JSON yet is not the record tmas wrote there
 * (a number for a journaled call, a message without its type, banks without
 * their lists): it passes every checksum, so only its shape tells. Before,
 * each command that read it stopped with an internal error and a stack
 * (`Cannot read properties of undefined (reading 'promptTokens')`, exit 1),
 * and `tmas repair` kept it, so the damage could not be undone.
 */
import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Level } from 'level';
import { describe, expect } from 'vitest';
import { fileHashes, finishedRunOfFile, readJournal, runCliInProcess, test as base } from '../fixtures.ts';

const test = base.extend<{ shapedRun: string }>({
  shapedRun: finishedRunOfFile('tmas-misshapen-', 2, ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2'], async (run) => run),
});

/** Replaces the value of the `index`th record of `sublevel` in the run's store by `value`; resolves its key. */
async function replaceRecord(run: string, sublevel: string, index: number, value: unknown): Promise<string> {
  const db = new Level<string, unknown>(path.join(run, 'store'), { valueEncoding: 'json' });
  try {
    const keys = await db.sublevel<string, unknown>(sublevel, { valueEncoding: 'json' }).keys().all();
    const key = keys[index] as string;
    await db.sublevel<string, unknown>(sublevel, { valueEncoding: 'json' }).put(key, value);
    return key;
  } finally {
    await db.close();
  }
}

// prettier-ignore
const cases: Array<{ name: string; sublevel: string; kind: string; value: unknown; says: string; commands: (run: string, dir: string) => string[][] }> = [
  { name: 'a number for a journaled call', sublevel: 'calls', kind: 'call', value: 42, says: 'it is 42, not a record',
    commands: (run, dir) => [['calls', run], ['export', run, '--out', path.join(dir, 'rl')], ['report', run, '--out', path.join(dir, 'r.html')], ['plan', '--from', run], ['replay', run], ['fork', run, '--output-file', path.join(dir, 'fork')], ['run', '--resume', run]] },
  { name: 'a message without its type', sublevel: 'messages', kind: 'message', value: { seq: 3, at: 0, from: 'x', to: 'log', message: {} }, says: 'its "message.type" is missing',
    commands: (run, dir) => [['log', run], ['export', run, '--out', path.join(dir, 'rl')], ['plan', '--from', run], ['run', '--resume', run]] },
  { name: 'banks without their lists', sublevel: 'banks', kind: 'banks', value: { x: 1 }, says: 'its "experience" is missing',
    commands: (run, dir) => [['report', run, '--out', path.join(dir, 'r.html')], ['export', run, '--out', path.join(dir, 'rl')], ['run', '--resume', run]] },
];

describe('a stored record of the wrong shape', () => {
  test.for(cases)('$name: every command that reads it refuses with TMAS_STORE_DAMAGED naming the record, never a stack, and nothing changes', async ({ sublevel, kind, value, says, commands }, { dir, shapedRun }) => {
    const run = path.join(dir, 'run');
    await cp(shapedRun, run, { recursive: true });
    // The first banks, which the export's records of the next iteration carry; the second record of the others.
    const key = await replaceRecord(run, sublevel, sublevel === 'banks' ? 0 : 1, value);
    const before = await fileHashes(run);
    for (const args of commands(run, dir)) {
      const refused = await runCliInProcess(args);
      expect(refused.code, `${args.join(' ')}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr, args[0]).toContain(`The store of ${run} is damaged: `);
      expect(refused.stderr, args[0]).toContain(`${kind} record ${key}`);
      expect(refused.stderr, args[0]).toContain(says);
      expect(refused.stderr, args[0]).toMatch(/tmas repair .*\[TMAS_STORE_DAMAGED\]/s);
      expect(refused.stderr, args[0]).not.toMatch(/internal error|\n\s+at /);
      // A resume too reads every record back before it writes anything (before, it met the record where it read it: a
      // finished run's resume logged its start and six messages into the store first, and a call's was not refused at all).
      expect(await fileHashes(run), args[0]).toEqual(before);
      if (args[0] === 'run') expect(refused.stderr).toContain('Nothing was changed.');
    }
  });

  test('repair drops a misshapen call (before, it kept it: every command went on failing), and the resume completes with the results of the run before the damage', async ({ dir, shapedRun }) => {
    const run = path.join(dir, 'run');
    await cp(shapedRun, run, { recursive: true });
    const calls = (await readJournal(run)).length;
    const results = await readFile(path.join(run, 'results.jsonl'), 'utf8');
    const key = await replaceRecord(run, 'calls', 0, { key: 'x' });
    const repaired = await runCliInProcess(['repair', run]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain(`call record ${key} (its "role" is missing)`);
    expect(repaired.stdout).toContain(`${calls - 1} journaled calls`);
    const resumed = await runCliInProcess(['run', '--resume', run]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await readFile(path.join(run, 'results.jsonl'), 'utf8')).toBe(results);
    expect((await runCliInProcess(['calls', run])).code).toBe(0);
  });

  // Before: the log and the export read past the gap, and a resume folded the log into a metrics.json one call, its tokens
  // and its output short, exit 0, without a word.
  test('a message deleted from the middle of the log: log, export, replay, plan --from and a resume refuse it naming the message; after a repair, which notes the gap, they read it', async ({ dir, shapedRun }) => {
    const run = path.join(dir, 'run');
    await cp(shapedRun, run, { recursive: true });
    const db = new Level<string, unknown>(path.join(run, 'store'), { valueEncoding: 'json' });
    await db.sublevel('messages').del('000000000005');
    await db.close();
    const before = await fileHashes(run);
    for (const args of [['log', run], ['export', run, '--out', path.join(dir, 'rl')], ['replay', run], ['plan', '--from', run], ['run', '--resume', run]]) {
      const refused = await runCliInProcess(args);
      expect(refused.code, `${args.join(' ')}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr, args[0]).toContain(`The store of ${run} is damaged: its message log has a gap: message 5 is missing, the log going on at 6`);
      expect(refused.stderr, args[0]).toContain('[TMAS_STORE_DAMAGED]');
      expect(await fileHashes(run), args[0]).toEqual(before);
    }
    expect((await runCliInProcess(['repair', run])).code).toBe(0);
    for (const args of [['log', run], ['run', '--resume', run]]) {
      const read = await runCliInProcess(args);
      expect(read.code, `${args[0]}: ${read.stderr}`).toBe(0);
    }
  });

  // Before: the repair itself stopped, exit 2, on the gap it had just noted (its check of the manifest reads the first
  // message), telling to run tmas repair; only a second repair went through.
  test('the first messages lost (the oldest table of the log): one repair notes the gap and the log reads', async ({ dir, shapedRun }) => {
    const run = path.join(dir, 'run');
    await cp(shapedRun, run, { recursive: true });
    const db = new Level<string, unknown>(path.join(run, 'store'), { valueEncoding: 'json' });
    await db.sublevel('messages').batch([0, 1, 2].map((seq) => ({ type: 'del' as const, key: String(seq).padStart(12, '0') })));
    await db.close();
    const repaired = await runCliInProcess(['repair', run]);
    expect(repaired.code, repaired.stderr).toBe(0);
    const log = await runCliInProcess(['log', run]);
    expect(log.code, log.stderr).toBe(0);
    expect(log.stdout.split('\n')[0]).toContain('"seq":3');
  });
});
