/**
 * A private view of a run's store: a folder of its own whose table files are
 * hard links to the run's (or clones, or, as a last resort, copies) and whose
 * small mutable files (CURRENT, the MANIFEST, the write-ahead logs, OPTIONS)
 * are copies. LevelDB never writes into a table once it is written: opening
 * the view writes new files (a new MANIFEST, a table from the log, compaction
 * output) and deletes links, which leaves the run's own files as they were.
 * So a view costs what the store's files number, not what they weigh.
 */
import { constants } from 'node:fs';
import { chmod, copyFile, link, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../../kernel/errors.ts';
import type { StoreFiles } from '../disk/store-files.ts';
import { writeFailureFix } from '../write-failure.ts';

/** The errors of a copy that could not be written, as opposed to a file that could not be read. */
const WRITE_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS']);

/** How a view's tables were made, for a test or a benchmark to read. */
export interface ViewMade {
  linked: number;
  copied: number;
}

/** How many files are linked or copied at once. */
const FILES_AT_ONCE = 32;

/**
 * Links a table into the view; where linking is refused (another file system,
 * a file another user owns under fs.protected_hardlinks, a file system without
 * links), clones it (copy-on-write where the file system offers it, a copy
 * otherwise). Resolves true when linked.
 */
async function linkOrCopy(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw error;
    await copyFile(from, to, constants.COPYFILE_FICLONE);
    return false;
  }
}

async function inBatches(names: string[], each: (name: string) => Promise<void>): Promise<void> {
  for (let from = 0; from < names.length; from += FILES_AT_ONCE) await Promise.all(names.slice(from, from + FILES_AT_ONCE).map(each));
}

/**
 * Makes the view of `files` (checked by checkStoreFiles) in `<into>/store`.
 * A file gone between the check and the link means a process is writing the
 * store: TMAS_LOCKED. The run's files are only read.
 */
export async function makeStoreView(runDir: string, files: StoreFiles, into: string): Promise<ViewMade> {
  const view = path.join(into, 'store');
  await mkdir(view, { recursive: true, mode: 0o700 });
  const made: ViewMade = { linked: 0, copied: 0 };
  try {
    await inBatches(files.tables, async (name) => {
      if (await linkOrCopy(path.join(files.dir, name), path.join(view, name))) made.linked++;
      else made.copied++;
    });
    await inBatches(files.mutable, async (name) => {
      const copy = path.join(view, name);
      await copyFile(path.join(files.dir, name), copy);
      // An archived (read-only) store's modes come with a copy: LevelDB appends to the log and MANIFEST of the view.
      // Never chmod a link: it would change the run's own file.
      await chmod(copy, 0o600);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new UserError('TMAS_LOCKED', `The store of ${runDir} changed while it was being read: is a tmas run still writing to it? Wait for it to finish.`, { cause: error });
    }
    // The copy could not be written (a full disk under TMPDIR, a file size limit): say so, and where it goes.
    const fix = WRITE_FAILURES.has(code ?? '') ? ` tmas reads a run through a private copy of its small files in ${view}: ${writeFailureFix(error)}; or set TMPDIR to a folder on another disk, then give the command again.` : '';
    throw new UserError('TMAS_RUN_DIR', `Cannot read the store of ${runDir}: ${(error as Error).message}.${fix}`, { cause: error });
  }
  return made;
}
