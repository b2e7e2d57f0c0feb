/**
 * Reading a LevelDB MANIFEST far enough to know which table files the store
 * is made of. A MANIFEST is a log (log-file.ts) whose records are version
 * edits: the tables each edit adds (with their sizes) and removes. The tables
 * the whole log leaves are the store's live tables; LevelDB never rewrites
 * one, which is what lets a private view link them (store-view.ts).
 */
import { LogDamage, logRecords } from './log-file.ts';

/** What the MANIFEST says the store holds. */
export interface ManifestContents {
  /** The live tables: file number → its size in bytes. */
  tables: Map<number, number>;
  /** The number LevelDB gives its next new file: every live table's is below it. */
  nextFile: number;
  /** The write-ahead log the store's recent writes are in: LevelDB makes it before the MANIFEST names it. 0: none named (a store just made, or repaired). */
  logNumber: number;
}

/** A MANIFEST whose version edits cannot be read; the message says where. */
export class ManifestDamage extends LogDamage {}

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
    else if (tag === 2) contents.logNumber = reader.varint();
    else if (tag === 4 || tag === 9) reader.varint(); // last sequence, previous log number
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

/** The live tables and next file number a MANIFEST's bytes describe; throws LogDamage (ManifestDamage for its edits). */
export function readManifest(bytes: Uint8Array): ManifestContents {
  const contents: ManifestContents = { tables: new Map(), nextFile: 0, logNumber: 0 };
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
