/**
 * Opening a finished (or stopped) run directory for reading, with a clear
 * error when the directory holds no tmas run. The store is read through a
 * private view (see store/repair/check.ts): the run directory is never written, a
 * damaged store is named, and a read-only (archived) run can be read.
 */
import { UserError } from '../kernel/errors.ts';
import { hasStore, openStoreView, whyNoStore } from '../store/repair/check.ts';
import type { Store } from '../store/store.ts';
import { runLockHolder } from '../store/run-lock.ts';
import { checkJournalHeld, type JournalUse } from '../store/repair/journal-check.ts';
import { readRunManifest, type RunManifest } from '../host/run/run-manifest.ts';

/** Refuses a directory that holds no run's store: a command that writes beside a run checks it first, so a mistyped run directory is named as such. */
export function requireRunDir(runDir: string): void {
  if (!hasStore(runDir)) {
    throw new UserError('TMAS_RUN_DIR', `${runDir} is not a tmas run directory (${whyNoStore(runDir)}). Give the --output-file of a run.`);
  }
}

/** Refuses a run still being written, for a command whose figures need the whole run (`use`: what it would compare or replay). */
export async function requireFinishedRun(runDir: string, use: string): Promise<void> {
  const holder = await runLockHolder(runDir);
  if (holder === null) return;
  const who = holder.pid === 0 ? 'a process starting now' : `pid ${holder.pid}, since ${holder.since}`;
  throw new UserError(
    'TMAS_LOCKED',
    `${runDir} is still being written by a tmas run (${who}): ${use} would read only the calls journaled so far. Run it again once that run has finished${holder.pid === 0 ? '' : ` (or stop it first: kill -INT ${holder.pid})`}.`,
  );
}

/**
 * Opens a private view of the store of a run directory and reads its manifest; the caller closes the store. `into`: where the view goes (kept).
 * `everyBlock`: every block of the store is checked first, for a command that reads all of it (see openStoreView).
 * `journal`: what the command would do with the run's journal, for one that reads it: a journal that lost calls is refused (journal-check.ts).
 */
export async function openRun(runDir: string, into?: string, options: { everyBlock?: boolean; journal?: JournalUse } = {}): Promise<{ store: Store; manifest: RunManifest }> {
  requireRunDir(runDir);
  const store = await openStoreView(runDir, into, options);
  const manifest = await readRunManifest(store);
  if (!manifest) {
    await store.close();
    throw new UserError('TMAS_RUN_DIR', `${runDir} holds no tmas run (its store has no manifest).`);
  }
  if (options.journal !== undefined) {
    await checkJournalHeld(runDir, store, options.journal).catch(async (error: unknown) => {
      await store.close();
      throw error;
    });
  }
  return { store, manifest };
}
