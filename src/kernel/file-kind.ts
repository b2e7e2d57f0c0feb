/**
 * What a path that tmas reads as a file of its own (a run's store, its
 * results, its metrics, its lock) is before it is read: reading a FIFO waits
 * for a writer that never comes, and reading a device (a link to /dev/zero)
 * never ends, so neither is ever opened; a directory or a loop of links is
 * named rather than met as an error from deep inside a read.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';

/** A path as tmas finds it, links followed. */
export type PathKind = { kind: 'missing' } | { kind: 'file'; size: number } | { kind: 'other'; what: string };

/** What a path that is not a regular file is, in words: `a FIFO`, `a directory`, … */
export function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a file';
}

/** What `file` is; a path the system will not let tmas look at (a loop of links, no permission) rejects with that error. */
export async function pathKind(file: string): Promise<PathKind> {
  let stats: Stats;
  try {
    stats = await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  return stats.isFile() ? { kind: 'file', size: stats.size } : { kind: 'other', what: kindOf(stats) };
}
