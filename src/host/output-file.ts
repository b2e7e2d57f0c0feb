/**
 * Every file a command writes for its user (results.jsonl and metrics.json of
 * a run, an export, a report, table1.md, the bench's JSON) goes through here:
 * it is written under a temporary name in the same folder (`<name>.partial`)
 * and renamed into place once whole, so a kill at any moment leaves at its
 * final name either the file as it was before or the new one, never a part of
 * it. A kill leaves at most the `.partial` beside it, which the next write of
 * the same file replaces. A folder that is missing, read-only or full is a
 * user error (TMAS_OUTPUT) naming the file and what to do, never a stack.
 */
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../kernel/errors.ts';

/** The suffix of a file being written. */
export const PARTIAL_SUFFIX = '.partial';

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

/** Why a file cannot be written, by the error's code, and what to do (`advice`: e.g. "give --out a path in a writable folder"). */
const REASONS: Record<string, (folder: string, file: string, advice: string) => string> = {
  ENOENT: (folder, _, advice) => `the folder ${folder} does not exist. Create it, or ${advice}`,
  ENOTDIR: (folder, _, advice) => `${folder} is not a folder: ${advice}`,
  EROFS: (folder, _, advice) => `${folder} is on a read-only file system (EROFS): ${advice}`,
  EACCES: (folder, _, advice) => `${folder} is not writable (EACCES): ${advice}`,
  EPERM: (folder, _, advice) => `${folder} is not writable (EPERM): ${advice}`,
  EISDIR: (_, file, advice) => `${file} is a folder: ${advice}`,
  ENOSPC: (_, __, advice) => `no space is left on its disk (ENOSPC). Free some space, or ${advice}`,
  EDQUOT: (_, __, advice) => `the disk quota is exhausted (EDQUOT). Free some space, or ${advice}`,
};

/** The user error for a file system error `error` met writing `file`; `advice` says what to do instead. */
export function outputError(file: string, error: unknown, advice: string): UserError {
  const reason = REASONS[(error as NodeJS.ErrnoException).code ?? ''];
  const why = reason ? reason(path.dirname(path.resolve(file)), file, advice) : `${(error as Error).message}; ${advice}`;
  return new UserError('TMAS_OUTPUT', `Cannot write ${file}: ${why}.`, { cause: error });
}

/**
 * Starts writing `file` under its temporary name. Fails at once, with
 * TMAS_OUTPUT, when its folder is missing or cannot be written.
 */
export async function createOutputFile(file: string, options: { advice: string }): Promise<OutputFile> {
  const partial = `${file}${PARTIAL_SUFFIX}`;
  const failed = (error: unknown) => outputError(file, error, options.advice);
  let handle: FileHandle | null = await open(partial, 'w').catch((error: unknown) => Promise.reject(failed(error)));
  let buffered: string[] = [];
  let chars = 0;
  const flush = async () => {
    if (chars === 0 || handle === null) return;
    const text = buffered.join('');
    buffered = [];
    chars = 0;
    // writeFile on a handle writes all of it at the handle's position (a write() may write part of it).
    await handle.writeFile(text).catch((error: unknown) => Promise.reject(failed(error)));
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
export async function writeOutputFile(file: string, text: string, options: { advice: string }): Promise<void> {
  const out = await createOutputFile(file, options);
  try {
    await out.write(text);
    await out.commit();
  } catch (error) {
    await out.discard();
    throw error;
  }
}
