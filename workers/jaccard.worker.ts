/**
 * Bank deduplication by Jaccard similarity of word shingles (DESIGN.md section 1,
 * step 4). Pure functions run by the pool.
 *
 * A text's shingles: lowercase it, split it into words on every run of
 * characters that are not letters, combining marks or digits (Unicode-aware),
 * and take every `shingle` consecutive words. A text with fewer words than that
 * has one shingle, its whole word sequence, so a short record still matches its
 * exact repeat; a text with no words has none. Jaccard similarity is
 * |A∩B| / |A∪B|, and two texts without words count as identical (1).
 */
import type { DedupInput, DedupOutput } from './tasks.ts';

/** Words per shingle when the task does not say. */
export const DEFAULT_SHINGLE = 3;

const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** The words of `text`, lowercased. */
export function toWords(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** The set of shingles of `text` (words joined by a space, which no word contains). */
export function toShingles(text: string, shingle = DEFAULT_SHINGLE): Set<string> {
  checkShingle(shingle);
  const words = toWords(text);
  const shingles = new Set<string>();
  if (words.length === 0) return shingles;
  if (words.length < shingle) {
    shingles.add(words.join(' '));
    return shingles;
  }
  for (let start = 0; start + shingle <= words.length; start++) {
    shingles.add(words.slice(start, start + shingle).join(' '));
  }
  return shingles;
}

/** Jaccard similarity from set sizes and intersection: the one formula both paths use. */
function similarity(sizeA: number, sizeB: number, shared: number): number {
  return sizeA === 0 && sizeB === 0 ? 1 : shared / (sizeA + sizeB - shared);
}

/** Reference Jaccard similarity of two texts, by brute force on shingle strings. For tests and one-off checks. */
export function jaccard(a: string, b: string, shingle = DEFAULT_SHINGLE): number {
  const setA = toShingles(a, shingle);
  const setB = toShingles(b, shingle);
  let shared = 0;
  for (const item of setA) if (setB.has(item)) shared += 1;
  return similarity(setA.size, setB.size, shared);
}

function checkShingle(shingle: number): void {
  if (!Number.isInteger(shingle) || shingle < 1) {
    throw new TypeError(`shingle must be a positive integer, got ${shingle}`);
  }
}

/**
 * Pruning tests must never reject a pair that the exact formula would accept,
 * whatever the rounding: they reject only pairs below the threshold by this
 * relative margin, and the final decision uses `similarity` itself.
 */
const PRUNE_SLACK = 1 - 1e-9;

/**
 * A text as word ids (equal words, equal ids) and its shingle windows. The fast
 * path compares shingles as hashed windows of word ids, never as joined strings:
 * building and hashing hundreds of thousands of shingle strings was most of the
 * cost of the obvious version on a bank of thousands of records.
 */
interface WordIds {
  words: Int32Array;
  /** Words per shingle window: the shingle size, or all the words of a shorter text. */
  width: number;
  windows: number;
}

function toWordIds(text: string, shingle: number, ids: Map<string, number>): WordIds {
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

interface ShingleTable {
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
function createShingleTable(capacityHint: number): ShingleTable {
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
function forEachShingle(text: WordIds, local: Int32Array, visit: (start: number, hash: number) => void): number {
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

/**
 * Which incoming records to keep: a record is dropped when its similarity to
 * any kept record (an existing one, or an earlier incoming one that was kept)
 * is at least `threshold`. The decisions are exactly those of comparing every
 * pair with `jaccard`.
 *
 * Speed comes from an inverted index, shingle → kept records that hold it: only
 * records sharing a shingle with the new one get an intersection count, and a
 * record is not even counted when its size, or the shingles left to scan, make
 * |A∩B| ≥ θ/(1+θ)·(|A|+|B|) impossible. Only the incoming records' shingles are
 * indexed; existing records contribute their sizes and their postings for those.
 */
export function decideKeeps(input: DedupInput): boolean[] {
  const { existing, incoming, threshold } = input;
  const shingle = input.shingle ?? DEFAULT_SHINGLE;
  checkShingle(shingle);
  if (Number.isNaN(threshold)) throw new TypeError('threshold must be a number');

  const wordIds = new Map<string, number>();
  const incomingWords = incoming.map((text) => toWordIds(text, shingle, wordIds));
  const existingWords = existing.map((text) => toWordIds(text, shingle, wordIds));
  let longest = 1;
  for (const text of [...incomingWords, ...existingWords]) longest = Math.max(longest, text.windows);
  const local = new Int32Array(2 ** Math.ceil(Math.log2(longest * 2)));

  const table = createShingleTable(incomingWords.reduce((sum, text) => sum + text.windows, 0));
  const queries = incomingWords.map((text) => {
    const ids: number[] = [];
    forEachShingle(text, local, (start, hash) => ids.push(table.add(text.words, start, text.width, hash)));
    return ids;
  });

  const postings: number[][] = Array.from({ length: table.size() }, () => []);
  const sizes: number[] = [];
  let emptyKept = 0;
  const addRecord = (size: number): number => {
    if (size === 0) emptyKept += 1;
    return sizes.push(size) - 1;
  };
  for (const text of existingWords) {
    const record = sizes.length;
    const size = forEachShingle(text, local, (start, hash) => {
      const id = table.find(text.words, start, text.width, hash);
      if (id !== -1) postings[id]?.push(record);
    });
    addRecord(size);
  }

  // Counters live across queries; only the entries a query touched are reset.
  const shared = new Int32Array(existing.length + incoming.length);
  const touched: number[] = [];
  const ratio = (threshold / (1 + threshold)) * PRUNE_SLACK;

  const isDuplicate = (query: number[]): boolean => {
    const size = query.length;
    // Records sharing no shingle have similarity 0 (or 1 between two empty texts).
    if (sizes.length > 0 && threshold <= 0) return true;
    if (size === 0) return emptyKept > 0 && similarity(0, 0, 0) >= threshold;
    if (threshold > 1) return false;

    // Rare shingles first: the long posting lists then come when few shingles are
    // left to scan, where the "cannot reach θ any more" test rejects most records.
    const order = query.slice().sort((a, b) => (postings[a]?.length ?? 0) - (postings[b]?.length ?? 0));
    const minSize = threshold * size * PRUNE_SLACK;
    const maxSize = size / (threshold * PRUNE_SLACK);
    for (let position = 0; position < order.length; position++) {
      const left = size - position;
      for (const record of postings[order[position] ?? 0] ?? []) {
        const count = shared[record] ?? 0;
        if (count === 0) {
          const other = sizes[record] ?? 0;
          if (other < minSize || other > maxSize || left < ratio * (size + other)) continue;
          touched.push(record);
        }
        shared[record] = count + 1;
      }
    }
    let duplicate = false;
    for (const record of touched) {
      if (!duplicate && similarity(size, sizes[record] ?? 0, shared[record] ?? 0) >= threshold) duplicate = true;
      shared[record] = 0;
    }
    touched.length = 0;
    return duplicate;
  };

  return queries.map((query) => {
    if (isDuplicate(query)) return false;
    const record = addRecord(query.length);
    for (const id of query) postings[id]?.push(record);
    return true;
  });
}

/** The `dedup` task. */
export function dedup(input: DedupInput): DedupOutput {
  return { keep: decideKeeps(input) };
}
