/**
 * The checks of a store's contents: every record of its write-ahead logs
 * (log-file.ts), on every open, and every block of every live table against
 * its checksum (table-blocks.ts). That reads all of the store, so only the
 * commands that read or rewrite all of it anyway run it before they start: a
 * resume (which would otherwise write into a damaged store: LevelDB, as
 * `level` opens it, reads a block without verifying its checksum, and drops a
 * log record that fails its own), `export` and `replay`. The other commands
 * read what they need and meet a corrupt block where they read it
 * (checked-level.ts); `damagedTable` then names the table.
 */
import { open, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { UserError } from '../../kernel/errors.ts';
import { storeDamaged, unreadable } from './damage.ts';
import { LogDamage, logRecords } from './log-file.ts';
import type { StoreFiles } from './store-files.ts';
import { checkTable } from './table-blocks.ts';

/** Files read at once: a table is at most a few megabytes, a log a few more. */
const FILES_AT_ONCE = 8;

/** A store file's bytes; a file the system will not let tmas read is TMAS_RUN_DIR naming it. */
async function storeFile(dir: string, name: string): Promise<Buffer> {
  const file = path.join(dir, name);
  return readFile(file).catch((error: unknown) => Promise.reject(unreadable(file, error)));
}

/** What is wrong with one table file (`store/<name>: …`), or null when every block is whole. */
async function tableFileDamage(dir: string, name: string): Promise<string | null> {
  const { damage } = checkTable(await storeFile(dir, name));
  return damage === null ? null : `store/${name}, a table, is corrupt: ${damage}`;
}

/** What is wrong with one write-ahead log (`store/<name>: …`), or null when every record is whole. */
async function logFileDamage(dir: string, name: string): Promise<string | null> {
  try {
    for (const _ of logRecords(await storeFile(dir, name))) {
      // Each record's checksum is checked as it is read.
    }
    return null;
  } catch (error) {
    if (error instanceof LogDamage) return `store/${name}, a write-ahead log, is corrupt: ${error.message}`;
    throw error;
  }
}

/** The first damage `check` finds among `names`, a few files at a time, or null. */
async function firstDamage(names: string[], check: (name: string) => Promise<string | null>): Promise<string | null> {
  for (let from = 0; from < names.length; from += FILES_AT_ONCE) {
    const found = (await Promise.all(names.slice(from, from + FILES_AT_ONCE).map(check))).find((damage) => damage !== null);
    if (found !== undefined) return found;
  }
  return null;
}

/**
 * Reads every block of the live tables and every record of the logs of a
 * store whose structure checkStoreFiles has checked (`files`), or only the
 * logs when not `everyBlock`: what is wrong with the first corrupt file, or
 * null when none is. Writes nothing.
 */
export async function storeBlockDamage(files: StoreFiles, options: { everyBlock: boolean }): Promise<string | null> {
  const logs = files.mutable.filter((name) => name.endsWith('.log'));
  const logDamage = await firstDamage(logs, (name) => logFileDamage(files.dir, name));
  if (logDamage !== null || !options.everyBlock) return logDamage;
  return firstDamage(files.tables, (name) => tableFileDamage(files.dir, name));
}

/**
 * storeBlockDamage, as TMAS_STORE_DAMAGED naming the file. The logs are
 * always read (a few megabytes at most: LevelDB turns a log into a table once
 * it holds its write buffer), since LevelDB's open drops a log record that
 * fails its checksum without a word; the tables only for `everyBlock`.
 */
export async function checkStoreBlocks(runDir: string, files: StoreFiles, options: { everyBlock: boolean }): Promise<void> {
  const damage = await storeBlockDamage(files, options);
  if (damage !== null) throw storeDamaged(runDir, damage);
}

/** The first table file of the store folder `dir` with a corrupt block, as `store/<name>, a table, is corrupt: …`; null when none is. */
export async function damagedTable(dir: string): Promise<string | null> {
  const tables = (await readdir(dir)).filter((name) => /^\d+\.(ldb|sst)$/.test(name)).sort();
  return firstDamage(tables, (name) => tableFileDamage(dir, name));
}

/**
 * The coded error for a corrupt block LevelDB met on a read of the store in
 * `storeDir` (a private view's folder, whose tables are its run's): LevelDB's
 * message, which names no file, and the table whose block fails its checksum.
 * `written`: met by a process that has written to the store (see storeDamaged).
 */
export async function corruptionMet(error: Error, where: { runDir: string; storeDir: string; written: boolean }): Promise<UserError> {
  const said = error.message.split(where.storeDir).join(path.join(where.runDir, 'store'));
  const table = await damagedTable(where.storeDir).catch(() => null);
  return storeDamaged(where.runDir, `a table cannot be read (${said})${table === null ? '' : `; ${table}`}`, error, { written: where.written });
}

/** Sets the byte at each of `positions` of `file` to 0xff. */
async function overwrite(file: string, positions: number[]): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    for (const position of positions) await handle.write(Buffer.of(0xff), 0, 1, position);
  } finally {
    await handle.close();
  }
}

/**
 * Makes every table block and log record of the store folder `dir` that
 * fails its checksum one that LevelDB refuses, so that its repair (which, as
 * `level` runs it, verifies neither) drops it rather than keep what it holds
 * as if it were whole: a block's compression byte and a record's type byte
 * become 0xff, which LevelDB knows as neither. Only for `tmas repair`, which
 * has kept a copy of the store first. Returns each file so changed, with how
 * many blocks or records.
 */
export async function markFailingBlocks(dir: string): Promise<string[]> {
  const marked: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const file = path.join(dir, name);
    const failing: number[] = [];
    if (/^\d+\.(ldb|sst)$/.test(name)) failing.push(...checkTable(await readFile(file)).failing);
    else if (/^\d+\.log$/.test(name)) {
      for (const _ of logRecords(await readFile(file), (typeByte) => failing.push(typeByte))) {
        // Each record's checksum is checked as it is read.
      }
    } else continue;
    if (failing.length === 0) continue;
    await overwrite(file, failing);
    marked.push(`store/${name} (${failing.length} ${name.endsWith('.log') ? 'log record' : 'block'}${failing.length === 1 ? '' : 's'})`);
  }
  return marked;
}
