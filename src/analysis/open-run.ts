/**
 * Opening a finished (or stopped) run directory for reading, with a clear
 * error when the directory holds no tmas run.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../kernel/errors.ts';
import { Store, type Manifest } from '../store/store.ts';

/** Opens the store of a run directory and reads its manifest; the caller closes the store. */
export async function openRun(runDir: string): Promise<{ store: Store; manifest: Manifest }> {
  if (!existsSync(path.join(runDir, 'store'))) {
    throw new UserError('TMAS_RUN_DIR', `${runDir} is not a tmas run directory (it has no store/). Give the --output-file of a run.`);
  }
  const store = await Store.open(runDir);
  const manifest = await store.getManifest();
  if (!manifest) {
    await store.close();
    throw new UserError('TMAS_RUN_DIR', `${runDir} holds no tmas run (its store has no manifest).`);
  }
  return { store, manifest };
}
