/**
 * Shingles as numbers, for the fast path of deduplication (jaccard.worker.ts):
 * a text's words as ids, its shingles as hashed windows of those ids, and a
 * table that gives each distinct shingle of the incoming records an id.
 * Equal hashes are always confirmed word by word, so the ids are exact.
 */
import { toWords } from './shingles.ts';

/**
 * A text as word ids (equal words, equal ids) and its shingle windows. The fast
 * path compares shingles as hashed windows of word ids, never as joined strings:
 * building and hashing hundreds of thousands of shingle strings was most of the
 * cost of the obvious version on a bank of thousands of records.
 */
export interface WordIds {
  words: Int32Array;
  /** Words per shingle window: the shingle size, or all the words of a shorter text. */
  width: number;
  windows: number;
}

/** `text`'s words as ids (new words get the next id in `ids`) and its shingle windows. */
export function toWordIds(text: string, shingle: number, ids: Map<string, number>): WordIds {
  const found = toWords(text);
  const words = new Int32Array(found.length);
  for (let index = 0; index < found.length; index++) {
    const word = found[index] ?? '';
    let id = ids.get(word);
    if (id === undefined) {
      id = ids.size;
      ids.set(word, id);
    }
    words[index] = id;
  }
  const width = Math.min(shingle, words.length);
  return { words, width, windows: words.length === 0 ? 0 : words.length - width + 1 };
}

/** A 32-bit hash of a window; equal hashes are always confirmed word by word. */
function hashWindow(words: Int32Array, start: number, width: number): number {
  let hash = width;
  for (let index = start; index < start + width; index++) {
    hash = Math.imul(hash ^ (words[index] ?? 0), 0x9e3779b1);
    hash ^= hash >>> 16;
  }
  hash = Math.imul(hash ^ (hash >>> 15), 0x85ebca6b);
  return (hash ^ (hash >>> 13)) >>> 0;
}

function sameWindow(a: Int32Array, startA: number, widthA: number, b: Int32Array, startB: number, widthB: number): boolean {
  if (widthA !== widthB) return false;
  for (let offset = 0; offset < widthA; offset++) if (a[startA + offset] !== b[startB + offset]) return false;
  return true;
}

/** Ids of the distinct shingles of the incoming records. */
export interface ShingleTable {
  size(): number;
  /** The id of a window's shingle, or -1. */
  find(words: Int32Array, start: number, width: number, hash: number): number;
  /** The id of a window's shingle, added if new. */
  add(words: Int32Array, start: number, width: number, hash: number): number;
}

/**
 * Shingle ids for the shingles of the incoming records: an open-addressing
 * table of hashes, each entry pointing at one occurrence of its word window.
 * Shingles of the existing bank are only looked up, never added: no other
 * shingle can be shared with a record still to decide.
 */
export function createShingleTable(capacityHint: number): ShingleTable {
  const mask = 2 ** Math.ceil(Math.log2(Math.max(16, capacityHint * 2))) - 1;
  const slots = new Int32Array(mask + 1).fill(-1);
  const hashes: number[] = [];
  const sources: Int32Array[] = [];
  const starts: number[] = [];
  const widths: number[] = [];
  const probe = (words: Int32Array, start: number, width: number, hash: number): number => {
    let slot = hash & mask;
    for (;;) {
      const id = slots[slot] ?? -1;
      if (id === -1) return slot;
      if (hashes[id] === hash && sameWindow(sources[id] ?? words, starts[id] ?? 0, widths[id] ?? 0, words, start, width)) return slot;
      slot = (slot + 1) & mask;
    }
  };
  return {
    size: () => hashes.length,
    find(words: Int32Array, start: number, width: number, hash: number): number {
      return slots[probe(words, start, width, hash)] ?? -1;
    },
    // The hint bounds the entries, so the table is never more than half full.
    add(words: Int32Array, start: number, width: number, hash: number): number {
      const slot = probe(words, start, width, hash);
      const found = slots[slot] ?? -1;
      if (found !== -1) return found;
      const id = hashes.length;
      slots[slot] = id;
      hashes.push(hash);
      sources.push(words);
      starts.push(start);
      widths.push(width);
      return id;
    },
  };
}

/**
 * Calls `visit` once per distinct shingle of a text and returns how many there
 * are. Repeats are found with a small table local to the text, which stays in
 * cache, instead of a bank-wide one with hundreds of thousands of entries.
 */
export function forEachShingle(text: WordIds, local: Int32Array, visit: (start: number, hash: number) => void): number {
  const { words, width, windows } = text;
  const mask = 2 ** Math.ceil(Math.log2(Math.max(2, windows * 2))) - 1;
  local.fill(-1, 0, mask + 1);
  let distinct = 0;
  for (let start = 0; start < windows; start++) {
    const hash = hashWindow(words, start, width);
    let slot = hash & mask;
    let repeat = false;
    for (let seen = local[slot] ?? -1; seen !== -1; seen = local[slot] ?? -1) {
      if (sameWindow(words, seen, width, words, start, width)) {
        repeat = true;
        break;
      }
      slot = (slot + 1) & mask;
    }
    if (repeat) continue;
    local[slot] = start;
    distinct += 1;
    visit(start, hash);
  }
  return distinct;
}
