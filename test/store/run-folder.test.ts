import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect } from 'vitest';
import { openRun } from '../../src/analysis/open-run.ts';
import { UserError } from '../../src/kernel/errors.ts';
import { RUN_LOCK_FILE } from '../../src/store/run-lock.ts';
import { Level } from 'level';
import { createRunCatalog } from '../../src/viewer/run-catalog.ts';
import { listRuns } from '../../src/viewer/folder-api.ts';
import { findRuns } from '../../src/viewer/run-folder.ts';
import { problemList, problemListQuery, runProblemStats } from '../../src/viewer/problem-stats.ts';
import { runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

/** One finished run per file (3 problems, 2 iterations, a judge), copied where each test needs it. */
let finished = '';
beforeAll(async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tmas-folder-'));
  const input = await writeProblems(dir, smallProblems(3));
  finished = path.join(dir, 'run');
  await runInProcess(['--input-file', input, '--output-file', finished, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--judge-passes', '1', '--sim-output-tokens', '60']);
  return () => rm(dir, { recursive: true, force: true });
}, 60_000);

async function copyRun(to: string): Promise<string> {
  await cp(finished, to, { recursive: true });
  return to;
}

async function codeOf(work: Promise<unknown>): Promise<string | null> {
  return work.then(
    () => null,
    (error: unknown) => (error instanceof UserError ? error.code : String(error)),
  );
}

describe('the runs of a folder', () => {
  test('nested runs are found, a damaged store and an unparseable metrics.json are listed with their codes, a link loop is visited once, and the depth bound holds', async ({ dir }) => {
    const root = path.join(dir, 'experiments');
    await copyRun(path.join(root, 'a', 'run1'));
    await copyRun(path.join(root, 'a', 'b', 'c', 'run2'));
    await mkdir(path.join(root, 'broken', 'store'), { recursive: true });
    await writeFile(path.join(root, 'broken', 'store', 'CURRENT'), 'junk\n');
    await copyRun(path.join(root, 'half'));
    await writeFile(path.join(root, 'half', 'metrics.json'), '{"iterations": [');
    await symlink(root, path.join(root, 'a', 'loop'));

    const scan = await findRuns([root], { maxDepth: 4, maxRuns: 100 });
    expect(scan.found.map((f) => f.label)).toEqual(['experiments/broken', 'experiments/half', 'experiments/a/run1', 'experiments/a/b/c/run2']);
    expect(scan.truncated).toBeNull();

    const catalog = createRunCatalog(scan, openRun);
    try {
      const listed = await Promise.all(scan.found.map((_, index) => catalog.facts(index)));
      expect(listed.map((f) => [f.listing.status, f.listing.error?.code ?? null])).toEqual([
        ['error', 'TMAS_STORE_DAMAGED'],
        ['error', 'TMAS_RUN_DIR'],
        ['done', null],
        ['done', null],
      ]);
      expect(listed[2]?.listing).toMatchObject({ strategy: 'tmas', n: 2, m: 1, t: 2, grading: 'judge simulated ×1 (T 0.6, top_p 0.95)', iterations: 2 });
      // Listing a finished run reads its metrics.json: no store is opened for it.
      expect(listed[2]?.listing.calls).toBeGreaterThan(0);
    } finally {
      await catalog.close();
    }

    const shallow = await findRuns([root], { maxDepth: 3, maxRuns: 100 });
    expect(shallow.found.map((f) => f.label)).not.toContain('experiments/a/b/c/run2');
    expect(shallow.truncated).toMatch(/more than 3 levels/);
    const few = await findRuns([root], { maxDepth: 4, maxRuns: 2 });
    expect(few.found).toHaveLength(2);
    expect(few.truncated).toMatch(/first 2 runs/);

    expect(await codeOf(findRuns([path.join(dir, 'missing')]))).toBe('TMAS_RUN_DIR');
    await mkdir(path.join(dir, 'empty', 'deeper'), { recursive: true });
    expect(await codeOf(findRuns([path.join(dir, 'empty')]))).toBe('TMAS_RUN_DIR');
  });

  test('a command that reads one run, given a folder of runs (tmas table1\'s --output-file), names the runs in it to give instead', async ({ dir }) => {
    const table = path.join(dir, 'table1');
    for (const method of ['tmas', 'majority']) await mkdir(path.join(table, method, 'store'), { recursive: true });
    await mkdir(path.join(table, 'notes'));
    // Before: "it has no store/. Give the --output-file of a run." to a user who had given the table's.
    await expect(openRun(table)).rejects.toMatchObject({
      code: 'TMAS_RUN_DIR',
      message: expect.stringContaining(`holds the runs ${path.join(table, 'majority')}, ${path.join(table, 'tmas')}, as tmas table1 writes one per method: give one of them`),
    });
  });

  // Before, such a run's row folded its whole message log (1.75 CPU-s for a run of 13,120 calls, read again at each refresh of a live one).
  test('a run without its metrics.json is listed from its store\'s records, never its log: the Pass@1 and iterations metrics.json had, with the log cleared; the calls are left blank', async ({ dir }) => {
    const run = await copyRun(path.join(dir, 'stopped'));
    const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { totals: { final: { pass1: number } }; iterations: unknown[] };
    await rm(path.join(run, 'metrics.json'));
    const db = new Level<string, unknown>(path.join(run, 'store'), { valueEncoding: 'json' });
    await db.sublevel('messages').clear();
    // The counts a process keeps as it writes the outputs name how far it logged: a log that falls short of them is damage (log-end-check.ts).
    await db.sublevel('processes').clear();
    await db.close();
    const catalog = createRunCatalog(await findRuns([dir]), openRun);
    try {
      const { runs } = await listRuns(catalog);
      expect(runs[0]).toMatchObject({ status: 'stopped', error: null, strategy: 'tmas', n: 2, m: 1, t: 2, iterations: metrics.iterations.length, problems: 3, calls: null });
      expect(runs[0]?.pass1).toBe(metrics.totals.final.pass1);
    } finally {
      await catalog.close();
    }
  });

  test('a run another process holds is listed live and read without taking its lock; once that process is gone it is done', async ({ dir }) => {
    const run = await copyRun(path.join(dir, 'live'));
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const lock = JSON.stringify({ pid: holder.pid, host: os.hostname(), since: new Date().toISOString() });
      await writeFile(path.join(run, RUN_LOCK_FILE), lock);
      const catalog = createRunCatalog(await findRuns([dir]), openRun);
      try {
        const facts = await catalog.facts(0);
        expect(facts.listing.status).toBe('live');
        expect(facts.listing.pass1).not.toBeNull();
        const viewed = await catalog.run(0);
        expect(viewed.live()).toBe(true);
        expect((await viewed.curves()).length).toBe(2);
        expect(await readFile(path.join(run, RUN_LOCK_FILE), 'utf8')).toBe(lock);
        holder.kill();
        await new Promise((resolve) => holder.once('exit', resolve));
        expect((await catalog.facts(0)).listing.status).toBe('done');
      } finally {
        await catalog.close();
      }
    } finally {
      holder.kill();
    }
  });

  test('the problem figures agree with metrics.json: final Pass@1 per problem, and the tokens of all problems are the run\'s', async ({ dir }) => {
    const run = await copyRun(path.join(dir, 'run'));
    const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as {
      problems: Array<{ problem: string; iterations: Array<{ pass1: number | null; disagreements: number }> }>;
      totals: { tokens: { total: number } };
    };
    const catalog = createRunCatalog(await findRuns([run]), openRun);
    try {
      const stats = await runProblemStats((await catalog.run(0)).store);
      for (const figures of metrics.problems) {
        expect(stats.get(figures.problem)?.pass1).toBe(figures.iterations.at(-1)?.pass1);
        expect(stats.get(figures.problem)?.judgeRule).toBe(figures.iterations.reduce((sum, it) => sum + it.disagreements, 0));
      }
      expect([...stats.values()].reduce((sum, s) => sum + s.tokens, 0)).toBe(metrics.totals.tokens.total);

      const byTokens = problemList([stats], problemListQuery(new URLSearchParams('runs=0&sort=tokens&desc=1')));
      const tokens = byTokens.rows.map((row) => row.tokens);
      expect(tokens).toEqual([...tokens].sort((a, b) => b - a));
      const one = problemList([stats], problemListQuery(new URLSearchParams('runs=0&q=p2&limit=1')));
      expect(one.rows.map((row) => row.id)).toEqual(['p2']);
      expect(one.next).toBeNull();
    } finally {
      await catalog.close();
    }
  });
});
