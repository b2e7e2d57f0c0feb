/**
 * The output directory of a new run, and its store made so that a kill at
 * any moment leaves either no store or one holding the whole manifest: the
 * store is created under a temporary name, given its manifest and problems,
 * and renamed into place. A directory stopped before that can be reused by
 * running the same command again.
 */
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathTooLong } from '../../store/run-dir-path.ts';
import { UserError } from '../../kernel/errors.ts';
import type { Problem } from '../../input/problems.ts';
import { Store, type Manifest } from '../../store/store.ts';
import { acquireRunLock, lockedError, runLockHolder, RUN_LOCK_FILE } from '../../store/run-lock.ts';

/** Where a new store is built before it is renamed to `store`. */
export const NEW_STORE_DIR = '.store-new';

/**
 * The entries of a new run's output directory: none when it does not exist yet. One that cannot be
 * read (a regular file, a folder without permission) is a user error naming --output-file.
 */
export async function outputDirEntries(dir: string): Promise<string[]> {
  return readdir(dir).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    const why = error.code === 'ENOTDIR' ? await notADirectory(dir) : error.message;
    throw new UserError('TMAS_OUTPUT', `Cannot use the output directory ${dir}: ${why}. Choose another --output-file.`, { cause: error });
  });
}

/**
 * Why `dir` is no directory (ENOTDIR): it is a file, or one of the folders
 * above it is. Before, a file above it was said to be `dir` itself ("DIR/sub:
 * it is a file"), naming a path that did not exist.
 */
async function notADirectory(dir: string): Promise<string> {
  for (let at = path.resolve(dir); path.dirname(at) !== at; at = path.dirname(at)) {
    const found = await stat(at).catch(() => null);
    if (found === null || found.isDirectory()) continue;
    return at === path.resolve(dir) ? 'it is a file, not a directory' : `${at}, on its path, is a file, not a directory`;
  }
  return 'it is not a directory';
}

/**
 * The entries of a new run's directory that are not what a new run stopped
 * before its store existed leaves (the store it was building, the lock of a
 * process gone). A lock held by a live process is refused (TMAS_LOCKED): another
 * run is building its store there now, and one built beside it would be renamed
 * over it.
 */
export async function newRunLeftovers(dir: string, entries: string[]): Promise<string[]> {
  if (entries.includes(RUN_LOCK_FILE)) {
    const holder = await runLockHolder(dir);
    if (holder) throw lockedError(dir, holder);
  }
  return entries.filter((entry) => entry !== NEW_STORE_DIR && entry !== RUN_LOCK_FILE);
}

/** Makes sure a new run may write into `dir`: absent, empty, or left by a run stopped before it started. */
export async function ensureFreshOutputDir(dir: string): Promise<void> {
  // A run made there could not be resumed, read or repaired: refused before any call is paid.
  const tooLong = pathTooLong(dir, 'writes', 'Nothing was written. Give --output-file a shorter path, or a link with a short name (ln -s) to a folder there.');
  if (tooLong !== null) throw new UserError('TMAS_OUTPUT', tooLong);
  const entries = await outputDirEntries(dir);
  if (entries.includes('store')) {
    throw new UserError(
      'TMAS_OUTPUT',
      `The output directory ${dir} already holds a tmas run. To continue it, run: tmas run --resume ${dir}. To start over, choose a new --output-file or remove the directory.`,
    );
  }
  if ((await newRunLeftovers(dir, entries)).length > 0) {
    throw new UserError('TMAS_OUTPUT', `The output directory ${dir} is not empty. Choose a new --output-file, or remove the directory to start over.`);
  }
  // What a run stopped before its manifest was written left (.store-new) is removed under the lock, as the store is built (createRunStore).
  await makeDirs(dir).catch((error: NodeJS.ErrnoException) => {
    throw new UserError('TMAS_OUTPUT', `Cannot create the output directory ${dir}: ${error.message}. Choose a writable --output-file.`, { cause: error });
  });
}

/**
 * `mkdir -p`, one directory at a time from the deepest that exists: Node's
 * recursive mkdir never returns under a file system such as /proc, where
 * creating a directory fails with ENOENT although its parent is there.
 */
async function makeDirs(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const there = await stat(at).then(
      () => true,
      (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? false : Promise.reject(error)),
    );
    if (there || path.dirname(at) === at) break;
    missing.unshift(at);
  }
  for (const each of missing) await mkdir(each).catch((error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? undefined : Promise.reject(error)));
}

/** Creates the store of a new run with its manifest and problems, then opens it. */
export async function createRunStore(dir: string, manifest: Manifest, problems: Problem[]): Promise<Store> {
  // The run directory is locked from before its leftovers are removed until the store is open: a second
  // new run started at once into the same directory is refused (TMAS_LOCKED) rather than deleting the
  // store this one builds, or renaming its own over it.
  const unlock = await acquireRunLock(dir);
  try {
    if ((await outputDirEntries(dir)).includes('store')) {
      throw new UserError('TMAS_OUTPUT', `The output directory ${dir} already holds a tmas run (another process made it meanwhile). To continue it, run: tmas run --resume ${dir}.`);
    }
    const building = path.join(dir, NEW_STORE_DIR);
    // What a run stopped before its manifest was written leaves: nothing of it is kept.
    await rm(building, { recursive: true, force: true });
    const fresh = await Store.open(building, { create: true });
    try {
      await fresh.startRun(manifest, problems);
    } finally {
      await fresh.close();
    }
    await rename(path.join(building, 'store'), path.join(dir, 'store'));
    await rm(building, { recursive: true, force: true });
  } catch (error) {
    await unlock();
    throw error;
  }
  return Store.open(dir, { heldLock: unlock });
}
