/**
 * A small real disk for tests of a full disk: a tmpfs mounted at a test's folder.
 * Mounting needs root with CAP_SYS_ADMIN; a container's root often lacks it, so
 * a test asks here and skips, saying why, rather than failing on `mount`.
 */
import { execFileSync } from 'node:child_process';

/** Why a tmpfs cannot be mounted on this machine, as a skipped test says it. */
export const NO_TMPFS = 'cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN)';

/** Mounts a tmpfs of `size` (mount's -o size=, e.g. '4m') at `dir`; false where this machine does not allow it. */
export function mountSmallDisk(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
