/**
 * Every file a command writes for its user (results.jsonl and metrics.json of
 * a run, an export, a report, table1.md, the bench's JSON) goes through here:
 * it is written under a temporary name in the same folder and renamed into
 * place once whole, so a kill at any moment leaves at its final name either
 * the file as it was before or the new one, never a part of it. The temporary
 * file is made when its first megabyte is written (or at the commit), so a
 * kill before leaves nothing; one left by a kill later is removed by the next
 * command that writes into the same folder: its name says which process wrote
 * it (`<name>.tmas-<host>-<pid>.partial`), and one of this host whose process
 * is gone is stale. A folder that is missing, read-only or full is a user
 * error (TMAS_OUTPUT) naming the file and what to do, never a stack.
 */
import { constants } from 'node:fs';
import { access, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../../kernel/errors.ts';

/** The suffix of a file being written. */
export const PARTIAL_SUFFIX = '.partial';

/** This host, as a temporary file's name carries it (letters, digits and dashes). */
const HOST = os.hostname().replace(/[^A-Za-z0-9-]/g, '-');

/** The temporary name `file` is written under by process `pid` (this one by default) of this host. */
export function partialName(file: string, pid = process.pid): string {
  return `${file}.tmas-${HOST}-${pid}${PARTIAL_SUFFIX}`;
}

/** The process that wrote a temporary file of this host, by its name; null for another host's or another program's file. */
function writerOf(name: string): number | null {
  const match = /\.tmas-(.+)-(\d+)\.partial$/.exec(name);
  return match !== null && match[1] === HOST ? Number(match[2]) : null;
}

/** Whether process `pid` is running (one of another user answers EPERM: it is). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files in `folder` that a process of this host left
 * when it was killed (its pid no longer runs), and `file`'s own from before
 * temporary names carried their writer. Best effort: a folder it cannot list
 * or a file it cannot remove is left as it is.
 */
export async function removeStalePartials(folder: string, file?: string): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const stale = names.filter((name) => {
    const pid = writerOf(name);
    return (pid !== null && !isRunning(pid)) || (file !== undefined && name === `${path.basename(file)}${PARTIAL_SUFFIX}`);
  });
  await Promise.all(stale.map((name) => rm(path.join(folder, name), { force: true }).catch(() => {})));
}

/** Text buffered before a write to disk: one syscall per megabyte, not per line. */
const BUFFER_CHARS = 2 ** 20;

/** A file being written under its temporary name. */
export interface OutputFile {
  /** Where the file will be once committed. */
  readonly file: string;
  /** Where it is written until then (a writer of its own, such as Parquet's, may write here). */
  readonly partial: string;
  /** Appends text. */
  write(text: string): Promise<void>;
  /** Writes what is buffered, closes the file and renames it into place. */
  commit(): Promise<void>;
  /** Closes the file and removes it; the final name is left as it was. */
  discard(): Promise<void>;
}

/**
 * Why a file cannot be written, by the error's code, and what to do (`advice`: e.g. "give --out a path in a
 * writable folder"; `retry`: how to write it again once the cause is gone, e.g. "give the command again").
 */
const REASONS: Record<string, (folder: string, file: string, advice: string, retry: string) => string> = {
  ENOENT: (folder, _, advice) => `the folder ${folder} does not exist. Create it, or ${advice}`,
  ENOTDIR: (folder, _, advice) => `${folder} is not a folder: ${advice}`,
  EROFS: (folder, _, advice) => `${folder} is on a read-only file system (EROFS): ${advice}`,
  EACCES: (folder, _, advice) => `${folder} is not writable (EACCES): ${advice}`,
  EPERM: (folder, _, advice) => `${folder} is not writable (EPERM): ${advice}`,
  EISDIR: (_, file, advice) => `${file} is a folder: ${advice}`,
  ENOSPC: (_, __, advice) => `no space is left on its disk (ENOSPC). Free some space, or ${advice}`,
  EDQUOT: (_, __, advice) => `the disk quota is exhausted (EDQUOT). Free some space, or ${advice}`,
  // A job scheduler's limit (ulimit -f) on the size of one file, which freeing space does not lift.
  EFBIG: (_, __, ___, retry) => `the file size limit of this process stopped it (EFBIG, ulimit -f), not the disk: raise the limit, or run where no such limit applies, then ${retry}`,
};

/** How a file is written again once what stopped it is gone, when the command does not say. */
const GIVE_AGAIN = 'give the command again';

/** The user error for a file system error `error` met writing `file`; `advice` says what to do instead, `retry` how to write it again. */
export function outputError(file: string, error: unknown, advice: string, retry = GIVE_AGAIN): UserError {
  const reason = REASONS[(error as NodeJS.ErrnoException).code ?? ''];
  const why = reason ? reason(path.dirname(path.resolve(file)), file, advice, retry) : `${(error as Error).message}; ${advice}`;
  return new UserError('TMAS_OUTPUT', `Cannot write ${file}: ${why}.`, { cause: error });
}

/** Rejects with the file system's error when `file` could not be made: its folder missing, not a folder or not writable, or `file` a folder. */
async function checkWritable(file: string): Promise<void> {
  await access(path.dirname(path.resolve(file)), constants.W_OK);
  if ((await stat(file).catch(() => null))?.isDirectory() === true) throw Object.assign(new Error(`${file} is a folder`), { code: 'EISDIR' });
}

/**
 * Refuses, before a command's work, files it could not write at its end
 * (TMAS_OUTPUT, naming the file and `advice`): one that is a folder, or whose
 * folder exists and is not writable. A folder not made yet is made later, and
 * its own failure named then. Checked only at the end, a resume or a table
 * ran every call it had to (hours, for a table) and then stopped without its
 * results, or its table and report.
 */
export async function checkOutputPlaces(files: readonly string[], advice: string): Promise<void> {
  for (const file of files) {
    const folder = path.dirname(path.resolve(file));
    if ((await stat(folder).catch(() => null)) === null) continue;
    await checkWritable(file).catch((error: unknown) => Promise.reject(outputError(file, error, advice)));
  }
}

/**
 * Starts writing `file` under its temporary name (partialName), after the
 * stale temporary files of its folder are removed. Fails at once, with
 * TMAS_OUTPUT, when its folder is missing or cannot be written; the temporary
 * file is made when there is something to write.
 */
export async function createOutputFile(file: string, options: { advice: string; retry?: string }): Promise<OutputFile> {
  const partial = partialName(file);
  const failed = (error: unknown) => outputError(file, error, options.advice, options.retry);
  await checkWritable(file).catch((error: unknown) => Promise.reject(failed(error)));
  await removeStalePartials(path.dirname(path.resolve(file)), file);
  let handle: FileHandle | null = null;
  let buffered: string[] = [];
  let chars = 0;
  const flush = async () => {
    if (chars === 0 && handle !== null) return;
    const text = buffered.join('');
    buffered = [];
    chars = 0;
    // Made with its first text, or by a commit with none: then appended to, which keeps what a writer of its own (Parquet's) wrote there.
    const opened: FileHandle = handle ?? (await open(partial, text === '' ? 'a' : 'w').catch((error: unknown) => Promise.reject(failed(error))));
    handle = opened;
    // writeFile on a handle writes all of it at the handle's position (a write() may write part of it).
    if (text !== '') await opened.writeFile(text).catch((error: unknown) => Promise.reject(failed(error)));
  };
  const close = async () => {
    const closing = handle;
    handle = null;
    await closing?.close();
  };
  return {
    file,
    partial,
    async write(text) {
      buffered.push(text);
      chars += text.length;
      if (chars >= BUFFER_CHARS) await flush();
    },
    async commit() {
      await flush();
      await close();
      await rename(partial, file).catch((error: unknown) => Promise.reject(failed(error)));
    },
    async discard() {
      buffered = [];
      chars = 0;
      await close().catch(() => {});
      await rm(partial, { force: true });
    },
  };
}

/** Writes `text` to `file` whole or not at all (see createOutputFile). */
export async function writeOutputFile(file: string, text: string, options: { advice: string; retry?: string }): Promise<void> {
  const out = await createOutputFile(file, options);
  try {
    await out.write(text);
    await out.commit();
  } catch (error) {
    await out.discard();
    throw error;
  }
}
