import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, lstat, mkdir, readdir, readFile, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Level } from 'level';
import { describe, expect } from 'vitest';
import { repairStore } from '../../src/store/repair/repair.ts';
import { runLockHolder } from '../../src/store/run-lock.ts';
import { Store } from '../../src/store/store.ts';
import { referencedTexts } from '../../src/store/texts.ts';
import { chatCompletionBody, fileHashes, readJournal, REPO, runCli, runCliInProcess, runInProcess, serveHttp, smallProblems, finishedRunOfFile, test as base, writeProblems } from '../fixtures.ts';

/** A finished run: its directory and how many calls its journal holds. */
interface FinishedRun {
  run: string;
  calls: number;
}

/**
 * `test` with `finished`: one finished two-problem run per file, whose journal
 * lies in table files (an open and close moves LevelDB's log into a table).
 * Every test damages a copy of its own (see `finishedRun`), so the run is made
 * once rather than once per test.
 */
const test = base.extend<{ finished: FinishedRun }>({
  finished: finishedRunOfFile('tmas-damaged-', 2, ['--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2'], async (run) => ({ run, calls: (await readJournal(run)).length })),
});

/** The user the read-only case runs its commands as when we are root. */
const NOBODY = { uid: 65534, gid: 65534 };

/**
 * Why `user` cannot run this checkout's tmas with `cwd` as its folder, or
 * null when it can: tried for real (`tmas --version`), since a checkout in a
 * private folder (mode 700 above it) or a node it cannot reach stops it.
 */
async function cannotRunTmas(user: { uid: number; gid: number }, cwd: string): Promise<string | null> {
  try {
    const tried = await runCli(['--version'], { ...user, cwd });
    if (tried.code === 0) return null;
    // Node's own error line (`Error: Cannot find module …`), not the location it prints first.
    const lines = tried.stderr.trim().split('\n');
    return `exit ${tried.code}: ${(lines.find((line) => /Error\b/.test(line)) ?? lines[0] ?? '').trim()}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A copy of the file's finished run in `dir`, for a test to damage. */
async function finishedRun(dir: string, finished: FinishedRun): Promise<FinishedRun> {
  const run = path.join(dir, 'run');
  await cp(finished.run, run, { recursive: true });
  return { run, calls: finished.calls };
}

async function largestTable(run: string): Promise<string> {
  const store = path.join(run, 'store');
  const tables = (await readdir(store)).filter((name) => name.endsWith('.ldb'));
  const sizes = await Promise.all(tables.map(async (name) => ({ name, size: (await stat(path.join(store, name))).size })));
  const largest = sizes.sort((a, b) => b.size - a.size)[0];
  if (!largest) throw new Error('no table file');
  return path.join(store, largest.name);
}

async function flipBytes(file: string, from: number, count: number): Promise<void> {
  const bytes = await readFile(file);
  for (let i = from; i < Math.min(bytes.length, from + count); i++) bytes[i] = (bytes[i] ?? 0) ^ 0xff;
  await writeFile(file, bytes);
}

/**
 * Changes one letter of a chunk of a text the message log refers to, where a table or the log holds it as written (a literal of its compression), so
 * the stored value still parses, as another text; false when none is found. Opening the store first moves its log into a table.
 */
async function changeLetterOfStoredText(store: string): Promise<boolean> {
  const db = new Level<string, unknown>(store, { valueEncoding: 'json' });
  const sub = (name: string) => db.sublevel<string, unknown>(name, { valueEncoding: 'json' });
  // The chunks of the texts the message log refers to, which tmas log reads.
  const texts: string[] = [];
  for await (const message of sub('messages').values()) {
    for (const digest of referencedTexts(message)) {
      const chunks = (await sub('texts').get(digest)) as string[];
      for (const chunk of await sub('chunks').getMany(chunks)) if (typeof chunk === 'string') texts.push(chunk);
    }
  }
  await db.close();
  const files = (await readdir(store)).filter((name) => name.endsWith('.ldb') || name.endsWith('.log')).map((name) => path.join(store, name));
  for (const text of texts) {
    const piece = Buffer.from(text.slice(0, 24));
    if (piece.length < 24 || !/^[ -~]+$/.test(text.slice(0, 24))) continue;
    for (const file of files) {
      const bytes = await readFile(file);
      const at = bytes.indexOf(piece);
      const letter = piece.findIndex((byte) => byte >= 0x61 && byte <= 0x7a);
      if (at < 0 || letter < 0) continue;
      bytes[at + letter] = bytes[at + letter] === 0x71 ? 0x78 : 0x71;
      await writeFile(file, bytes);
      return true;
    }
  }
  return false;
}

/**
 * `marksKept`: the repair drops one block, which may hold calls of an iteration whose mark (in another
 * block) it keeps: the resume does not do a completed iteration again, so such a call is not re-issued.
 *
 * `lazy`: damage inside a table's blocks, which the structure check before an open does not see (it
 * reads no table whole, so that opening a run costs what its files number). A resume, an export and a
 * replay read every block first and refuse it, naming the table; log, show and report meet it only
 * where they read it, and change nothing either way.
 */
const damages: Array<{ name: string; damage: (run: string) => Promise<void>; says: RegExp; lazy?: boolean; marksKept?: boolean }> = [
  { name: 'store/CURRENT missing', damage: (run) => rm(path.join(run, 'store', 'CURRENT')), says: /CURRENT.*missing/ },
  {
    name: 'a truncated table file',
    damage: async (run) => {
      const table = await largestTable(run);
      await truncate(table, Math.floor((await stat(table)).size / 2));
    },
    says: /\.ldb|table/,
  },
  {
    name: 'a corrupted table file',
    damage: async (run) => {
      const table = await largestTable(run);
      await flipBytes(table, 100, 2000);
    },
    says: /store\/\d+\.ldb, a table, is corrupt: .*fails its checksum/,
    lazy: true,
  },
  {
    // LevelDB reads such a block back as other text without an error: only its checksum tells.
    name: 'one byte flipped in the middle of a table',
    damage: async (run) => {
      const table = await largestTable(run);
      await flipBytes(table, Math.floor((await stat(table)).size / 2), 1);
    },
    says: /store\/\d+\.ldb, a table, is corrupt: the block at bytes \d+-\d+ fails its checksum/,
    lazy: true,
    marksKept: true,
  },
  {
    name: 'a flipped MANIFEST',
    damage: async (run) => {
      const manifest = (await readdir(path.join(run, 'store'))).find((name) => name.startsWith('MANIFEST-'));
      await flipBytes(path.join(run, 'store', manifest as string), 0, 64);
    },
    says: /MANIFEST|corrupt|checksum/i,
  },
];

/** The commands that read only what they need: they meet damage inside a table only where they read. */
const LAZY_COMMANDS = new Set(['log', 'show', 'report']);

describe('a damaged store is named and never changed', () => {
  for (const { name, damage, says, lazy, marksKept } of damages) {
    test(`${name}: resume, export, replay${lazy ? ', fork' : ', log, show and report'} refuse it with TMAS_STORE_DAMAGED naming it before writing anything, and no file changes; repair recovers and the resume re-issues only lost calls`, async ({ dir, finished }) => {
      const { run, calls } = await finishedRun(dir, finished);
      await damage(run);
      const before = await fileHashes(run);
      // A fork checks every block as a replay does (the damage the structure check finds, it finds alike).
      const fork = lazy ? [['fork', run, '--output-file', path.join(dir, 'forked')]] : [];
      // prettier-ignore
      for (const args of [['run', '--resume', run], ['log', run], ['show', run, '--problem', 'p1'], ['export', run, '--out', path.join(dir, 'rl')], ['replay', run], ...fork, ['report', run, '--out', path.join(dir, 'report.html')]]) {
        const refused = await runCliInProcess(args);
        expect(await fileHashes(run), args[0]).toEqual(before);
        // A command that never reads the damaged block gives its output whole.
        if (lazy && LAZY_COMMANDS.has(args[0] as string) && refused.code === 0) continue;
        expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
        expect(refused.stderr, args[0]).toMatch(/TMAS_STORE_DAMAGED/);
        // A command that reads only a changed text names the record that refers to it (text-store.ts checks each text's digest).
        const named = lazy && LAZY_COMMANDS.has(args[0] as string) && /refers to text \S+, which the store does not hold whole/.test(refused.stderr);
        if (!named) expect(refused.stderr, args[0]).toMatch(says);
        expect(refused.stderr, args[0]).toMatch(/Nothing was changed.*tmas repair/s);
        expect(refused.stderr, args[0]).not.toMatch(/internal error|\n\s+at /);
      }

      const repaired = await runCliInProcess(['repair', run]);
      expect(repaired.code, repaired.stderr).toBe(0);
      const kept = /kept in (\S+)\./.exec(repaired.stdout)?.[1];
      expect(kept).toBeDefined();
      // The copy kept is the damaged store, byte for byte.
      const keptHashes = await fileHashes(kept as string);
      expect(Object.values(keptHashes).sort()).toEqual(Object.entries(before).filter(([file]) => file.startsWith('store')).map(([, hash]) => hash).sort());
      const left = Number(/(\d+) journaled calls/.exec(repaired.stdout)?.[1]);
      expect(left).toBeLessThanOrEqual(calls);
      if (!/the run manifest/.test(repaired.stdout)) return;
      const resumed = await runCliInProcess(['run', '--resume', run]);
      if (resumed.code !== 0) {
        // Repair may keep an iteration mark whose banks it lost: then the store still says so, with a code.
        expect(resumed.stderr).toMatch(/TMAS_STORE/);
        return;
      }
      const issued = Number(/(\d+) calls issued/.exec(resumed.stdout)?.[1]);
      if (marksKept === true) expect(issued).toBeLessThanOrEqual(calls - left);
      else expect(issued).toBe(calls - left);
      expect((await readJournal(run)).length).toBe(left + issued);
    });
  }

  // Before, a resume of a store whose problem records were deleted reported "0 problems" (or fewer), exit 0, and wrote
  // outputs without them; the calls journaled for them were left out without a word.
  test.for([
    ['every problem record', ['000000', '000001'], false],
    ['the last problem record', ['000001'], false],
    ['the last problem record and its iteration records (only the journal names it)', ['000001'], true],
  ] as const)('a store that lost %s: resume, report, show and fork refuse it with TMAS_STORE_DAMAGED naming what is missing, and nothing changes', async ([, deleted, iterationsToo], { dir, finished }) => {
    const { run } = await finishedRun(dir, finished);
    const db = new Level<string, unknown>(path.join(run, 'store'), { valueEncoding: 'json' });
    for (const key of deleted) await db.sublevel('problems').del(key);
    if (iterationsToo) {
      for await (const key of db.sublevel('iterations').keys({ gte: '000001!', lt: '000001~' })) await db.sublevel('iterations').del(key);
      await db.sublevel('unannounced').clear();
    }
    await db.close();
    const before = await fileHashes(run);
    for (const args of [['run', '--resume', run], ['report', run, '--out', path.join(dir, 'report.html')], ['show', run, '--problem', 'p1'], ['fork', run, '--output-file', path.join(dir, 'forked')]]) {
      const refused = await runCliInProcess(args);
      expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr, args[0]).toContain(`The store of ${run} is damaged: problem records are missing (it holds ${2 - deleted.length};`);
      expect(refused.stderr, args[0]).toContain('"p2", which the journal\'s calls name');
      expect(refused.stderr, args[0]).toMatch(/Nothing was changed\. .*restore .* from a copy.*\[TMAS_STORE_DAMAGED\]/s);
      expect(await fileHashes(run), args[0]).toEqual(before);
    }
  });

  test('a corrupt record in the write-ahead log (which LevelDB would drop without a word): resume and every analysis command refuse it naming the log, and nothing changes; repair drops the record and the resume completes', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, 'run');
    // A run's last writes are in its log until the next open moves them into a table: this one's are all there.
    await runInProcess(['--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2']);
    const log = (await readdir(path.join(run, 'store'))).find((name) => name.endsWith('.log')) as string;
    const size = (await stat(path.join(run, 'store', log))).size;
    expect(size).toBeGreaterThan(10_000);
    await flipBytes(path.join(run, 'store', log), Math.floor(size / 2), 1);
    const before = await fileHashes(run);
    for (const args of [['run', '--resume', run], ['log', run], ['show', run, '--problem', 'p1'], ['export', run, '--out', path.join(dir, 'rl')], ['replay', run]]) {
      const refused = await runCliInProcess(args);
      expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr, args[0]).toContain(`store/${log}, a write-ahead log, is corrupt: a record at byte`);
      expect(refused.stderr, args[0]).toMatch(/TMAS_STORE_DAMAGED/);
      expect(await fileHashes(run), args[0]).toEqual(before);
    }
    const repaired = await runCliInProcess(['repair', run]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain(`store/${log} (1 log record)`);
    const resumed = await runCliInProcess(['run', '--resume', run]);
    expect(resumed.code, resumed.stderr).toBe(0);
  });

  test('a write-ahead log emptied (which LevelDB reads as a store that never held its records): resume, log, export and fork refuse it, by what metrics.json says was written from the store, and nothing changes; after a repair the resume issues the lost calls knowingly', async ({ dir }) => {
    const problems = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, 'run');
    // Every write of this run is in its log (no open has moved it into a table yet).
    await runInProcess(['--input-file', problems, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2']);
    await truncate(await logOf(run), 0);
    const before = await fileHashes(run);
    for (const args of [['run', '--resume', run], ['log', run], ['export', run, '--out', path.join(dir, 'rl')], ['fork', run, '--output-file', path.join(dir, 'forked')]]) {
      const refused = await runCliInProcess(args);
      expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr, args[0]).toMatch(/TMAS_STORE_DAMAGED/);
      expect(refused.stderr, args[0]).toContain('it holds 0 iteration records where metrics.json says results.jsonl was written from 2');
      expect(await fileHashes(run), args[0]).toEqual(before);
    }
    expect((await runCliInProcess(['repair', run])).code).toBe(0);
    const resumed = await runCliInProcess(['run', '--resume', run]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(Number(/(\d+) calls issued/.exec(resumed.stdout)?.[1])).toBeGreaterThan(0);
    const again = await runCliInProcess(['run', '--resume', run]);
    expect(again.stdout).toMatch(/^0 calls issued/m);
  });

  test('a stopped run (no line in results.jsonl) whose write-ahead log was emptied: resume, log and export refuse it by the log length metrics.json records, and nothing changes', async ({ dir }) => {
    // The model answers the two solutions, then refuses the key: the run stops in iteration 0, its calls journaled.
    let calls = 0;
    const server = await serveHttp((req, res) => {
      if (req.url?.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', owned_by: 'x' }] }));
        return;
      }
      calls++;
      if (calls > 2) res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'invalid key' } }));
      else res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('So the answer is \\boxed{2}.', { model: 'm' }));
    });
    try {
      const problems = await writeProblems(dir, smallProblems(1));
      const run = path.join(dir, 'run');
      const stopped = await runCliInProcess(['run', '--input-file', problems, '--output-file', run, '--no-proof', '--base-url', server.url, '--model-name', 'm', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--judge-passes', '0', '--max-retries', '0']);
      expect(stopped.code, stopped.stderr).toBe(2);
      // Two solutions journaled, then refusals. Every write of this run is in its log (no open has moved it into a
      // table yet: the journal is not read here).
      const sent = calls;
      expect(sent).toBeGreaterThan(2);
      expect(JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')).results.lines).toBe(0);
      await truncate(await logOf(run), 0);
      const before = await fileHashes(run);
      // Before: each read the store as a run that never started, and the resume paid again for both solutions.
      for (const args of [['run', '--resume', run], ['log', run], ['export', run, '--out', path.join(dir, 'rl')]]) {
        const refused = await runCliInProcess(args);
        expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
        expect(refused.stderr, args[0]).toMatch(/its message log holds 0 messages where metrics\.json says it held \d+ when written.*\[TMAS_STORE_DAMAGED\]/);
        expect(await fileHashes(run), args[0]).toEqual(before);
      }
      expect(calls).toBe(sent);
    } finally {
      await server.close();
    }
  });

  test('a byte changed inside a stored message (LevelDB checks no checksum on a read: the value comes back and no longer parses): log and show name the damaged table, never an internal error', async ({ dir, finished }) => {
    const { run } = await finishedRun(dir, finished);
    const table = await largestTable(run);
    const bytes = await readFile(table);
    // The opening brace of the first message the table holds as written (a literal of its compression).
    const at = bytes.indexOf('{"type":"');
    expect(at).toBeGreaterThan(0);
    await flipBytes(table, at, 1);
    const before = await fileHashes(run);
    for (const args of [['log', run], ['show', run, '--problem', 'p1']]) {
      const refused = await runCliInProcess(args);
      expect(await fileHashes(run), args[0]).toEqual(before);
      expect(refused.stderr, args[0]).not.toMatch(/internal error|Could not decode/);
      if (refused.code === 0) continue;
      expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr, args[0]).toMatch(/TMAS_STORE_DAMAGED/);
      expect(refused.stderr, args[0]).toMatch(/store\/\d+\.ldb, a table, is corrupt: the block at bytes \d+-\d+ fails its checksum/);
    }
    // The message log is read whole: log meets the damaged message.
    expect((await runCliInProcess(['log', run])).code).toBe(2);
  });

  test('a letter changed inside a stored text (the value still parses, as another text): log and show refuse it as damage rather than print the changed text; repair drops what refers to it', async ({ dir, finished }) => {
    const { run } = await finishedRun(dir, finished);
    expect(await changeLetterOfStoredText(path.join(run, 'store'))).toBe(true);
    const before = await fileHashes(run);
    // The message log is read whole, with its texts; each problem's iterations are read by show.
    const log = await runCliInProcess(['log', run]);
    const shows = await Promise.all(['p1', 'p2'].map(async (problem) => (await runCliInProcess(['show', run, '--problem', problem])).stderr));
    expect(await fileHashes(run)).toEqual(before);
    expect(log.code, log.stderr).toBe(2);
    expect(log.stderr).toMatch(/message record \d+ refers to text \S+, which the store does not hold whole\..*\[TMAS_STORE_DAMAGED\]/);
    expect(shows.filter((stderr) => /TMAS_STORE_DAMAGED/.test(stderr))).not.toHaveLength(0);
    const repaired = await runCliInProcess(['repair', run]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect((await runCliInProcess(['log', run])).code).toBe(0);
  });

  test('a run manifest whose journalVersion is not a whole number ("6") is damage: resume and replay say so, not that journal version 6 cannot read journal version 6', async ({ dir, finished }) => {
    const { run } = await finishedRun(dir, finished);
    const store = await Store.open(run);
    await store.manifest().put('manifest', { ...(await store.getManifest()), journalVersion: '6' });
    await store.close();
    for (const args of [['run', '--resume', run], ['replay', run]]) {
      const refused = await runCliInProcess(args);
      expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr, args[0]).toContain(`The run manifest in ${run} is damaged: its journalVersion is "6", not a journal version (a whole number)`);
      expect(refused.stderr, args[0]).toMatch(/TMAS_STORE_DAMAGED/);
    }
  });

  test('a missing CURRENT: repair recovers every journaled call and the resume issues none', async ({ dir, finished }) => {
    const { run, calls } = await finishedRun(dir, finished);
    await rm(path.join(run, 'store', 'CURRENT'));
    const repaired = await runCliInProcess(['repair', run]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain(`${calls} journaled calls`);
    const resumed = await runCliInProcess(['run', '--resume', run]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/^0 calls issued/m);
  });

  test('a repair given again in the same second (after one killed or done) keeps a second copy beside the first, never an internal error', async ({ dir, finished }) => {
    const { run, calls } = await finishedRun(dir, finished);
    const now = new Date();
    const first = await repairStore(run, now);
    const again = await repairStore(run, now);
    expect(again.kept).not.toBe(first.kept);
    expect(again.calls).toBe(calls);
    // Each copy, once whole, goes by its name alone: no folder is left marked partial.
    expect((await readdir(run)).filter((name) => name.startsWith('store.damaged-')).sort()).toEqual([path.basename(first.kept), path.basename(again.kept)].sort());
    expect(existsSync(path.join(again.kept, 'CURRENT'))).toBe(true);
  });

  test('a copy a killed repair left half made keeps its .partial name, and the next repair copies beside it', async ({ dir, finished }) => {
    const { run, calls } = await finishedRun(dir, finished);
    const now = new Date();
    const halfMade = path.join(run, `store.damaged-${now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')}.partial`);
    await mkdir(halfMade);
    await writeFile(path.join(halfMade, 'CURRENT'), 'MANIFEST-000001\n');
    const repaired = await repairStore(run, now);
    expect(repaired.calls).toBe(calls);
    expect(`${repaired.kept}.partial`).not.toBe(halfMade);
    expect(await readdir(halfMade)).toEqual(['CURRENT']);
    expect(existsSync(path.join(repaired.kept, 'CURRENT'))).toBe(true);
  });

  test('a read-only run directory: log, show, export and replay read it; a resume says what to do; nothing changes', async ({ dir, finished, skip }) => {
    await chmod(dir, 0o755);
    // As root a mode bit stops no write: the commands then run as nobody, for whom it does.
    const asUser = process.getuid?.() === 0 ? NOBODY : {};
    if (asUser === NOBODY) {
      const why = await cannotRunTmas(NOBODY, dir);
      if (why !== null) skip(`the user nobody (65534), whom a read-only directory stops, cannot run tmas from ${REPO} in ${dir} (a private folder above it?): ${why}`);
    }
    const { run } = await finishedRun(dir, finished);
    const archived = path.join(dir, 'archived');
    await cp(run, archived, { recursive: true });
    for (const entry of [archived, ...(await readdir(archived, { recursive: true })).map((name) => path.join(archived, name))]) {
      await chmod(entry, (await stat(entry)).isDirectory() ? 0o555 : 0o444);
    }
    await mkdir(path.join(dir, 'out'), { mode: 0o777 });
    await chmod(path.join(dir, 'out'), 0o777);
    const before = await fileHashes(archived);
    try {
      for (const args of [['log', archived], ['show', archived, '--problem', 'p1'], ['replay', archived]]) {
        const read = await runCli(args, asUser);
        expect(read.code, `${args[0]}: ${read.stderr}`).toBe(0);
      }
      const exported = await runCli(['export', archived, '--out', path.join(dir, 'out', 'rl')], asUser);
      expect(exported.code === 0 || /TMAS_/.test(exported.stderr), exported.stderr).toBe(true);
      const resumed = await runCli(['run', '--resume', archived], asUser);
      expect(resumed.code).toBe(2);
      expect(resumed.stderr).toMatch(/TMAS_OUTPUT/);
      expect(resumed.stderr).toMatch(/not writable.*Copy the directory/);
      expect(await fileHashes(archived)).toEqual(before);
    } finally {
      await chmod(archived, 0o755);
      for (const name of await readdir(archived, { recursive: true })) await chmod(path.join(archived, name), 0o755);
    }
  });
});

describe('a results.jsonl the user cannot read', () => {
  test('tmas report says it cannot be read (EACCES), not that it is missing with a resume to mend it', async ({ dir, finished, skip }) => {
    await chmod(dir, 0o755);
    // As root a mode bit stops no read: the report then runs as nobody, for whom it does.
    const asUser = process.getuid?.() === 0 ? NOBODY : {};
    if (asUser === NOBODY) {
      const why = await cannotRunTmas(NOBODY, dir);
      if (why !== null) skip(`the user nobody (65534) cannot run tmas from ${REPO} in ${dir}: ${why}`);
    }
    const { run } = await finishedRun(dir, finished);
    for (const entry of [run, ...(await readdir(run, { recursive: true })).map((name) => path.join(run, name))]) {
      await chmod(entry, (await stat(entry)).isDirectory() ? 0o755 : 0o644);
    }
    await chmod(path.join(run, 'results.jsonl'), 0o000);
    const report = await runCli(['report', run, '--format', 'md'], asUser);
    expect(report.code, report.stderr).toBe(2);
    expect(report.stderr).toMatch(/Cannot read \S*results\.jsonl: EACCES.*\[TMAS_REPORT\]/);
    expect(report.stderr).not.toContain('is missing');
  });
});

/** The names and kinds in a run directory, links not followed: what a refusal must leave as it was, without reading a FIFO or a device. */
async function entriesOf(run: string): Promise<string[]> {
  const names = await readdir(run, { recursive: true });
  return Promise.all(names.sort().map(async (name) => {
    const entry = await lstat(path.join(run, name));
    return `${name} ${entry.isFile() ? `file ${entry.size}` : entry.isDirectory() ? 'dir' : entry.isSymbolicLink() ? 'link' : 'other'}`;
  }));
}

/** The store's write-ahead log named by its MANIFEST (the one file whose name ends in .log in a closed store). */
async function logOf(run: string): Promise<string> {
  const log = (await readdir(path.join(run, 'store'))).find((name) => name.endsWith('.log'));
  if (log === undefined) throw new Error('no log');
  return path.join(run, 'store', log);
}

describe('files in a run directory that tmas could not have written', () => {
  const misplaced: Array<{ name: string; damage: (run: string) => Promise<void>; says: RegExp }> = [
    { name: 'a FIFO for the write-ahead log', damage: async (run) => { const log = await logOf(run); await rm(log); execFileSync('mkfifo', [log]); }, says: /store\/\d+\.log is a FIFO, where LevelDB keeps a file/ },
    { name: 'a link to /dev/zero for the MANIFEST', damage: async (run) => { const store = path.join(run, 'store'); const manifest = (await readdir(store)).find((name) => name.startsWith('MANIFEST-')) as string; await rm(path.join(store, manifest)); await symlink('/dev/zero', path.join(store, manifest)); }, says: /store\/MANIFEST-\d+ is a device, where LevelDB keeps a file/ },
    { name: 'a directory for the write-ahead log', damage: async (run) => { const log = await logOf(run); await rm(log); await mkdir(log); }, says: /store\/\d+\.log is a directory/ },
    { name: 'a 600 MB write-ahead log (sparse)', damage: async (run) => truncate(await logOf(run), 600 * 2 ** 20), says: /store\/\d+\.log, a write-ahead log, holds 629145600 bytes, far more than LevelDB writes to one/ },
    { name: 'the write-ahead log the MANIFEST names, deleted', damage: async (run) => rm(await logOf(run)), says: /store\/\d+\.log, the write-ahead log named by store\/MANIFEST-\d+, is missing/ },
  ];
  for (const [index, { name, damage, says }] of misplaced.entries()) {
    const resumed = index === 0;
    test(`${name}: ${resumed ? 'log and resume refuse' : 'log refuses'} it at once with TMAS_STORE_DAMAGED naming it; nothing changes`, async ({ dir, finished }) => {
      const { run } = await finishedRun(dir, finished);
      await damage(run);
      const before = await entriesOf(run);
      // Every command meets the same check before it reads the store: one of them stands for the others after the first case.
      for (const args of resumed ? [['log', run], ['run', '--resume', run]] : [['log', run]]) {
        // In this process: the check refuses before LevelDB opens the store (a child is 0.3 to 2 CPU-s a command).
        const refused = await runCliInProcess(args);
        expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
        expect(refused.stderr, args[0]).toMatch(/TMAS_STORE_DAMAGED/);
        expect(refused.stderr, args[0]).toMatch(says);
        expect(refused.stderr, args[0]).not.toMatch(/internal error|\n\s+at /);
      }
      expect(await entriesOf(run)).toEqual(before);
    });
  }

  test('a FIFO for results.jsonl, /dev/zero, an array or a word for a figure for metrics.json, and a FIFO or a directory for tmas.lock are named, never read, by report and resume', async ({ dir, finished }) => {
    const { run } = await finishedRun(dir, finished);
    const out = path.join(dir, 'report.html');
    const cases: Array<{ damage: () => Promise<void>; undo: () => Promise<void>; commands: string[][]; says: string; inProcess?: true }> = [
      { damage: async () => { await rm(path.join(run, 'results.jsonl')); execFileSync('mkfifo', [path.join(run, 'results.jsonl')]); }, undo: async () => {}, commands: [['report', run, '--out', out]], says: `${path.join(run, 'results.jsonl')} is a FIFO, not the results file tmas wrote` },
      { damage: async () => { await rm(path.join(run, 'metrics.json')); await symlink('/dev/zero', path.join(run, 'metrics.json')); }, undo: () => rm(path.join(run, 'metrics.json')), commands: [['report', run, '--out', out]], says: `Cannot read ${path.join(run, 'metrics.json')}: it is a device, not the file tmas wrote` },
      { damage: () => writeFile(path.join(run, 'metrics.json'), '[1,2]'), undo: async () => {}, commands: [['report', run, '--out', out]], says: `Cannot read ${path.join(run, 'metrics.json')}: it is not a metrics.json of tmas's`, inProcess: true },
      { damage: () => writeFile(path.join(run, 'metrics.json'), JSON.stringify({ iterations: [{ iteration: 0, meanScore: 'high' }], totals: {} })), undo: async () => {}, commands: [['report', run, '--out', out]], says: `Cannot read ${path.join(run, 'metrics.json')}: it is not a metrics.json of tmas's: iterations[0].meanScore is "high", not a number`, inProcess: true },
      { damage: async () => { execFileSync('mkfifo', [path.join(run, 'tmas.lock')]); }, undo: () => rm(path.join(run, 'tmas.lock')), commands: [['run', '--resume', run]], says: `${path.join(run, 'tmas.lock')} is a FIFO, where tmas keeps the run's lock` },
      { damage: async () => { await mkdir(path.join(run, 'tmas.lock')); }, undo: () => rm(path.join(run, 'tmas.lock'), { recursive: true }), commands: [['run', '--resume', run]], says: `${path.join(run, 'tmas.lock')} is a directory, where tmas keeps the run's lock` },
    ];
    for (const { damage, undo, commands, says, inProcess } of cases) {
      await damage();
      const before = await entriesOf(run);
      for (const args of commands) {
        // A FIFO or a device that a broken check would read, and the run's lock, in a process of their own; a file of JSON that is no metrics in this one.
        const refused = await (inProcess ? runCliInProcess(args) : runCli(args));
        expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
        expect(refused.stderr, args[0]).toContain(says);
        expect(refused.stderr, args[0]).not.toMatch(/internal error|\n\s+at /);
      }
      expect(await entriesOf(run)).toEqual(before);
      await undo();
    }
  });

  test('a 1 GB tmas.lock (sparse) is no lock of tmas\'s: judged stale without being read into memory', async ({ dir }) => {
    await writeFile(path.join(dir, 'tmas.lock'), '');
    await truncate(path.join(dir, 'tmas.lock'), 2 ** 30);
    const peak = process.resourceUsage().maxRSS;
    expect(await runLockHolder(dir)).toBeNull();
    // maxRSS is in kilobytes: reading the file whole took a gigabyte.
    expect(process.resourceUsage().maxRSS - peak).toBeLessThan(256 * 1024);
  });

  test('repair refuses a store with a FIFO in it, saying what to move, and keeps no partial copy', async ({ dir, finished }) => {
    const { run } = await finishedRun(dir, finished);
    const log = await logOf(run);
    await rm(log);
    execFileSync('mkfifo', [log]);
    const before = await entriesOf(run);
    const refused = await runCli(['repair', run]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`Cannot repair ${run}: store/${path.basename(log)} is a FIFO, where LevelDB keeps a file. Move it out of ${path.join(run, 'store')}, then run tmas repair again. Nothing was changed.`);
    expect(await entriesOf(run)).toEqual(before);
  });
});

test('a store/ that is a link leading nowhere is named as such, not as a directory with no store; so is a run directory that is one, not as one that does not exist', async ({ dir, finished }) => {
  const { run } = await finishedRun(dir, finished);
  await rm(path.join(run, 'store'), { recursive: true });
  await symlink('store', path.join(run, 'store'));
  const read = await runCliInProcess(['log', run]);
  expect(read.code).toBe(2);
  expect(read.stderr).toContain('its store/ is a link to store, which leads to no folder');
  expect(read.stderr).not.toContain('it has no store/');
  const loop = path.join(dir, 'loop');
  await symlink('loop', loop);
  for (const args of [['log', loop], ['run', '--resume', loop], ['fork', loop, '--output-file', path.join(dir, 'fork')]]) {
    const refused = await runCliInProcess(args);
    expect(refused.code, args[0]).toBe(2);
    expect(refused.stderr, args[0]).toContain('it is a link to loop, which leads to no folder (a link to itself, a loop, or a target moved away)');
    expect(refused.stderr, args[0]).not.toContain('it does not exist');
  }
});

// Before: "store/CURRENT … is missing. Run `tmas repair DIR`", and the repair, as advised, made an empty LevelDB store among
// the other tool's files and said "Repaired" (exit 0): nothing was there to recover.
test('a store/ with none of LevelDB\'s files (emptied, or another tool\'s folder) is no damaged store: every command and repair say so (TMAS_RUN_DIR), and nothing changes', async ({ dir, finished }) => {
  const { run } = await finishedRun(dir, finished);
  const other = path.join(dir, 'other');
  await mkdir(path.join(other, 'store'), { recursive: true });
  await writeFile(path.join(other, 'store', 'data.bin'), 'not LevelDB');
  await rm(path.join(run, 'store'), { recursive: true });
  await mkdir(path.join(run, 'store'));
  for (const [target, says] of [[run, 'its store/ is empty'], [other, "its store/ holds data.bin and no file of LevelDB's"]] as const) {
    const before = await entriesOf(target);
    for (const args of [['log', target], ['export', target, '--out', path.join(dir, 'export')], ['run', '--resume', target], ['repair', target]]) {
      const refused = await runCliInProcess(args);
      expect(refused.code, `${args[0]}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr, args[0]).toContain(`${target} holds no tmas store: ${says}`);
      expect(refused.stderr, args[0]).toMatch(/nothing tmas repair could recover.*\[TMAS_RUN_DIR\]/s);
    }
    expect(await entriesOf(target)).toEqual(before);
  }
});

// Before: "Cannot read DIR/metrics.json: ENOENT: no such file or directory, open '…'. Give tmas report the output directory
// of a finished run (the one holding metrics.json)": the directory given was that, and nothing said how to get the file back.
test('a metrics.json cut short mid-line or deleted beside its store: report names it and the resume that writes it again, and after that resume the report reads the figures it had', async ({ dir, finished }) => {
  const { run } = await finishedRun(dir, finished);
  const metrics = path.join(run, 'metrics.json');
  const written = JSON.parse(await readFile(metrics, 'utf8')) as { iterations: unknown };
  const results = await readFile(path.join(run, 'results.jsonl'), 'utf8');
  const refusal = async () => {
    const refused = await runCliInProcess(['report', run, '--format', 'md', '--out', path.join(dir, 'report.md')]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`${run} holds a run's store: tmas run --resume ${run} writes metrics.json and results.jsonl again from it`);
    expect(refused.stderr).not.toMatch(/ENOENT|Give tmas report the output directory/);
    return refused.stderr;
  };
  await truncate(metrics, 2000);
  expect(await refusal()).toMatch(new RegExp(`Cannot read ${metrics}: (Unterminated|Unexpected|Expected).*JSON`));
  await rm(metrics);
  expect(await refusal()).toContain(`Cannot read ${metrics}: it is missing.`);
  const resumed = await runCliInProcess(['run', '--resume', run]);
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(`${resumed.stdout}${resumed.stderr}`).toMatch(/\b0 calls issued/);
  expect((JSON.parse(await readFile(metrics, 'utf8')) as { iterations: unknown }).iterations).toStrictEqual(written.iterations);
  expect(await readFile(path.join(run, 'results.jsonl'), 'utf8')).toBe(results);
  expect((await runCliInProcess(['report', run, '--format', 'md', '--out', path.join(dir, 'report.md')])).code).toBe(0);
  // Before: the system's words, 'ENOTDIR: not a directory, stat …' and 'ELOOP: too many symbolic links encountered, stat …'.
  const file = path.join(dir, 'file');
  await writeFile(file, 'not a run\n');
  await symlink('loop', path.join(dir, 'loop'));
  for (const [given, says] of [[file, 'the run directory given is a file, not a folder'], [path.join(dir, 'loop'), 'a link on its path leads nowhere']]) {
    const refused = await runCliInProcess(['report', given as string, '--format', 'md']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`Cannot read ${path.join(given as string, 'metrics.json')}: ${says}`);
    expect(refused.stderr).not.toMatch(/ENOTDIR|ELOOP/);
  }
});
