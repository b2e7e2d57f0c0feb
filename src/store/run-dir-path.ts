/**
 * A run directory whose path is too long for the files in it to be opened.
 * The system refuses a path longer than its limit (PATH_MAX: 4,095 bytes on
 * Linux, 1,023 on macOS) with ENAMETOOLONG before it looks at a single
 * folder, so a run moved under a deep enough folder had its store/ read as
 * absent ("it has no store/"), or its first table as unreadable ("check its
 * permissions"), and `tmas report` advised a resume that failed the same way.
 * Each command that reads a run directory asks here first.
 */
import { readdirSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { UserError } from '../kernel/errors.ts';

/** What a command does in a run directory: reads it, writes in it too (a resume, a new run), or repairs it (keeps a copy of its store there). */
export type RunDirUse = 'reads' | 'writes' | 'repairs';

/** The name LevelDB gives its longest file (`MANIFEST-%06llu`), for a store whose files cannot be listed. */
const LONGEST_STORE_FILE = 'MANIFEST-000000';

/**
 * The longest name of a file in the run's store: the names there, not a padded guess, since a run whose
 * files fit by a byte is read by the system and must be read here too. A store that cannot be listed
 * (absent, or its folder's own path too long) is taken to hold LevelDB's longest name.
 */
function longestStoreName(runDir: string): string {
  try {
    const names = readdirSync(path.join(runDir, 'store'));
    return names.reduce((longest, name) => (name.length > longest.length ? name : longest), LONGEST_STORE_FILE);
  } catch {
    return LONGEST_STORE_FILE;
  }
}

/**
 * The deepest names tmas opens under a run directory. A reader opens the store's files; a writer also an
 * output under its partial name (`<file>.tmas-<host>-<pid>.partial`, output-file.ts: this process's pid)
 * and, in a new run, the store it builds aside (output-dir.ts); a repair also a store file in the copy it
 * keeps (`store.damaged-<time>-<n>.partial/`). A directory with room for the first only could be read but
 * not resumed: its calls paid, its outputs refused. Only what the command opens counts: a resume that fits
 * is never refused for the name of a repair's copy.
 */
function deepestNames(runDir: string, use: RunDirUse): string[] {
  const storeFile = longestStoreName(runDir);
  const read = path.join('store', storeFile);
  if (use === 'reads') return [read];
  const writes = [read, `results.jsonl.tmas-${hostname()}-${process.pid}.partial`, path.join('.store-new', 'store', storeFile)];
  if (use === 'writes') return writes;
  return [...writes, path.join('store.damaged-20261231-235959-99.partial', storeFile)];
}

/** Whether the system refuses `file` for its length alone (it need not exist: the length is checked before any lookup). */
function tooLongToOpen(file: string): boolean {
  try {
    statSync(file, { throwIfNoEntry: false });
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENAMETOOLONG';
  }
}

/**
 * Why a run directory's path leaves no room for the files tmas opens in it, in words for a message, or
 * null when it leaves room: its length and what to do (a shorter place, or a link with a short name,
 * through which the system opens every file: it follows a link's target without counting it in the path given).
 */
export function pathTooLong(runDir: string, use: RunDirUse, advice = 'Nothing was read or changed. Move the run to a shorter path, or make a link to it with a short name (ln -s DIR /tmp/run) and give the link.'): string | null {
  // The system counts the path as given: a relative one from a working directory deeper than the limit opens.
  // A writer may name its files by their absolute path too, so for it that one must fit as well, where it can be had.
  const places = use === 'reads' ? [runDir] : [runDir, absoluteOrNull(runDir)].filter((place) => place !== null);
  const tooLong = places.find((place) => deepestNames(place, use).some((name) => tooLongToOpen(path.join(place, name))));
  if (tooLong === undefined) return null;
  const shown = tooLong.length > 160 ? `${tooLong.slice(0, 60)}…${tooLong.slice(-60)}` : tooLong;
  return (
    `The run directory ${shown} has a path of ${Buffer.byteLength(tooLong)} bytes: the files tmas opens in it lie deeper, beyond the longest path this system opens (ENAMETOOLONG). ${advice}`
  );
}

/** The absolute path of `dir`, or null where the working directory is itself too deep for the system to say (ERANGE). */
function absoluteOrNull(dir: string): string | null {
  try {
    return path.resolve(dir);
  } catch {
    return null;
  }
}

/** Refuses a run directory whose path leaves no room for the files tmas opens in it (TMAS_RUN_DIR, exit 2; see pathTooLong). */
export function requireOpenablePath(runDir: string, use: RunDirUse): void {
  const reason = pathTooLong(runDir, use);
  if (reason !== null) throw new UserError('TMAS_RUN_DIR', reason);
}
