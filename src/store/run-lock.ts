/**
 * The run directory's own lock, beside LevelDB's: `tmas.lock` names the
 * process that has the store open for writing (pid, host, since when). It is
 * made with an exclusive create, removed when the store closes or the process
 * exits, and judged stale when its process is gone (after a kill -9), so it
 * refuses a second writer even when LevelDB's `store/LOCK` file was deleted,
 * which lets LevelDB open the same store twice.
 *
 * Liveness is judged on this host only: a lock written on another host (a run
 * directory copied from another machine, or a container that had another
 * hostname) is stale, since its pid means nothing here. Two processes that take
 * over the same stale lock at the same instant can both succeed; LevelDB's own
 * lock, where it was not deleted, still stands behind this one.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { pathKind } from '../kernel/file-kind.ts';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../kernel/errors.ts';

/** The lock's file name in a run directory. */
export const RUN_LOCK_FILE = 'tmas.lock';

/** Who holds a run directory. */
export interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

/** A lock file that cannot be read as a holder is being written, unless it is older than this. */
const UNREADABLE_GRACE_MS = 10_000;

/** The most a lock file of tmas's holds: a pid, a host name (at most 255 bytes) and a time, as JSON. */
const LOCK_READ_LIMIT = 4096;

/** Lock files this process holds; removed at exit, whatever the exit. */
const held = new Set<string>();
let exitHook = false;

function removeHeldAtExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const file of held) if (holderIn(file)?.pid === process.pid) unlinkSync(file);
  });
}

function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    return typeof value.pid === 'number' && typeof value.host === 'string' ? { pid: value.pid, host: value.host, since: String(value.since ?? '') } : null;
  } catch {
    return null;
  }
}

function holderIn(file: string): LockHolder | null {
  try {
    return parseHolder(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Whether the holder's process still runs (on this host; see above). */
function isAlive(holder: LockHolder, file: string): boolean {
  if (holder.host !== os.hostname()) return false;
  // A pid of our own that this process did not lock is a dead process's that had the same pid (a container restarted).
  if (holder.pid === process.pid) return held.has(file);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(holder.pid);
}

/** A process killed and not yet reaped by its parent still answers kill(pid, 0): on Linux its state says it is gone. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/**
 * The live process holding `runDir`, or null when none does. A lock file that
 * cannot be read yet is held by a process that is writing it, unless it is old.
 */
export async function runLockHolder(runDir: string): Promise<LockHolder | null> {
  const file = path.join(runDir, RUN_LOCK_FILE);
  // A FIFO read here would wait forever; a directory would be moved aside as a stale lock.
  const found = await pathKind(file).catch(() => null);
  if (found?.kind === 'other') {
    throw new UserError('TMAS_RUN_DIR', `${file} is ${found.what}, where tmas keeps the run's lock, a small file of its own. Remove it, then run the command again.`);
  }
  // tmas writes its lock in one small write: a larger file is no lock of its (and read whole it would take that much memory).
  if (found?.kind === 'file' && found.size > LOCK_READ_LIMIT) return null;
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const holder = parseHolder(text);
  if (holder) return isAlive(holder, file) ? holder : null;
  const age = await stat(file).then((info) => Date.now() - info.mtimeMs, () => Infinity);
  return age < UNREADABLE_GRACE_MS ? { pid: 0, host: '', since: '' } : null;
}

/** The refusal of a second process. */
export function lockedError(runDir: string, holder: LockHolder): UserError {
  const who = holder.pid === 0 ? 'a process starting now' : `pid ${holder.pid}, since ${holder.since}`;
  return new UserError(
    'TMAS_LOCKED',
    `The run directory ${runDir} is in use by another tmas process (${who}). Wait for that run to finish or stop it first` +
      `${holder.pid === 0 ? '' : ` (kill -INT ${holder.pid})`}. If no tmas process runs with that pid, remove ${path.join(runDir, RUN_LOCK_FILE)}.`,
  );
}

/**
 * Takes the lock of `runDir` for this process; throws TMAS_LOCKED naming the
 * live holder. Returns the release, which removes the file (once).
 */
export async function acquireRunLock(runDir: string): Promise<() => Promise<void>> {
  const file = path.join(runDir, RUN_LOCK_FILE);
  const mine = JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() } satisfies LockHolder);
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(file, mine, { flag: 'wx' });
      break;
    } catch (error) {
      // No directory: nothing to lock, and the store's open says what is missing.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return async () => {};
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) {
        throw new UserError('TMAS_OUTPUT', `Cannot lock the run directory ${runDir} (${RUN_LOCK_FILE}): ${(error as Error).message}.`, { cause: error });
      }
      const holder = await runLockHolder(runDir);
      if (holder) throw lockedError(runDir, holder);
      // Stale: moved aside before removal, so that of two processes taking it over, one finds it gone and tries again.
      const aside = `${file}.stale-${process.pid}`;
      await rename(file, aside).then(() => rm(aside, { force: true }), () => {});
    }
  }
  held.add(file);
  removeHeldAtExit();
  return async () => {
    if (!held.delete(file)) return;
    if (holderIn(file)?.pid === process.pid) await rm(file, { force: true });
  };
}
