/**
 * The one error for a damaged store (TMAS_STORE_DAMAGED), whether the damage
 * is found before LevelDB opens it (store-files.ts), by LevelDB's open, or by
 * a read that meets a corrupt block or a lost text later (store.ts).
 */
import path from 'node:path';
import { UserError } from '../../kernel/errors.ts';

/** What to do about a damaged store. */
export const REPAIR_ADVICE = (runDir: string) =>
  `Nothing was changed. Run \`tmas repair ${runDir}\` to let LevelDB recover what it can (a copy of the damaged store is kept), then resume the run.`;

/** What to do about damage met by a run writing into its own store (a resume): what it wrote is good, and a repair keeps it. */
const REPAIR_AFTER_WRITES = (runDir: string) =>
  `The run stopped there; every call journaled before is kept. Run \`tmas repair ${runDir}\` to let LevelDB recover what it can (a copy of the damaged store is kept), then resume the run.`;

/**
 * The coded error for a damaged store; `what` names the damage. `written`: it
 * was met by a process that had written to the store (a resume reads its
 * store as it goes), so the message does not say that nothing changed.
 */
export function storeDamaged(runDir: string, what: string, cause?: unknown, options: { written?: boolean } = {}): UserError {
  const advice = options.written === true ? REPAIR_AFTER_WRITES(runDir) : REPAIR_ADVICE(runDir);
  return new UserError('TMAS_STORE_DAMAGED', `The store of ${runDir} is damaged: ${what}. ${advice}`, cause === undefined ? undefined : { cause });
}

/** A file of a run's store the system will not let tmas read (permissions, a loop of links): TMAS_RUN_DIR naming it. */
export function unreadable(file: string, error: unknown): UserError {
  return new UserError('TMAS_RUN_DIR', `Cannot read ${file}: ${(error as Error).message}. Check its permissions, or that it is the file tmas wrote.`, { cause: error });
}

/** The coded error for a store that cannot be opened; `named` is the run directory errors name, `dir` the store folder opened (a view's). */
export function openError(error: unknown, named: string, dir: string): Error {
  if (error instanceof UserError) return error;
  const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
  if (code === 'LEVEL_LOCKED') {
    return new UserError('TMAS_LOCKED', `The run directory ${named} is in use by another tmas process (its store is locked). Wait for that run to finish or stop it first.`, { cause: error });
  }
  const reason = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
  // LevelDB's open writes (its write-ahead log into a table, a new MANIFEST): a full disk fails it, and a repair, which copies the store first, would only fail again.
  if (/No space left on device/i.test(reason)) return fullDiskError(error, named, dir);
  return new UserError('TMAS_STORE_DAMAGED', `The store of ${named} cannot be opened: ${reason.split(dir).join(path.join(named, 'store'))}. ${REPAIR_ADVICE(named)}`, { cause: error });
}

/**
 * The coded error for a run manifest that is not what its run wrote (edited in
 * place, or another run's): TMAS_STORE_DAMAGED. A repair cannot tell which
 * settings the run was made with, so the advice is the copy it came from.
 */
export function manifestDamaged(runDir: string, what: string, advice = 'Restore the run directory from a copy.'): UserError {
  return new UserError('TMAS_STORE_DAMAGED', `The run manifest in ${runDir} is not the one its run wrote: ${what}. Nothing was changed. ${advice}`);
}

/** A store LevelDB could not open for want of space: TMAS_STORE_WRITE naming the disk, nothing lost. `dir` is the run's own store, or a view of it (check.ts) in a scratch folder. */
function fullDiskError(error: unknown, named: string, dir: string): UserError {
  const own = path.resolve(dir) === path.resolve(named, 'store');
  const then = own ? `then continue with: tmas run --resume ${named}` : 'or set TMPDIR to a folder on another disk, then give the command again';
  return new UserError(
    'TMAS_STORE_WRITE',
    `Cannot open the store of ${named}: no space is left on the disk of ${dir} (LevelDB writes as it opens a store). Every journaled call is kept: free some space, ${then}.`,
    { cause: error },
  );
}
