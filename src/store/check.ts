/**
 * Reading a run's store without changing it. Opening a LevelDB database
 * writes to it (its LOG is rotated, its write-ahead log compacted into a
 * table), so a store is checked and read through a private copy: a damaged
 * store is refused with every file as it was, and an archived, read-only run
 * directory can still be read.
 */
import { constants, existsSync } from 'node:fs';
import { chmod, cp, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../kernel/errors.ts';
import { REPAIR_ADVICE, Store } from './store.ts';
import { makeScratchDir, removeScratchDir } from './scratch.ts';

/** True when the run directory has a store folder at all. */
export function hasStore(runDir: string): boolean {
  return existsSync(path.join(runDir, 'store'));
}

function damaged(runDir: string, what: string, cause?: unknown): UserError {
  return new UserError('TMAS_STORE_DAMAGED', `The store of ${runDir} is damaged: ${what}. ${REPAIR_ADVICE(runDir)}`, cause === undefined ? undefined : { cause });
}

/** The files LevelDB needs before it can open a store: CURRENT and the MANIFEST it names. */
async function checkFiles(runDir: string): Promise<void> {
  const store = path.join(runDir, 'store');
  let current: string;
  try {
    current = (await readFile(path.join(store, 'CURRENT'), 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw damaged(runDir, 'store/CURRENT (the pointer to its MANIFEST) is missing');
    throw new UserError('TMAS_RUN_DIR', `Cannot read ${path.join(store, 'CURRENT')}: ${(error as Error).message}.`, { cause: error });
  }
  if (!/^MANIFEST-\d+$/.test(current)) throw damaged(runDir, `store/CURRENT does not name a MANIFEST (it holds ${JSON.stringify(current.slice(0, 40))})`);
  if (!existsSync(path.join(store, current))) throw damaged(runDir, `store/${current}, named by store/CURRENT, is missing`);
}

/**
 * Copies a run's store into `into` (a new scratch directory when absent, see scratch.ts),
 * opens the copy, reads every table of it and checks that every text a record
 * refers to is there. Resolves with the open copy,
 * which removes itself on close when it made its own directory. Throws
 * TMAS_STORE_DAMAGED naming what is missing or corrupt; the run directory is
 * never written.
 */
export async function openStoreCopy(runDir: string, into?: string): Promise<Store> {
  await checkFiles(runDir);
  const work = into ?? (await makeScratchDir('store'));
  const remove = into === undefined ? () => removeScratchDir(work) : async () => {};
  let store: Store | null = null;
  try {
    try {
      // A clone where the file system offers one (copy-on-write), a plain copy otherwise.
      await cp(path.join(runDir, 'store'), path.join(work, 'store'), { recursive: true, mode: constants.COPYFILE_FICLONE });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        throw new UserError('TMAS_LOCKED', `The store of ${runDir} changed while it was being read: is a tmas run still writing to it? Wait for it to finish.`, { cause: error });
      }
      throw new UserError('TMAS_RUN_DIR', `Cannot read the store of ${runDir}: ${(error as Error).message}.`, { cause: error });
    }
    const copyPath = path.join(work, 'store');
    // A copy of an archived (read-only) store keeps its modes: LevelDB must be able to write to the copy.
    await chmod(copyPath, 0o700);
    for (const name of await readdir(copyPath)) await chmod(path.join(copyPath, name), 0o600);
    const inOriginal = (text: string) => text.split(copyPath).join(path.join(runDir, 'store'));
    try {
      store = await Store.open(work);
    } catch (error) {
      if (error instanceof UserError && error.code === 'TMAS_STORE_DAMAGED') {
        const reason = (error.cause as { cause?: Error } | undefined)?.cause?.message ?? (error.cause as Error | undefined)?.message ?? error.message;
        throw damaged(runDir, inOriginal(reason), error);
      }
      throw error;
    }
    try {
      await store.readAll();
    } catch (error) {
      const reason = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
      throw damaged(runDir, `a table cannot be read (${inOriginal(reason)})`, error);
    }
    store.runDir = runDir;
    const dangling = await store.danglingRecords();
    if (dangling.length > 0) {
      throw damaged(runDir, `${dangling.length} records refer to texts the store does not hold (the first: ${dangling[0]})`);
    }
    store.onClosed = remove;
    return store;
  } catch (error) {
    await store?.close().catch(() => {});
    await remove();
    throw error;
  }
}

/** Checks that a run's store is whole (see openStoreCopy); changes nothing. */
export async function checkStore(runDir: string): Promise<void> {
  const copy = await openStoreCopy(runDir);
  await copy.close();
}
