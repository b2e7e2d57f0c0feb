/**
 * What to do about a write to a run's store that the system refused, told
 * from its reason. A full disk wants space; a file size limit (`ulimit -f`,
 * a job scheduler's) refuses a write past it with "File too large", where
 * freeing space changes nothing; a read-only file system wants a writable
 * one. Before, each was told to "free some space (or fix the mount)".
 */

/** The first step of the advice for a failed write whose error is `error`, in words that end before "then …". */
export function writeFailureFix(error: unknown): string {
  const reason = `${(error as { code?: unknown } | null)?.code ?? ''} ${(error as Error | null)?.message ?? String(error)}`;
  if (/EFBIG|File too large/i.test(reason)) return 'the file size limit of this process stopped it (ulimit -f: raise it, or run where no such limit applies)';
  if (/EROFS|Read-only file system/i.test(reason)) return 'the file system it is on is read-only (remount it writable, or copy the run directory to a writable disk)';
  if (/ENOSPC|No space left/i.test(reason)) return 'no space is left on its disk (free some space)';
  return 'free some space (or fix the mount)';
}
