/**
 * Reading a LevelDB MANIFEST far enough to know which table files the store
 * is made of. A MANIFEST is a log (32 KB blocks of checksummed records, a
 * record split across blocks in pieces) whose records are version edits: the
 * tables each edit adds (with their sizes) and removes. The tables the whole
 * log leaves are the store's live tables; LevelDB never rewrites one, which
 * is what lets a private view link them (store-view.ts).
 */
import { crc32c, unmaskCrc } from './crc32c.ts';

/** What the MANIFEST says the store holds. */
export interface ManifestContents {
  /** The live tables: file number → its size in bytes. */
  tables: Map<number, number>;
  /** The number LevelDB gives its next new file: every live table's is below it. */
  nextFile: number;
}

/** A MANIFEST that cannot be read as one; the message says where. */
export class ManifestDamage extends Error {}

const BLOCK = 32768;
const HEADER = 7;
const FULL = 1;
const FIRST = 2;
const MIDDLE = 3;
const LAST = 4;

/** The records of a LevelDB log, whole (pieces joined), checksums checked. A piece cut off at the end is the end (a writer stopped there), as LevelDB reads it. */
function* logRecords(bytes: Uint8Array): Generator<Uint8Array> {
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
    if (offset + HEADER + length > bytes.length) return;
    const checked = bytes.subarray(offset + 6, offset + HEADER + length);
    if (crc32c(checked) !== unmaskCrc(view.getUint32(offset, true))) throw new ManifestDamage(`a record at byte ${offset} fails its checksum`);
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
    } else throw new ManifestDamage(`a record at byte ${offset - HEADER - length} is out of place (type ${type})`);
  }
}

/** Reads varints and length-prefixed strings from one version edit. */
class EditReader {
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.at >= this.bytes.length;
  }

  varint(): number {
    let value = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      const byte = this.bytes[this.at++];
      if (byte === undefined) throw new ManifestDamage('a version edit ends inside a number');
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new ManifestDamage('a version edit holds a number over 64 bits');
  }

  skipString(): void {
    const length = this.varint();
    if (this.at + length > this.bytes.length) throw new ManifestDamage('a version edit ends inside a key');
    this.at += length;
  }
}

/** Applies one version edit (LevelDB's tags, db/version_edit.cc) to `contents`. */
function applyEdit(edit: Uint8Array, contents: ManifestContents, levels: Map<string, number>): void {
  const reader = new EditReader(edit);
  while (!reader.done) {
    const tag = reader.varint();
    if (tag === 1) reader.skipString(); // comparator
    else if (tag === 2 || tag === 4 || tag === 9) reader.varint(); // log number, last sequence, previous log number
    else if (tag === 3) contents.nextFile = reader.varint();
    else if (tag === 5) {
      reader.varint(); // compaction pointer: level, key
      reader.skipString();
    } else if (tag === 6) {
      const level = reader.varint();
      levels.delete(`${level}:${reader.varint()}`);
    } else if (tag === 7) {
      const level = reader.varint();
      const file = reader.varint();
      levels.set(`${level}:${file}`, reader.varint());
      reader.skipString(); // smallest key
      reader.skipString(); // largest key
    } else throw new ManifestDamage(`a version edit holds an unknown tag ${tag}`);
  }
}

/** The live tables and next file number a MANIFEST's bytes describe; throws ManifestDamage. */
export function readManifest(bytes: Uint8Array): ManifestContents {
  const contents: ManifestContents = { tables: new Map(), nextFile: 0 };
  // A table is added and removed per level (a move to the next level is a delete and an add).
  const levels = new Map<string, number>();
  let edits = 0;
  for (const edit of logRecords(bytes)) {
    applyEdit(edit, contents, levels);
    edits++;
  }
  if (edits === 0) throw new ManifestDamage('it holds no version edit');
  for (const [key, size] of levels) contents.tables.set(Number(key.split(':')[1]), size);
  return contents;
}
