/**
 * Scratch directories for the private views of stores (check.ts, replay):
 * a view's tables are links (or, across file systems, copies as large as the
 * run's store), and what its database writes is its own, so none may outlive its command.
 * They live in one folder per user, `<tmpdir>/tmas-<uid>/`, each named after
 * the process that made it (`<pid>-<host tag>-<label>-XXXXXX`), and are removed:
 * by their owner when done (every normal and error path); at exit, whatever
 * ends the process (process.exit included); on SIGINT or SIGTERM, when no
 * other handler stops the command (a handler that does, as `tmas view`'s, closes
 * the views itself); and after a kill -9, which nothing can handle, by the
 * next command that makes one, which removes those of processes that are gone.
 * A removal at exit or on a signal that fails (LevelDB's own thread still
 * writing a compaction into the view) is left to that sweep: a handler that
 * threw there printed a stack trace in place of the command's end.
 */
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/** Scratch directories this process made and has not removed yet. */
const live = new Set<string>();

/** The host tag in a name: a pid is judged only on the host that made it (/tmp may be shared by containers). */
const HOST_TAG = createHash('sha256').update(os.hostname()).digest('hex').slice(0, 8);

const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/** This user's folder of scratch directories. */
export function scratchRoot(): string {
  return path.join(os.tmpdir(), `tmas-${process.getuid?.() ?? os.userInfo().username}`);
}

function removeLive(): void {
  for (const dir of [...live]) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
      live.delete(dir);
    } catch {
      // Kept: a signal's removal is tried again at exit (LevelDB's thread may have written into the view meanwhile),
      // and one that fails at exit is left for the next command's sweep (this process is gone by then).
    }
  }
}

/**
 * Stops the command on a signal nothing else handles, removing the views first (a signal's default action would leave them).
 * It runs before the command's own handlers (prepended): a handler added with `once` has taken itself off by the time a
 * later listener counts them, so counted after it, `tmas view`'s stop was taken for none and cut short by the exit here.
 */
function onSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  removeLive();
  process.exit(SIGNAL_CODES[signal as keyof typeof SIGNAL_CODES]);
}

let hooked = false;

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', removeLive);
}

function watchSignals(on: boolean): void {
  for (const signal of Object.keys(SIGNAL_CODES) as Array<keyof typeof SIGNAL_CODES>) {
    if (on) process.prependListener(signal, onSignal);
    else process.off(signal, onSignal);
  }
}

function isGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Removes the scratch directories of this host's processes that are gone (killed before they could). */
async function sweep(root: string): Promise<void> {
  const names = await readdir(root).catch(() => []);
  await Promise.all(
    names.map(async (name) => {
      const [pid, tag] = name.split('-');
      if (tag !== HOST_TAG || !/^\d+$/.test(pid ?? '') || !isGone(Number(pid))) return;
      await rm(path.join(root, name), { recursive: true, force: true });
    }),
  );
}

let swept = false;

/** Makes a scratch directory (see above); `label` says what it holds. Remove it with removeScratchDir. */
export async function makeScratchDir(label: string): Promise<string> {
  const root = scratchRoot();
  await mkdir(root, { recursive: true, mode: 0o700 });
  if (!swept) {
    swept = true;
    await sweep(root);
  }
  const dir = await mkdtemp(path.join(root, `${process.pid}-${HOST_TAG}-${label}-`));
  hookExit();
  if (live.size === 0) watchSignals(true);
  live.add(dir);
  return dir;
}

/** Removes a scratch directory made by makeScratchDir. */
export async function removeScratchDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  if (!live.delete(dir)) return;
  if (live.size === 0) watchSignals(false);
}
