/**
 * Files a run reads from outside its directory (a model's tokenizer, an
 * agents module), recorded in its manifest by path and by a digest of what
 * they hold: the digest says whether a resume or a replay reads the same
 * file, wherever it lies now (tokenizer-file.ts, agents-file.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';

/** `sha256:` + the hex digest of `parts`, in order. */
export function sha256Of(...parts: Array<Buffer | string>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return `sha256:${hash.digest('hex')}`;
}

/** A digest as a message shows it: enough hex to tell two files apart. */
export function shortDigest(digest: string): string {
  return digest.slice(0, 'sha256:'.length + 12);
}

/**
 * Checks a recorded file before a resume or a replay and returns the digest
 * to keep: the recorded one while the file still holds it (none for a run
 * made before digests, which is taken at its word), the file's new one with
 * `force`. Throws `missing()` when the file is gone, `changed(now)` when it
 * holds something else and `force` is off.
 */
export function checkRecordedFile(
  file: string,
  recorded: string | null,
  digestNow: () => string,
  options: { force: boolean; missing: () => Error; changed: (now: string) => Error },
): string | null {
  if (!existsSync(file)) throw options.missing();
  if (recorded === null) return null;
  const now = digestNow();
  if (now === recorded || options.force) return now;
  throw options.changed(now);
}
