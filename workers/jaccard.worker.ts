/**
 * Bank deduplication by Jaccard similarity of word shingles (docs/concepts/tmas-loop.md,
 * step 4). Pure functions run by the pool: the `dedup` task.
 *
 * The definition (a text's shingles, their similarity) is shingles.ts; the
 * fast path that decides the same keeps works on shingle ids (shingle-ids.ts)
 * and an index of the records kept (kept-records.ts).
 */
import { KeptRecords } from './kept-records.ts';
import { createShingleTable, forEachShingle, toWordIds } from './shingle-ids.ts';
import { checkShingle, DEFAULT_SHINGLE } from './shingles.ts';
import type { DedupInput, DedupOutput } from './tasks.ts';

export { DEFAULT_SHINGLE, jaccard, toShingles, toWords } from './shingles.ts';

/**
 * Which incoming records to keep: a record is dropped when its similarity to
 * any kept record (an existing one, or an earlier incoming one that was kept)
 * is at least `threshold`. The decisions are exactly those of comparing every
 * pair with `jaccard`.
 *
 * Speed comes from an inverted index of the kept records (kept-records.ts),
 * over the shingles of the incoming records only: no other shingle can be
 * shared with a record still to decide.
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

  const kept = new KeptRecords({ shingles: table.size(), records: existing.length + incoming.length, threshold });
  // An existing record posts the incoming shingles it holds, and its size.
  for (const text of existingWords) {
    const record = kept.size;
    const size = forEachShingle(text, local, (start, hash) => {
      const id = table.find(text.words, start, text.width, hash);
      if (id !== -1) kept.post(id, record);
    });
    kept.add(size);
  }
  return queries.map((query) => {
    if (kept.isDuplicate(query)) return false;
    kept.keep(query);
    return true;
  });
}

/** The `dedup` task. */
export function dedup(input: DedupInput): DedupOutput {
  return { keep: decideKeeps(input) };
}
