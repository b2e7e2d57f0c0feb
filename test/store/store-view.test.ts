import { spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ClassicLevel } from 'classic-level';
import { describe, expect } from 'vitest';
import { printedUrl } from '../../bench/harness/child-process.ts';
import { openStoreView } from '../../src/store/repair/check.ts';
import { BIN, fileHashes, REPO, runCli, runCliInProcess, finishedRunOfFile, test as base } from '../fixtures.ts';

/**
 * `test` with `viewedRun`: one finished two-problem run per file, in table
 * files (an open and close moves LevelDB's log into a table). Every test
 * reads or damages a copy of its own.
 */
const test = base.extend<{ viewedRun: string }>({
  viewedRun: finishedRunOfFile('tmas-view-', 2, ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2']),
});

async function copyRun(dir: string, run: string): Promise<string> {
  const copy = path.join(dir, 'run');
  await cp(run, copy, { recursive: true });
  return copy;
}

/** Every file of a folder with its inode, size and modification time: what a write into it, in place or by link, would change. */
async function fileIdentities(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of await readdir(dir, { recursive: true })) {
    const info = await stat(path.join(dir, name));
    if (info.isFile()) out[name] = `${info.ino}:${info.size}:${info.mtimeMs}`;
  }
  return out;
}

const tablesOf = async (store: string) => (await readdir(store)).filter((name) => /\.(ldb|sst)$/.test(name)).sort();

async function largestTable(store: string): Promise<string> {
  const sized = await Promise.all((await tablesOf(store)).map(async (name) => ({ name, size: (await stat(path.join(store, name))).size })));
  const largest = sized.sort((a, b) => b.size - a.size)[0];
  if (!largest) throw new Error('no table file');
  return path.join(store, largest.name);
}

/** The user a read-only directory stops when we are root (as root a mode bit stops nothing). */
const NOBODY = { uid: 65534, gid: 65534 };

/** Starts `tmas view DIR` and resolves the JSON of its run list, then stops it. */
async function viewRunList(run: string, user: { uid?: number; gid?: number }): Promise<unknown> {
  const child = spawn(process.execPath, [BIN, 'view', run, '--port', '0'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], ...user });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const base = await printedUrl(child, () => stderr);
    const response = await fetch(`${base}api/runs`);
    expect(response.status).toBe(200);
    return await response.json();
  } finally {
    child.kill('SIGINT');
    await exited;
  }
}

describe('a private view of a store', () => {
  test("links the run's tables, and the run's files stay as they were after the view is read, written and compacted", async ({ dir, viewedRun }) => {
    const run = await copyRun(dir, viewedRun);
    const store = path.join(run, 'store');
    const hashes = await fileHashes(run);
    const identities = await fileIdentities(run);
    const into = path.join(dir, 'view');
    await mkdir(into);
    const view = await openStoreView(run, into);
    try {
      expect((await view.getManifest())?.config).toMatchObject({ loop: { nCandidates: 2 } });
      expect(await view.loadProblems()).toHaveLength(2);
    } finally {
      await view.close();
    }
    const tables = await tablesOf(store);
    expect(tables.length).toBeGreaterThan(0);
    // Every table of the run is the same file in the view (its open may add a table of its own, from the log).
    for (const name of tables) {
      const [original, linked] = await Promise.all([stat(path.join(store, name)), stat(path.join(into, 'store', name))]);
      expect(linked.ino, name).toBe(original.ino);
      expect(linked.dev, name).toBe(original.dev);
    }

    // Written to and compacted, the view writes new tables and deletes its links: the run's files are untouched.
    const db = new ClassicLevel<string, string>(path.join(into, 'store'), { createIfMissing: false });
    await db.open();
    await db.batch(Array.from({ length: 2000 }, (_, i) => ({ type: 'put' as const, key: `zz-${String(i).padStart(5, '0')}`, value: 'x'.repeat(200) })));
    await db.clear({ lt: 'm' });
    await db.compactRange('', '~');
    await db.close();
    const after = await tablesOf(path.join(into, 'store'));
    expect(after.filter((name) => !tables.includes(name)).length).toBeGreaterThan(0);
    expect(tables.filter((name) => !after.includes(name)).length).toBeGreaterThan(0);
    expect(await fileIdentities(run)).toEqual(identities);
    expect(await fileHashes(run)).toEqual(hashes);

    // A command reads the run the same way.
    const exported = await runCliInProcess(['export', run, '--out', path.join(dir, 'rl')]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(await fileIdentities(run)).toEqual(identities);
  });

  test('on another file system (TMPDIR elsewhere) the tables cannot be linked: the view copies them and reads the same', async ({ dir, viewedRun, skip }) => {
    const run = await copyRun(dir, viewedRun);
    const other = (await stat('/dev/shm').catch(() => null))?.dev;
    if (other === undefined || other === (await stat(dir)).dev) skip('no /dev/shm on a file system of its own');
    const into = await mkdtemp(path.join('/dev/shm', 'tmas-view-test-'));
    try {
      const identities = await fileIdentities(run);
      const view = await openStoreView(run, into);
      try {
        expect(await view.loadProblems()).toHaveLength(2);
        expect((await view.getManifest())?.config).toMatchObject({ loop: { nCandidates: 2 } });
      } finally {
        await view.close();
      }
      const store = path.join(run, 'store');
      for (const name of await tablesOf(store)) {
        const copied = await stat(path.join(into, 'store', name)).catch(() => null);
        if (copied) expect(copied.dev, name).not.toBe((await stat(path.join(store, name))).dev);
      }
      expect(await fileIdentities(run)).toEqual(identities);
    } finally {
      await rm(into, { recursive: true, force: true });
    }
  });

  test('a table the MANIFEST names and the folder lacks: TMAS_STORE_DAMAGED naming it, before LevelDB opens the store, nothing changed', async ({ dir, viewedRun }) => {
    const run = await copyRun(dir, viewedRun);
    const store = path.join(run, 'store');
    const lost = (await tablesOf(store))[0] as string;
    await rm(path.join(store, lost));
    const before = await fileHashes(run);
    for (const args of [['log', run], ['export', run, '--out', path.join(dir, 'rl')], ['run', '--resume', run]]) {
      // In this process (a child is 0.3 to 2 CPU-s a command): the refusal comes before LevelDB opens the store.
      const refused = await runCliInProcess(args);
      expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
      // Our own check's words (LevelDB's open says "N missing files").
      expect(refused.stderr, args[0]).toMatch(new RegExp(`store/${lost.replace('.', '\\.')}, a table named by store/MANIFEST-\\d+, is missing\\. Nothing was changed\\. Run \`tmas repair .*TMAS_STORE_DAMAGED`, 's'));
      expect(refused.stderr, args[0]).not.toMatch(/\n\s+at /);
      expect(await fileHashes(run), args[0]).toEqual(before);
    }
  });

  test('a corrupt block: log and calls meet it where they read it, export and replay (which read every record) before they read; each exits 2 with TMAS_STORE_DAMAGED naming the table, no stack trace, nothing changed', async ({ dir, viewedRun }) => {
    const run = await copyRun(dir, viewedRun);
    const table = await largestTable(path.join(run, 'store'));
    const name = path.basename(table).replace('.', '\\.');
    // Inside its first data block: the size and the footer are as the MANIFEST says, so the structure check does not see it.
    const bytes = await readFile(table);
    for (let i = 40; i < Math.min(bytes.length - 100, 1040); i++) bytes[i] = (bytes[i] ?? 0) ^ 0x5a;
    await writeFile(table, bytes);
    const before = await fileHashes(run);
    for (const args of [['log', run], ['calls', run], ['export', run, '--out', path.join(dir, 'rl')], ['replay', run]]) {
      const refused = await runCli(args);
      expect(await fileHashes(run), args[0]).toEqual(before);
      const everyBlock = args[0] === 'export' || args[0] === 'replay';
      // A command that never reads the damaged block gives its output whole.
      if (refused.code === 0 && !everyBlock) continue;
      expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
      // Met on a read: LevelDB's own words for the block (e.g. "Corruption: bad block type"), which name no file, then the table; checked before: the table.
      const lazily = new RegExp(`is damaged: a table cannot be read \\(Corruption: [^)]*\\); store/${name}, a table, is corrupt: .* fails its checksum`);
      const first = new RegExp(`is damaged: store/${name}, a table, is corrupt: .* fails its checksum`);
      expect(refused.stderr, args[0]).toMatch(everyBlock ? first : lazily);
      expect(refused.stderr, args[0]).toMatch(/tmas repair.*TMAS_STORE_DAMAGED/s);
      expect(refused.stderr, args[0]).not.toMatch(/internal error|\n\s+at /);
    }
  });

  // Stopped once a page had opened its run's store, the viewer was cut short by the scratch views' own signal handler,
  // counted after its `once` handler had taken itself off: its store never closed, and removing the view under LevelDB's
  // compaction printed 'Error: ENOTEMPTY … at rimrafSync' and exited 1 (on a 400-problem run, each time).
  test('tmas view stopped (Ctrl-C, SIGTERM) once a run is open closes it itself: exit 0, nothing on stderr, no private view left', async ({ dir, viewedRun }) => {
    const run = await copyRun(dir, viewedRun);
    const scratch = path.join(dir, 'tmp');
    await mkdir(scratch);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const child = spawn(process.execPath, [BIN, 'view', run, '--port', '0'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: scratch } });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const base = await printedUrl(child, () => stderr);
      // The problem table opens the run's store (its private view under TMPDIR).
      expect((await fetch(`${base}api/runs/0/problems?limit=50`)).status).toBe(200);
      const views = async () => (await readdir(scratch, { recursive: true })).filter((name) => path.basename(name).startsWith(`${child.pid}-`));
      expect(await views(), signal).not.toEqual([]);
      child.kill(signal);
      expect(await exited, `${signal}: ${stderr}`).toBe(0);
      expect(stderr, signal).toBe('');
      expect(await views(), signal).toEqual([]);
    }
  });

  test('a read-only run directory (an archive): tmas view and tmas export read it and change nothing', async ({ dir, viewedRun, skip }) => {
    await chmod(dir, 0o755);
    const archived = await copyRun(dir, viewedRun);
    for (const entry of [archived, ...(await readdir(archived, { recursive: true })).map((name) => path.join(archived, name))]) {
      await chmod(entry, (await stat(entry)).isDirectory() ? 0o555 : 0o444);
    }
    // As root the commands run as nobody, who owns none of the files: the kernel refuses to link them (fs.protected_hardlinks), so the view copies.
    const user = process.getuid?.() === 0 ? NOBODY : {};
    const tried = await runCli(['--version'], { ...user, cwd: dir });
    if (tried.code !== 0) skip(`the user nobody cannot run tmas from ${REPO}: ${tried.stderr.split('\n')[0] ?? ''}`);
    const out = path.join(dir, 'out');
    await mkdir(out, { mode: 0o777 });
    await chmod(out, 0o777);
    const before = await fileHashes(archived);
    const identities = await fileIdentities(archived);
    try {
      const runs = (await viewRunList(archived, user)) as Array<{ problems?: number }> | { runs?: unknown[] };
      expect(JSON.stringify(runs)).toMatch(/tmas|problems|run/);
      const exported = await runCli(['export', archived, '--out', path.join(out, 'rl')], { ...user, cwd: dir });
      expect(exported.code, exported.stderr).toBe(0);
      expect(await fileHashes(archived)).toEqual(before);
      expect(await fileIdentities(archived)).toEqual(identities);
    } finally {
      for (const entry of [archived, ...(await readdir(archived, { recursive: true })).map((name) => path.join(archived, name))]) await chmod(entry, 0o755);
    }
  });
});

describe('the filters of tmas log, calls and show', () => {
  // A problem or role the run lacks matched nothing: `tmas calls DIR --role verifier` printed nothing and exited 0.
  test('a problem, a role, a type or an iteration the run has none of: exit 2 naming what it has, nothing printed; a role it has streams its calls', async ({ viewedRun }) => {
    const roles = 'its roles: solution, verification, summary, experience, guideline';
    const refused: Array<[string[], string]> = [
      [['calls', viewedRun, '--role', 'verifier'], `--role verifier: the tmas run in ${viewedRun} has no such role (${roles}). [TMAS_USAGE]`],
      [['log', viewedRun, '--role', 'sumary'], `--role sumary: the tmas run in ${viewedRun} has no such role (${roles}). [TMAS_USAGE]`],
      [['log', viewedRun, '--problem', 'p9'], `--problem p9: no such problem in ${viewedRun} (its problems include p1, p2). [TMAS_USAGE]`],
      [['calls', viewedRun, '--problem', 'p9'], `--problem p9: no such problem in ${viewedRun} (its problems include p1, p2). [TMAS_USAGE]`],
      [['log', viewedRun, '--type', 'bank'], '--type bank: no message type is a single word'],
      [['show', viewedRun, '--problem', 'p1', '--iteration', '7'], `p1 has no completed iteration 7 in ${viewedRun} (its completed iterations: 0 to 1). [TMAS_USAGE]`],
    ];
    for (const [args, says] of refused) {
      const result = await runCliInProcess(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`tmas: ${says}`);
      expect(result.stdout).toBe('');
    }
    const calls = await runCliInProcess(['calls', viewedRun, '--role', 'verification', '--problem', 'p2']);
    expect(calls.code, calls.stderr).toBe(0);
    // 2 candidates × 1 verification × 2 iterations.
    expect(calls.stdout.trim().split('\n')).toHaveLength(4);
  });
});
