/**
 * Reads of a LevelDB database that turn LevelDB's corruption error (a block
 * that does not parse, a table that cannot be read, found when it is read)
 * into a coded one. The store is no longer read whole when it is opened
 * (store-files.ts checks its structure instead), so a corrupt block surfaces
 * on whichever read meets it: every get, getMany, iterator and clear of the
 * database and of its sublevels goes through the database's methods below
 * (abstract-level's implementation interface), which are wrapped.
 */
import type { Level } from 'level';

/** True for LevelDB's own error about a corrupt or unreadable table (never a missing key, a closed database or a lock). */
export function isCorruption(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && (code === 'LEVEL_CORRUPTION' || code === 'LEVEL_IO_ERROR');
}

/** True for abstract-level's error about a stored value its encoding cannot read. */
function isUndecodable(error: unknown): error is Error {
  return error instanceof Error && (error as { code?: unknown }).code === 'LEVEL_DECODE_ERROR';
}

/**
 * Makes every read of `db` (and a clear, and a batch that fails because a
 * compaction met a corrupt block) reject with what `damage(error)` resolves
 * where LevelDB finds a corrupt table. A write's I/O error (a full disk) is
 * left as it is. Call before the database is used.
 */
export function checkReads(db: Level<string, unknown>, damage: (error: Error) => Promise<Error>): void {
  const checked = async (error: unknown) => Promise.reject(isCorruption(error) ? await damage(error) : error);
  catchRejections(db, ['_get', '_getMany', '_clear'], checked);
  catchRejections(db, ['_batch'], async (error: unknown) => Promise.reject((error as { code?: unknown } | null)?.code === 'LEVEL_CORRUPTION' ? await damage(error as Error) : error));
  wrapReturned(db, ['_iterator'], (it) => catchRejections(it, ['_next', '_nextv'], checked));
}

/** Replaces each method `names` of `target` (each returning a promise) by one whose rejection goes through `onRejected`. */
function catchRejections<T extends object>(target: T, names: string[], onRejected: (error: unknown) => Promise<never>): T {
  const methods = target as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of names) {
    const original = (methods[name] as (...args: unknown[]) => Promise<unknown>).bind(target);
    methods[name] = (...args) => original(...args).catch(onRejected);
  }
  return target;
}

/** Replaces each method `names` of `target` by one that hands what the original returns through `wrap`. */
function wrapReturned(target: object, names: string[], wrap: (returned: object) => object): void {
  const methods = target as unknown as Record<string, (...args: unknown[]) => object>;
  for (const name of names) {
    const original = (methods[name] as (...args: unknown[]) => object).bind(target);
    methods[name] = (...args) => wrap(original(...args));
  }
}

/**
 * Makes every read of `sublevel` whose value does not decode reject with what
 * `damage(error)` resolves. LevelDB verifies no checksum on a read (its
 * ReadOptions' verify_checksums, which classic-level leaves off), so a byte
 * changed inside a stored value comes back changed, and a JSON value that no
 * longer parses failed as "Could not decode", an internal error of exit 1,
 * rather than the damage it is.
 */
export function checkDecodes<S extends object>(sublevel: S, damage: (error: Error) => Promise<Error>): S {
  const checked = async (error: unknown) => Promise.reject(isUndecodable(error) ? await damage(error) : error);
  catchRejections(sublevel, ['get', 'getMany'], checked);
  wrapReturned(sublevel, ['iterator', 'values'], (it) => catchRejections(it, ['next', 'nextv', 'all'], checked));
  return sublevel;
}
