/**
 * The one error for a damaged store (TMAS_STORE_DAMAGED), whether the damage
 * is found before LevelDB opens it (store-files.ts), by LevelDB's open, or by
 * a read that meets a corrupt block or a lost text later (store.ts).
 */
import { UserError } from '../kernel/errors.ts';

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
