/**
 * LevelDB's log format, which both its MANIFEST and its write-ahead logs
 * (`*.log`) are written in: 32 KB blocks of records, each with a CRC-32C of
 * its type and payload, a record longer than what is left of a block split
 * into pieces (first, middle, last).
 */
import { crc32c, unmaskCrc } from './crc32c.ts';

/** A log that cannot be read as one; the message says where. */
export class LogDamage extends Error {}

/** A log is written in blocks of this size; a record never runs past one. */
const BLOCK = 32768;
/** A record's header: its masked CRC-32C (4 bytes), its length (2) and its type (1). */
const HEADER = 7;
/** Record types: a whole record, or the first, a middle or the last piece of one split across blocks. */
const FULL = 1;
const FIRST = 2;
const MIDDLE = 3;
const LAST = 4;

/**
 * The records of a LevelDB log, whole (pieces joined), checksums checked;
 * throws LogDamage. A record or piece cut off at the end is the end (a writer
 * stopped there, as a kill leaves it), as LevelDB reads it. With `failing`, a
 * piece that fails its checksum is passed over instead (with the record it
 * belongs to), and `failing` is told where its type byte lies.
 */
export function* logRecords(bytes: Uint8Array, failing?: (typeByte: number) => void): Generator<Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  let pieces: Uint8Array[] | null = null;
  while (offset + HEADER <= bytes.length) {
    const left = BLOCK - (offset % BLOCK);
    if (left < HEADER) {
      offset += left; // a block's trailer
      continue;
    }
    const length = view.getUint16(offset + 4, true);
    const type = bytes[offset + 6] as number;
    if (type === 0 && length === 0) return; // space preallocated and never written
    if (HEADER + length > Math.min(left, bytes.length - offset)) {
      // Cut off in the file's last block: where a writer stopped. Elsewhere a record never runs past its block.
      if (bytes.length < offset + left) return;
      if (failing === undefined) throw new LogDamage(`a record at byte ${offset} runs past its block (its length is ${length})`);
      // LevelDB drops the rest of such a block.
      offset += left;
      pieces = null;
      continue;
    }
    const checked = bytes.subarray(offset + 6, offset + HEADER + length);
    if (crc32c(checked) !== unmaskCrc(view.getUint32(offset, true))) {
      if (failing === undefined) throw new LogDamage(`a record at byte ${offset} fails its checksum`);
      failing(offset + 6);
      offset += HEADER + length;
      pieces = null;
      continue;
    }
    const payload = bytes.subarray(offset + HEADER, offset + HEADER + length);
    offset += HEADER + length;
    if (type === FULL && pieces === null) yield payload;
    else if (type === FIRST && pieces === null) pieces = [payload];
    else if ((type === MIDDLE || type === LAST) && pieces !== null) {
      pieces.push(payload);
      if (type === LAST) {
        yield Buffer.concat(pieces);
        pieces = null;
      }
    } else if (failing === undefined) throw new LogDamage(`a record at byte ${offset - HEADER - length} is out of place (type ${type})`);
    // Passing over a failing piece leaves the rest of its record out of place: LevelDB drops those pieces too.
    else pieces = null;
  }
}
