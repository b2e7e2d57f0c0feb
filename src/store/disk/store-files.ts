/**
 * The structure of a store on disk, checked before LevelDB opens it: CURRENT
 * names a MANIFEST that exists and reads whole, and every table that MANIFEST
 * names is there at the size it recorded and ends in a table's footer. Costs
 * what the files number (a stat and an 8-byte read per table), never what
 * they weigh; a corrupt block inside a table is found when it is read
 * (store.ts turns LevelDB's error into the same coded one).
 */
import { open, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { readManifest } from './manifest-file.ts';
import { LogDamage } from './log-file.ts';
import { storeDamaged, unreadable } from './damage.ts';
import { kindOf } from '../../kernel/file-kind.ts';
import { UserError } from '../../kernel/errors.ts';

/** The files of a store that a private view needs. */
export interface StoreFiles {
  /** The store folder (`<run>/store`). */
  dir: string;
  /** Table files (never rewritten by LevelDB: a view may link them). */
  tables: string[];
  /** CURRENT, its MANIFEST, the write-ahead logs and OPTIONS files: rewritten or appended to, so a view copies them. */
  mutable: string[];
}

/**
 * A MANIFEST above this size is not read here (LevelDB's own open still reads it):
 * a view then takes every table in the folder. A store of 164,000 calls has one of 280 KB.
 */
const MANIFEST_READ_LIMIT = 64 * 2 ** 20;

/** How many tables are checked at once. */
const TABLES_AT_ONCE = 64;

/** The last 8 bytes of every LevelDB table (table/format.h's kTableMagicNumber, little-endian). */
const TABLE_MAGIC = Buffer.from('57fb808b247547db', 'hex');

/** CURRENT holds one file name and a newline. */
const CURRENT_READ_LIMIT = 4096;

/**
 * A write-ahead log above this size is damage, not a store: LevelDB turns a
 * log into a table once it holds its write buffer (4 MB here), and a single
 * write of tmas's is far smaller than this.
 */
const LOG_READ_LIMIT = 512 * 2 ** 20;

/** The files LevelDB makes in a store folder; each must be a file, since reading a FIFO or a device as one never ends. */
const LEVELDB_FILE = /^(CURRENT|LOCK|LOG|LOG\.old|MANIFEST-\d+|OPTIONS-\d+|\d+\.(log|ldb|sst))$/;

/**
 * The first of LevelDB's files in the store folder `dir` (named `names`) that
 * LevelDB could not have written: not a regular file (links followed), or of
 * a size it never writes; what is wrong with it, as `store/<name> is …`.
 * Null when there is none.
 */
export async function misplacedStoreFile(dir: string, names: Iterable<string>): Promise<string | null> {
  for (const name of names) {
    if (!LEVELDB_FILE.test(name)) continue;
    const file = path.join(dir, name);
    const stats = await stat(file).catch((error: unknown) => Promise.reject(unreadable(file, error)));
    if (!stats.isFile()) return `store/${name} is ${kindOf(stats)}, where LevelDB keeps a file`;
    if (name === 'CURRENT' && stats.size > CURRENT_READ_LIMIT) return `store/CURRENT holds ${stats.size} bytes, where it names one MANIFEST`;
    if (name.endsWith('.log') && stats.size > LOG_READ_LIMIT) return `store/${name}, a write-ahead log, holds ${stats.size} bytes, far more than LevelDB writes to one`;
  }
  return null;
}

/** The files that make a LevelDB store, whatever else of it is lost: one of them left is something for a repair to recover. */
const LEVELDB_DATA_FILE = /^(CURRENT|MANIFEST-\d+|\d+\.(log|ldb|sst))$/;

/**
 * The error for a store folder that holds none of LevelDB's files (empty, or
 * another tool's files under the name store/): no damaged store but none at
 * all, which a repair cannot recover. Before, it was named a damaged store
 * (`store/CURRENT … is missing`), and `tmas repair`, as advised, made an
 * empty LevelDB store among the other tool's files and reported it repaired.
 * Null when the folder holds any of LevelDB's files.
 */
export function noLevelDbStore(runDir: string, names: Iterable<string>): UserError | null {
  const all = [...names];
  if (all.some((name) => LEVELDB_DATA_FILE.test(name))) return null;
  const shown = all.slice(0, 3).join(', ') + (all.length > 3 ? ` and ${all.length - 3} more` : '');
  const holds = all.length === 0 ? 'is empty' : `holds ${shown} and no file of LevelDB's (CURRENT, MANIFEST-*, *.log, *.ldb)`;
  return new UserError(
    'TMAS_RUN_DIR',
    `${runDir} holds no tmas store: its store/ ${holds}, so there is nothing tmas repair could recover. ` +
      'Give the --output-file of a tmas run; if this was one, its journal is gone: restore store/ from a copy, or start the run again in a new directory. Nothing was changed.',
  );
}

/** The MANIFEST that CURRENT names (checked to exist). */
async function currentManifest(runDir: string, dir: string, names: ReadonlySet<string>): Promise<string> {
  if (!names.has('CURRENT')) throw storeDamaged(runDir, 'store/CURRENT (the pointer to its MANIFEST) is missing');
  let current: string;
  try {
    current = (await readFile(path.join(dir, 'CURRENT'), 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw storeDamaged(runDir, 'store/CURRENT (the pointer to its MANIFEST) is missing');
    throw unreadable(path.join(dir, 'CURRENT'), error);
  }
  if (!/^MANIFEST-\d+$/.test(current)) throw storeDamaged(runDir, `store/CURRENT does not name a MANIFEST (it holds ${JSON.stringify(current.slice(0, 40))})`);
  return current;
}

/** The table file of a file number as the folder holds it (`.ldb`, or `.sst` from older LevelDBs), or undefined. */
function tableName(names: ReadonlySet<string>, file: number): string | undefined {
  const stem = String(file).padStart(6, '0');
  return [`${stem}.ldb`, `${stem}.sst`].find((name) => names.has(name));
}

/** Checks one live table: its size is the MANIFEST's and it ends in a table footer. */
async function checkTable(runDir: string, dir: string, name: string, size: number, manifest: string): Promise<void> {
  const file = path.join(dir, name);
  const handle = await open(file, 'r').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw storeDamaged(runDir, `store/${name}, a table named by store/${manifest}, is missing`);
    throw unreadable(file, error);
  });
  try {
    const actual = (await handle.stat()).size;
    if (actual !== size) throw storeDamaged(runDir, `store/${name} holds ${actual} bytes where store/${manifest} says ${size} (the table was truncated or replaced)`);
    const tail = Buffer.alloc(TABLE_MAGIC.length);
    await handle.read(tail, 0, tail.length, size - tail.length);
    if (!tail.equals(TABLE_MAGIC)) throw storeDamaged(runDir, `store/${name} does not end in a table's footer (the table is corrupt)`);
  } finally {
    await handle.close();
  }
}

/** Checks the structure of a run's store (see above) and lists the files a view needs; throws TMAS_STORE_DAMAGED. Reads no table's contents. */
export async function checkStoreFiles(runDir: string): Promise<StoreFiles> {
  const dir = path.join(runDir, 'store');
  const names = new Set(await readdir(dir).catch((error: unknown) => Promise.reject(unreadable(dir, error))));
  const misplaced = await misplacedStoreFile(dir, names);
  if (misplaced !== null) throw storeDamaged(runDir, misplaced);
  const none = noLevelDbStore(runDir, names);
  if (none !== null) throw none;
  const manifest = await currentManifest(runDir, dir, names);
  if (!names.has(manifest)) throw storeDamaged(runDir, `store/${manifest}, named by store/CURRENT, is missing`);
  const mutable = ['CURRENT', manifest, ...[...names].filter((name) => /^\d+\.log$/.test(name) || /^OPTIONS-\d+$/.test(name))];
  const everyTable = [...names].filter((name) => /^\d+\.(ldb|sst)$/.test(name));
  const manifestFile = path.join(dir, manifest);
  if ((await stat(manifestFile)).size > MANIFEST_READ_LIMIT) return { dir, tables: everyTable, mutable };
  let contents;
  try {
    contents = readManifest(await readFile(manifestFile));
  } catch (error) {
    if (error instanceof LogDamage) throw storeDamaged(runDir, `store/${manifest} cannot be read: ${error.message}`, error);
    throw unreadable(manifestFile, error);
  }
  const log = `${String(contents.logNumber).padStart(6, '0')}.log`;
  if (contents.logNumber > 0 && !names.has(log)) throw storeDamaged(runDir, `store/${log}, the write-ahead log named by store/${manifest}, is missing (the run's latest writes were in it)`);
  const tables: string[] = [];
  for (const file of contents.tables.keys()) {
    const name = tableName(names, file);
    if (name === undefined) throw storeDamaged(runDir, `store/${String(file).padStart(6, '0')}.ldb, a table named by store/${manifest}, is missing`);
    // A file LevelDB could write again would be unsafe to link: none should be, since it numbers new files from here.
    if (file >= contents.nextFile) throw storeDamaged(runDir, `store/${manifest} names table ${name} at or past its next file number ${contents.nextFile}`);
    tables.push(name);
  }
  const live = [...contents.tables];
  // A few at a time: a store of gigabytes has thousands of tables, more than a process may hold open.
  for (let from = 0; from < live.length; from += TABLES_AT_ONCE) {
    await Promise.all(live.slice(from, from + TABLES_AT_ONCE).map(([file, size]) => checkTable(runDir, dir, tableName(names, file) as string, size, manifest)));
  }
  return { dir, tables, mutable };
}
