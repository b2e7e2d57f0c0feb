/**
 * Every block of a LevelDB table checked against its checksum. LevelDB, as
 * `level` opens it, verifies no block's checksum when it reads one (its read
 * option for that is not exposed), so a flipped byte inside a compressed block
 * can read back as other text without an error; this check reads every block
 * itself.
 *
 * A table is its data blocks, then a filter block and a metaindex block, then
 * an index block, then a 48-byte footer (the handles of the metaindex and
 * index blocks, padding, the magic number). Each block is followed by a byte
 * for its compression (0 none, 1 Snappy) and the masked CRC-32C of its bytes
 * and that byte. The index block's entries hold the handles (offset and size,
 * varints) of the data blocks; the metaindex's, the filter block's.
 */
import { crc32c, unmaskCrc } from './crc32c.ts';
import { snappyDecompress, SnappyDamage } from './snappy.ts';

const FOOTER = 48;
/** The compression byte and the CRC after each block. */
const TRAILER = 5;

/** Where a table stops being one: the message (no file name) says what and where. */
class TableDamage extends Error {
  /** For a block that fails its checksum: where its compression byte lies. */
  failingByte?: number;
}

/** A block's place in the file: its contents, without the trailer. */
interface BlockHandle {
  offset: number;
  size: number;
}

/** Reads varints from bytes. */
class Varints {
  constructor(
    private readonly bytes: Uint8Array,
    public at: number,
    private readonly what: string,
  ) {}

  next(): number {
    let value = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      const byte = this.bytes[this.at++];
      if (byte === undefined) throw new TableDamage(`${this.what} ends inside a number`);
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new TableDamage(`${this.what} holds a number over 64 bits`);
  }

  handle(): BlockHandle {
    return { offset: this.next(), size: this.next() };
  }
}

/** A block's contents once its checksum is checked: decompressed when `parse` (a block whose entries are read), else as stored. */
function readBlock(bytes: Uint8Array, handle: BlockHandle, what: string, parse: boolean): Uint8Array {
  const end = handle.offset + handle.size;
  if (end + TRAILER > bytes.length - FOOTER) throw new TableDamage(`${what} at bytes ${handle.offset}-${end} runs past the table's end`);
  const stored = new DataView(bytes.buffer, bytes.byteOffset + end + 1, 4).getUint32(0, true);
  if (crc32c(bytes.subarray(handle.offset, end + 1)) !== unmaskCrc(stored)) {
    throw Object.assign(new TableDamage(`${what} at bytes ${handle.offset}-${end} fails its checksum`), { failingByte: end });
  }
  const contents = bytes.subarray(handle.offset, end);
  const compression = bytes[end] as number;
  if (compression > 1) throw new TableDamage(`${what} at bytes ${handle.offset}-${end} names compression ${compression}, which LevelDB does not write`);
  if (!parse || compression === 0) return contents;
  try {
    return snappyDecompress(contents);
  } catch (error) {
    if (error instanceof SnappyDamage) throw new TableDamage(`${what} at bytes ${handle.offset}-${end} does not decompress: ${error.message}`);
    throw error;
  }
}

/** The values of a block's entries (keys are not needed: they are prefix-compressed, and skipped). */
function entryValues(block: Uint8Array, what: string): Uint8Array[] {
  if (block.length < 4) throw new TableDamage(`${what} is too short to hold its restart count`);
  const restarts = new DataView(block.buffer, block.byteOffset + block.length - 4, 4).getUint32(0, true);
  const entriesEnd = block.length - 4 * (restarts + 1);
  if (entriesEnd < 0) throw new TableDamage(`${what} says it has ${restarts} restarts, more than it holds`);
  const values: Uint8Array[] = [];
  const reader = new Varints(block, 0, what);
  while (reader.at < entriesEnd) {
    reader.next(); // bytes shared with the previous key
    const unshared = reader.next();
    const valueLength = reader.next();
    const valueAt = reader.at + unshared;
    if (valueAt + valueLength > entriesEnd) throw new TableDamage(`${what} has an entry that runs past its end`);
    values.push(block.subarray(valueAt, valueAt + valueLength));
    reader.at = valueAt + valueLength;
  }
  return values;
}

/** The handles an index or metaindex block lists. */
function listedHandles(bytes: Uint8Array, handle: BlockHandle, what: string): BlockHandle[] {
  const block = readBlock(bytes, handle, what, true);
  return entryValues(block, what).map((value) => new Varints(value, 0, `an entry of ${what}`).handle());
}

/** What a check of a table found. */
export interface TableCheck {
  /** The first damage, or null when every block is whole. */
  damage: string | null;
  /** Where the compression byte of each block that fails its checksum lies (repair.ts makes those blocks unreadable to LevelDB). */
  failing: number[];
}

/** Checks every block of the table `bytes` holds; throws TableDamage where it cannot go on. */
function checkBlocks(bytes: Uint8Array): TableCheck {
  if (bytes.length < FOOTER) throw new TableDamage(`it holds ${bytes.length} bytes, fewer than a table's footer`);
  const footer = new Varints(bytes, bytes.length - FOOTER, 'its footer');
  const metaindex = footer.handle();
  const index = footer.handle();
  const check: TableCheck = { damage: null, failing: [] };
  /** Runs `read`; a block that fails its checksum is noted and the check goes on. */
  const noted = <T>(read: () => T, otherwise: T): T => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof TableDamage) || error.failingByte === undefined) throw error;
      check.damage ??= error.message;
      check.failing.push(error.failingByte);
      return otherwise;
    }
  };
  const listed = [...noted(() => listedHandles(bytes, metaindex, 'its metaindex block'), []), ...noted(() => listedHandles(bytes, index, 'its index block'), [])];
  for (const block of listed) noted(() => readBlock(bytes, block, 'the block', false), null);
  if (check.damage !== null) return check;
  // The blocks lie end to end from the first byte to the footer: a byte outside them would be one no check read.
  const blocks = [metaindex, index, ...listed].sort((a, b) => a.offset - b.offset);
  let next = 0;
  for (const block of blocks) {
    if (block.offset !== next) throw new TableDamage(`its blocks do not lie end to end (one starts at byte ${block.offset}, the one before ends at ${next})`);
    next = block.offset + block.size + TRAILER;
  }
  if (next !== bytes.length - FOOTER) throw new TableDamage(`its blocks end at byte ${next}, its footer starts at ${bytes.length - FOOTER}`);
  return check;
}

/** Checks the table `bytes` holds, every block of it (see above). */
export function checkTable(bytes: Uint8Array): TableCheck {
  try {
    return checkBlocks(bytes);
  } catch (error) {
    if (error instanceof TableDamage) return { damage: error.message, failing: [] };
    throw error;
  }
}
