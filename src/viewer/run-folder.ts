/**
 * Finding the runs under the folders given to `tmas view`. A run directory is
 * one that holds a `store/` or a `metrics.json`; the walk does not go into a
 * run directory, nor into hidden folders. It is bounded: at most `maxDepth`
 * levels below each folder given and `maxRuns` runs in all, and each real
 * directory is visited once (a symbolic link that loops back is met again
 * under its real path and skipped). A folder that cannot be read is listed
 * with its error rather than failing the scan.
 */
import { existsSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { UserError, type ErrorCode } from '../kernel/errors.ts';

/** One directory the scan found: a run, or a folder it could not read. */
export interface FoundDir {
  /** Absolute path. */
  dir: string;
  /** The path relative to the folder given (its own name when it is that folder): how the run is labelled. */
  label: string;
  /** Why it cannot be listed as a run: a stable code and a message; null for a readable run directory. */
  error: { code: ErrorCode; message: string } | null;
}

/** What a scan found, and what it left out to stay bounded. */
export interface FolderScan {
  found: FoundDir[];
  /** Set when a bound was reached: what was left out, in words. */
  truncated: string | null;
}

/** The bounds of a scan. */
export interface ScanLimits {
  /** Levels of folders below each given folder that are looked into (0: the folder itself only). */
  maxDepth: number;
  /** Runs (and unreadable folders) listed at most. */
  maxRuns: number;
}

/** The default bounds: a folder of experiments, a few levels deep. */
export const SCAN_LIMITS: ScanLimits = { maxDepth: 4, maxRuns: 500 };

/** True when `dir` is a run directory (it holds a store or a metrics.json). */
export function isRunDir(dir: string): boolean {
  return existsSync(path.join(dir, 'store')) || existsSync(path.join(dir, 'metrics.json'));
}

function labelOf(root: string, dir: string): string {
  const relative = path.relative(root, dir);
  return relative === '' ? path.basename(root) : path.join(path.basename(root), relative);
}

/** Walks one given folder, breadth first, so that the runs nearest the top are the ones kept at the bound. */
async function walk(root: string, limits: ScanLimits, seen: Set<string>, scan: FolderScan): Promise<void> {
  let level = [root];
  for (let depth = 0; level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (scan.found.length >= limits.maxRuns) {
        scan.truncated = `only the first ${limits.maxRuns} runs are listed`;
        return;
      }
      const real = await realpath(dir).catch(() => dir);
      if (seen.has(real)) continue;
      seen.add(real);
      if (isRunDir(dir)) {
        scan.found.push({ dir, label: labelOf(root, dir), error: null });
        continue;
      }
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        const message = `Cannot read the folder ${dir}: ${(error as Error).message}. Give tmas view a folder it may read.`;
        scan.found.push({ dir, label: labelOf(root, dir), error: { code: 'TMAS_RUN_DIR', message } });
        continue;
      }
      for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
        const child = path.join(dir, entry.name);
        // A link is followed to a directory; the real path it leads to is visited once (see `seen`).
        const isDir = entry.isDirectory() || (entry.isSymbolicLink() && (await stat(child).then((s) => s.isDirectory(), () => false)));
        if (!isDir) continue;
        if (depth >= limits.maxDepth) {
          scan.truncated ??= `folders more than ${limits.maxDepth} levels below ${root} are not looked into`;
          continue;
        }
        next.push(child);
      }
    }
    level = next;
  }
}

/**
 * The runs under the folders given, in the order given and by name within
 * each; a given folder that is missing, or that holds no run, is a TMAS_RUN_DIR error.
 */
export async function findRuns(folders: string[], limits: ScanLimits = SCAN_LIMITS): Promise<FolderScan> {
  const scan: FolderScan = { found: [], truncated: null };
  const seen = new Set<string>();
  for (const folder of folders) {
    const root = path.resolve(folder);
    const info = await stat(root).catch(() => null);
    if (!info?.isDirectory()) throw new UserError('TMAS_RUN_DIR', `${folder} is not a folder. Give tmas view a run directory (the --output-file of a run) or a folder that holds runs.`);
    if (seen.has(await realpath(root).catch(() => root))) continue;
    const before = scan.found.length;
    await walk(root, limits, seen, scan);
    if (scan.found.length === before && before < limits.maxRuns) {
      throw new UserError('TMAS_RUN_DIR', `${folder} holds no tmas run (no folder with a store/ or a metrics.json within ${limits.maxDepth} levels). Give the --output-file of a run, or a folder that holds runs.`);
    }
  }
  return scan;
}
