/**
 * `tmas view` of a finished run whose store was damaged after its outputs were
 * written. The listing reads a finished run's row from metrics.json; before, a
 * store that lost its CURRENT, had a table cut short, a corrupt record in its
 * write-ahead log, or was replaced by a file
 * was listed `done` with its Pass@1, while `tmas report` refused the run and
 * every page of it said the store was damaged. Now the row is the error the
 * other commands give, and nothing in the directory changes.
 */
import { readFile, rm, truncate, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runViewCommand } from '../../src/cli/inspect/view.command.ts';
import { fileHashes, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

/** Each damage, done to a run directory, with the code the listing must give. */
const DAMAGES: Array<{ what: string; damage: (run: string) => Promise<void>; code: string }> = [
  { what: 'CURRENT deleted', damage: (run) => rm(path.join(run, 'store', 'CURRENT')), code: 'TMAS_STORE_DAMAGED' },
  {
    what: 'a table cut short',
    damage: async (run) => {
      const table = (await readdir(path.join(run, 'store'))).find((name) => name.endsWith('.ldb'));
      await truncate(path.join(run, 'store', table as string), 100);
    },
    code: 'TMAS_STORE_DAMAGED',
  },
  {
    // LevelDB's open drops a record that fails its checksum without a word: the run read as a shorter one.
    what: 'a record of the write-ahead log corrupted',
    damage: async (run) => {
      const log = path.join(run, 'store', (await readdir(path.join(run, 'store'))).find((name) => name.endsWith('.log')) as string);
      const bytes = await readFile(log);
      const at = Math.floor(bytes.length / 2);
      for (let i = at; i < at + 8; i++) bytes[i] = (bytes[i] ?? 0) ^ 0xff;
      await writeFile(log, bytes);
    },
    code: 'TMAS_STORE_DAMAGED',
  },
  {
    what: 'store/ replaced by a file',
    damage: async (run) => {
      await rm(path.join(run, 'store'), { recursive: true });
      await writeFile(path.join(run, 'store'), 'not a store');
    },
    code: 'TMAS_RUN_DIR',
  },
];

describe('the viewer lists a finished run whose store is damaged', () => {
  test('as the error tmas report gives, not as done with its figures; an intact run is listed done', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(2));
    const runs: string[] = [];
    for (const [at, { damage }] of [...DAMAGES, { damage: async () => {} }].entries()) {
      const run = path.join(dir, `run-${at}`);
      await runInProcess(['--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1']);
      await damage(run);
      runs.push(run);
    }
    const before = await Promise.all(runs.map((run) => fileHashes(run)));
    const viewer = await runViewCommand(runs, { port: 0 });
    try {
      const listed = (await (await fetch(`${viewer.url}api/runs`)).json()) as { runs: Array<{ dir: string; status: string; pass1: number | null; error: { code: string } | null }> };
      for (const [at, { what, code }] of DAMAGES.entries()) {
        const row = listed.runs.find((each) => each.dir === runs[at]);
        expect(row?.status, what).toBe('error');
        expect(row?.error?.code, what).toBe(code);
        expect(row?.pass1, what).toBeNull();
      }
      expect(listed.runs.find((each) => each.dir === runs[DAMAGES.length])?.status).toBe('done');
    } finally {
      await viewer.close();
    }
    expect(await Promise.all(runs.map((run) => fileHashes(run)))).toEqual(before);
  });
});
