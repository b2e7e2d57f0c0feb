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

/** The part of abstract-level's implementation interface that meets a table's blocks, which classic-level implements and its types leave out. */
interface Reads {
  _get(key: unknown, options: unknown): Promise<unknown>;
  _getMany(keys: unknown[], options: unknown): Promise<unknown[]>;
  _iterator(options: unknown): IteratorReads;
  /** Reads the keys of its range to delete them. */
  _clear(options: unknown): Promise<void>;
  /** Fails with the error of a compaction that met a corrupt block (LevelDB then refuses every write). */
  _batch(operations: unknown[], options: unknown): Promise<void>;
}

interface IteratorReads {
  _next(): Promise<unknown>;
  _nextv(size: number, options: unknown): Promise<unknown[]>;
}

/** True for LevelDB's own error about a corrupt or unreadable table (never a missing key, a closed database or a lock). */
export function isCorruption(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && (code === 'LEVEL_CORRUPTION' || code === 'LEVEL_IO_ERROR');
}

/**
 * Makes every read of `db` (and a clear, and a batch that fails because a
 * compaction met a corrupt block) reject with what `damage(error)` resolves
 * where LevelDB finds a corrupt table. A write's I/O error (a full disk) is
 * left as it is. Call before the database is used.
 */
export function checkReads(db: Level<string, unknown>, damage: (error: Error) => Promise<Error>): void {
  const reads = db as unknown as Reads;
  const checked = async (error: unknown) => Promise.reject(isCorruption(error) ? await damage(error) : error);
  const get = reads._get.bind(db);
  const getMany = reads._getMany.bind(db);
  const iterator = reads._iterator.bind(db);
  const clear = reads._clear.bind(db);
  const batch = reads._batch.bind(db);
  reads._get = (key, options) => get(key, options).catch(checked);
  reads._getMany = (keys, options) => getMany(keys, options).catch(checked);
  reads._clear = (options) => clear(options).catch(checked);
  reads._batch = (operations, options) => batch(operations, options).catch(async (error: unknown) => Promise.reject((error as { code?: unknown } | null)?.code === 'LEVEL_CORRUPTION' ? await damage(error as Error) : error));
  reads._iterator = (options) => {
    const it = iterator(options);
    const next = it._next.bind(it);
    const nextv = it._nextv.bind(it);
    it._next = () => next().catch(checked);
    it._nextv = (size, nextOptions) => nextv(size, nextOptions).catch(checked);
    return it;
  };
}

/** A sublevel's public reads, which decode what the database's reads gave. */
interface DecodingReads {
  get(key: unknown, options?: unknown): Promise<unknown>;
  getMany(keys: unknown[], options?: unknown): Promise<unknown[]>;
  iterator(options?: unknown): DecodingIterator;
  values(options?: unknown): DecodingIterator;
}

interface DecodingIterator {
  next(): Promise<unknown>;
  nextv(size: number, options?: unknown): Promise<unknown[]>;
  all(options?: unknown): Promise<unknown[]>;
}

/** True for abstract-level's error about a stored value its encoding cannot read. */
function isUndecodable(error: unknown): error is Error {
  return error instanceof Error && (error as { code?: unknown }).code === 'LEVEL_DECODE_ERROR';
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
  const reads = sublevel as unknown as DecodingReads;
  const checked = async (error: unknown) => Promise.reject(isUndecodable(error) ? await damage(error) : error);
  const get = reads.get.bind(sublevel);
  const getMany = reads.getMany.bind(sublevel);
  const iterator = reads.iterator.bind(sublevel);
  const values = reads.values.bind(sublevel);
  const checkedIterator = (it: DecodingIterator): DecodingIterator => {
    const [next, nextv, all] = [it.next.bind(it), it.nextv.bind(it), it.all.bind(it)];
    it.next = () => next().catch(checked);
    it.nextv = (size, options) => nextv(size, options).catch(checked);
    it.all = (options) => all(options).catch(checked);
    return it;
  };
  reads.get = (key, options) => get(key, options).catch(checked);
  reads.getMany = (keys, options) => getMany(keys, options).catch(checked);
  reads.iterator = (options) => checkedIterator(iterator(options));
  reads.values = (options) => checkedIterator(values(options));
  return sublevel;
}
