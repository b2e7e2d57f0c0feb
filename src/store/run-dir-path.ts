/**
 * A run directory whose path is too long for the files in it to be opened.
 * The system refuses a path longer than its limit (PATH_MAX: 4,095 bytes on
 * Linux, 1,023 on macOS) with ENAMETOOLONG before it looks at a single
 * folder, so a run moved under a deep enough folder had its store/ read as
 * absent ("it has no store/"), or its first table as unreadable ("check its
 * permissions"), and `tmas report` advised a resume that failed the same way.
 * Each command that reads a run directory asks here first.
 */
import { statSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { UserError } from '../kernel/errors.ts';

/** What a command does in a run directory: reads it, or writes in it too (a resume, a repair, a new run). */
export type RunDirUse = 'reads' | 'writes';

/**
 * The deepest names tmas opens under a run directory, with room to spare. A reader opens the store's
 * MANIFEST; a writer also an output under its partial name (`<file>.tmas-<host>-<pid>.partial`,
 * output-file.ts) and, in a repair, a MANIFEST in the copy it keeps (`store.damaged-<time>-<n>.partial/`).
 * A directory with room for the first only could be read but not resumed: its calls paid, its outputs refused.
 */
function deepestNames(use: RunDirUse): string[] {
  const read = path.join('store', 'MANIFEST-0000000000');
  if (use === 'reads') return [read];
  return [read, path.join('store.damaged-20261231-235959-99.partial', 'MANIFEST-0000000000'), `results.jsonl.tmas-${hostname()}-4294967295.partial`];
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
  const absolute = path.resolve(runDir);
  if (!deepestNames(use).some((name) => tooLongToOpen(path.join(absolute, name)))) return null;
  const shown = absolute.length > 160 ? `${absolute.slice(0, 60)}…${absolute.slice(-60)}` : absolute;
  return (
    `The run directory ${shown} has a path of ${Buffer.byteLength(absolute)} bytes: the files tmas opens in it lie deeper, beyond the longest path this system opens (ENAMETOOLONG). ${advice}`
  );
}

/** Refuses a run directory whose path leaves no room for the files tmas opens in it (TMAS_RUN_DIR, exit 2; see pathTooLong). */
export function requireOpenablePath(runDir: string, use: RunDirUse): void {
  const reason = pathTooLong(runDir, use);
  if (reason !== null) throw new UserError('TMAS_RUN_DIR', reason);
}
