/**
 * Byte-pair token counting over a tiktoken rank file, in a table a small part
 * of the size of js-tiktoken's.
 *
 * js-tiktoken's `Tiktoken` keeps every token twice: a map from the token's
 * bytes written as decimal text ("104,101,108") to its rank, and a map from
 * the rank to a `Uint8Array` for decoding. For o200k_base that is a large heap
 * in every pool thread, plus as much garbage while it is built, and the
 * pool never decodes. Here each token is its bytes in one table, looked up by
 * the bytes of a piece (rank-table.ts), built straight from the rank file.
 *
 * The merge rule is js-tiktoken's (`bytePairMerge`): repeatedly join the
 * adjacent pair whose concatenation has the lowest rank, the leftmost on a
 * tie, until no adjacent pair is a token. The counts are the same, which
 * test/pool/pool.test.ts checks against js-tiktoken on tricky texts. A word is
 * merged by rescanning its pairs after each join; a longer piece (a run of
 * one character can be megabytes) through queues (bpe-merge.ts), in time
 * near linear in its length.
 */
import type { TiktokenBPE } from 'js-tiktoken/lite';
import { mergeParts } from './bpe-merge.ts';
import { readRankTable } from './rank-table.ts';

/** Counts the tokens of one pre-tokenized chunk (one match of the encoding's pattern). */
export interface BpeCounter {
  countChunk(chunk: string): number;
}

/**
 * Bytes past which a piece is merged through queues (bpe-merge.ts). Below it
 * the plain rescanning loop is faster (the two cross at 24-36 bytes): its
 * cost grows with the square of the length, but words are a few bytes long.
 */
const LONG_PIECE = 32;

/** Builds the counter of one encoding from its rank file. */
export function createBpeCounter(file: TiktokenBPE): BpeCounter {
  const ranks = readRankTable(file.bpe_ranks);
  // Reused between chunks: the start of each part of the piece being merged.
  let starts = new Int32Array(64);
  // A pair longer than the longest token never joins: no lookup for it.
  const longest = ranks.longest;
  // A byte's id in a long piece is its rank (every byte is a token of these encodings; one that were not gets an id no rank has).
  const byteIds = Int32Array.from({ length: 256 }, (_, byte) => {
    const rank = ranks.rank(Uint8Array.of(byte), 0, 1);
    return rank === -1 ? 2 ** 30 + byte : rank;
  });

  /** A long piece, given as its UTF-8 bytes: its first parts are its bytes, read without a string of them. */
  function countLongPiece(bytes: Uint8Array): number {
    const count = bytes.length;
    if (count <= longest && ranks.rank(bytes, 0, count) !== -1) return 1;
    const ids = new Int32Array(count);
    for (let i = 0; i < count; i++) ids[i] = byteIds[bytes[i] as number] as number;
    return mergeParts({
      bounds: null,
      count,
      ids,
      // Asked once per distinct pair in a while: the pair's bytes, looked up where they lie.
      rank: (a, _b, c) => (c - a > longest ? -1 : ranks.rank(bytes, a, c)),
    });
  }

  /** A short piece, given as its UTF-8 bytes: merged by rescanning its pairs after each join. */
  function countPiece(bytes: Uint8Array): number {
    const count = bytes.length;
    if (count <= 1 || ranks.rank(bytes, 0, count) !== -1) return count === 0 ? 0 : 1;
    if (starts.length < count + 1) starts = new Int32Array(count * 2);
    // parts i spans bytes[starts[i], starts[i + 1]); `parts` of them are live.
    let parts = count;
    for (let i = 0; i <= parts; i++) starts[i] = i;
    while (parts > 1) {
      let minRank = Infinity;
      let minAt = -1;
      for (let i = 0; i < parts - 1; i++) {
        const rank = ranks.rank(bytes, starts[i] ?? 0, starts[i + 2] ?? 0);
        if (rank !== -1 && rank < minRank) {
          minRank = rank;
          minAt = i;
        }
      }
      if (minAt === -1) break;
      // Joining parts minAt and minAt + 1 removes the boundary between them.
      starts.copyWithin(minAt + 1, minAt + 2, parts + 1);
      parts -= 1;
    }
    return parts;
  }

  return {
    countChunk(chunk) {
      const bytes = Buffer.from(chunk, 'utf8');
      return bytes.length > LONG_PIECE ? countLongPiece(bytes) : countPiece(bytes);
    },
  };
}
