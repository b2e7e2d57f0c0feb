/**
 * Reading a run's store without changing it. Opening a LevelDB database
 * writes to it (its LOG is rotated, its write-ahead log compacted into a
 * table), so a store is read through a private view (store-view.ts): its
 * tables linked, its small mutable files copied. The view is made only after
 * the store's structure is checked (store-files.ts), and for a resume, an
 * export or a replay every block (block-check.ts), so a damaged store is
 * refused with every file as it was; a corrupt block found later, on read,
 * gives the same coded error (checked-level.ts). An archived, read-only run
 * directory can still be read.
 */
import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../../kernel/errors.ts';
import { Store } from '../store.ts';
import { storeDamaged } from '../disk/damage.ts';
import { makeScratchDir, removeScratchDir } from './scratch.ts';
import { checkStoreFiles } from '../disk/store-files.ts';
import { checkStoreBlocks } from '../disk/block-check.ts';
import { makeStoreView } from './store-view.ts';
import { checkProblemRecords } from './problem-records-check.ts';
import { checkLogCovered, checkOutputsCovered, outputsRecord } from './outputs-evidence.ts';
import { checkManifest } from './manifest-check.ts';
import { requireOpenablePath } from '../run-dir-path.ts';
import { checkLogEnd } from './log-end-check.ts';

/**
 * True when the run directory has a store folder at all. Every command that reads a run asks this first, so
 * a directory whose path is too long for its files to be opened is refused here (TMAS_RUN_DIR), rather than
 * read as one without a store.
 */
export function hasStore(runDir: string): boolean {
  requireOpenablePath(runDir, 'reads');
  return existsSync(path.join(runDir, 'store'));
}

/**
 * Why a directory holds no run, in words for a message: it does not exist (a mistyped path), it or its store/
 * is a link that leads nowhere (a link to itself, a loop, a target moved away), or it has no store/.
 */
export function whyNoStore(runDir: string): string {
  if (!existsSync(runDir)) {
    // A link that leads nowhere is there to see (ls lists it): "it does not exist" sent the user looking for a typo.
    const own = linkTarget(runDir);
    return own === null ? 'it does not exist' : `it is a link to ${own}, which leads to no folder (a link to itself, a loop, or a target moved away)`;
  }
  const store = path.join(runDir, 'store');
  const link = linkTarget(store);
  if (link !== null) return `its store/ is a link to ${link}, which leads to no folder (a link to itself, a loop, or a target moved away)`;
  const runs = runsInside(runDir);
  // `tmas table1 --output-file DIR` writes a run per method under DIR: its folder is what a user gives first.
  return runs.length === 0 ? 'it has no store/' : `it has no store/, but holds the runs ${namedUpTo(runs, 8)}, as tmas table1 writes one per method: give one of them`;
}

/** The folders right under `dir` that hold a run's store, as paths under `dir`, in name order. */
function runsInside(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && hasStore(path.join(dir, entry.name)))
      .map((entry) => path.join(dir, entry.name))
      .sort();
  } catch {
    // A folder that cannot be listed names no runs; why it holds no run is said all the same.
    return [];
  }
}

/** `names` joined by commas, the first `most` of them and how many more. */
function namedUpTo(names: string[], most: number): string {
  return names.length <= most ? names.join(', ') : `${names.slice(0, most).join(', ')} and ${names.length - most} more`;
}

/** Where the link at `file` points, or null when there is no link there. */
function linkTarget(file: string): string | null {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : null;
  } catch {
    return null;
  }
}

/**
 * Table files kept open by a view that checks every record. The check reads the texts its records refer to, at
 * random across the store, and with the 74 tables every store keeps open (table-options.ts), a store of 364 tables
 * reopened one for most reads: a resume of 164,000 calls spent 15.5-15.8 s checking its records with 74, 7.9-8.6 s
 * with 400, its peak RSS 220 MB and 535 MB (the tables it maps, pages of the files). A thousand stays under the
 * usual limit of 1,024 open files.
 */
const MOST_OPEN_TABLES = 1000;

/**
 * Checks the structure of a run's store, makes a private view of it in `into`
 * (a new scratch directory when absent, see scratch.ts) and opens the view.
 * Resolves with the open view, which removes itself on close when it made its
 * own directory; its errors name `runDir`. Costs what the store's files
 * number (and its write-ahead logs weigh, which are read): no table is read
 * until a command reads it, unless `everyBlock`, where every block of the
 * store is read and checked first (block-check.ts): for a command that reads
 * or rewrites all of it anyway. The manifest is checked to be its run's
 * (manifest-check.ts), and the outputs beside the store to be of that run and
 * to count no record the store lacks (outputs-evidence.ts), the store to hold the record of every problem the rest of it names (problem-records-check.ts), and its message log to reach the message its processes logged last (log-end-check.ts). Throws
 * TMAS_STORE_DAMAGED naming what is missing or corrupt; the run directory is
 * never written. `everyTableOpen` keeps every table file open (up to
 * MOST_OPEN_TABLES), for a view that checks every record and is closed
 * (a resume's): see MOST_OPEN_TABLES.
 */
export async function openStoreView(runDir: string, into?: string, options: { everyBlock?: boolean; everyTableOpen?: boolean } = {}): Promise<Store> {
  const files = await checkStoreFiles(runDir);
  await checkStoreBlocks(runDir, files, { everyBlock: options.everyBlock === true });
  const work = into ?? (await makeScratchDir('store'));
  const remove = into === undefined ? () => removeScratchDir(work) : async () => {};
  try {
    await makeStoreView(runDir, files, work);
    const store = await Store.open(work, { named: runDir, ...(options.everyTableOpen === true ? { openTables: Math.min(files.tables.length + 10, MOST_OPEN_TABLES) } : {}) });
    store.onClosed = remove;
    await checkViewed(runDir, store).catch(async (error: unknown) => {
      await store.close();
      throw error;
    });
    return store;
  } catch (error) {
    await remove();
    throw error;
  }
}

/** The checks of a store view that read records, in order: the manifest first, since the outputs are checked against the run it names. */
async function checkViewed(runDir: string, store: Store): Promise<void> {
  await checkManifest(runDir, store);
  await checkProblemRecords(runDir, store);
  // Read once: the iteration records and the log's length are both checked against it.
  const outputs = await outputsRecord(runDir);
  await checkOutputsCovered(runDir, store, outputs);
  await checkLogEnd(runDir, store);
  await checkLogCovered(runDir, store, outputs);
}

/**
 * Checks that every record of `store` (open on `runDir`'s store, or a view or copy of it) reads back: each
 * text it refers to is there, it is a record of its kind, and the message log has no gap. Throws TMAS_STORE_DAMAGED naming the first that
 * does not. Reads every record once: for a command that reads them all anyway (a replay, a fork).
 */
export async function checkRecordsReadable(runDir: string, store: Store): Promise<void> {
  // The message log read through, its texts left unread: a gap in it is named (message-sequence.ts).
  for await (const _ of store.envelopeOutlines(() => false)) {
    // Each message's key is checked against the one before as it is read.
  }
  const unreadable = await store.danglingRecords();
  if (unreadable.length === 0) return;
  throw storeDamaged(runDir, `${unreadable.length} ${unreadable.length === 1 ? 'record cannot' : 'records cannot'} be read back, missing a text it refers to or not a record tmas writes (the first: ${unreadable[0]})`);
}

/**
 * Checks that a run's store is whole, every block of it: opens a view
 * (openStoreView) once every block is checked, and checks that every text a
 * record refers to is there. Reads the whole store; changes nothing.
 */
export async function checkStore(runDir: string): Promise<void> {
  const view = await openStoreView(runDir, undefined, { everyBlock: true });
  try {
    await checkRecordsReadable(runDir, view);
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw storeDamaged(runDir, `a table cannot be read (${view.inRunDir((error as Error).message)})`, error);
  } finally {
    await view.close();
  }
}
