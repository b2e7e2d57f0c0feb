/**
 * Byte-pair token counting over a tiktoken rank file, in a table a tenth the
 * size of js-tiktoken's.
 *
 * js-tiktoken's `Tiktoken` keeps every token twice: a map from the token's
 * bytes written as decimal text ("104,101,108") to its rank, and a map from
 * the rank to a `Uint8Array` for decoding. For o200k_base that is a large heap
 * in every pool thread, plus as much garbage while it is built, and the
 * pool never decodes. Here each token is one map entry keyed by its bytes as a
 * Latin-1 string (one character per byte), built straight from the rank file.
 *
 * The merge rule is js-tiktoken's (`bytePairMerge`): repeatedly join the
 * adjacent pair whose concatenation has the lowest rank, the leftmost on a
 * tie, until no adjacent pair is a token. The counts are the same, which
 * test/pool.test.ts checks against js-tiktoken on tricky texts. A word is
 * merged by rescanning its pairs after each join; a longer piece (a run of
 * one character can be megabytes) through queues (bpe-merge.ts), in time
 * near linear in its length.
 */
import type { TiktokenBPE } from 'js-tiktoken/lite';
import { mergeParts } from './bpe-merge.ts';

/** Counts the tokens of one pre-tokenized chunk (one match of the encoding's pattern). */
export interface BpeCounter {
  countChunk(chunk: string): number;
}

/**
 * Decodes one base64 token of a rank file to a Latin-1 string of its bytes.
 * `atob` returns that string directly, without a `Buffer` per token: building
 * o200k_base's 200,000 entries is on the path of a run's first call (every
 * prompt is counted before it is sent).
 */
function tokenBytes(base64: string): string {
  return atob(base64);
}

/**
 * Reads a rank file's `bpe_ranks`: lines of `! <first rank> <token> <token>…`,
 * ranks consecutive within a line, tokens in base64.
 */
function readRanks(bpeRanks: string): Map<string, number> {
  const ranks = new Map<string, number>();
  let start = 0;
  while (start < bpeRanks.length) {
    let end = bpeRanks.indexOf('\n', start);
    if (end === -1) end = bpeRanks.length;
    const fields = bpeRanks.slice(start, end).split(' ');
    start = end + 1;
    if (fields.length < 2) continue;
    const first = Number.parseInt(fields[1] ?? '', 10);
    for (let i = 2; i < fields.length; i++) ranks.set(tokenBytes(fields[i] ?? ''), first + i - 2);
  }
  return ranks;
}

/**
 * Bytes past which a piece is merged through queues (bpe-merge.ts). Below it
 * the plain rescanning loop is faster (the two cross at 24-36 bytes): its
 * cost grows with the square of the length, but words are a few bytes long.
 */
const LONG_PIECE = 32;

/** Bytes `[start, end)` of `bytes` as a Latin-1 string (one character per byte), the rank table's keys. */
function latin1(bytes: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...bytes.subarray(start, end));
}

/** Builds the counter of one encoding from its rank file. */
export function createBpeCounter(file: TiktokenBPE): BpeCounter {
  const ranks = readRanks(file.bpe_ranks);
  // Reused between chunks: the start of each part of the piece being merged.
  let starts = new Int32Array(64);
  // A pair longer than the longest token never joins: no lookup for it.
  let longest = 0;
  for (const token of ranks.keys()) longest = Math.max(longest, token.length);
  // A byte's id in a long piece is its rank (every byte is a token of these encodings; one that were not gets an id no rank has).
  const byteIds = Int32Array.from({ length: 256 }, (_, byte) => ranks.get(String.fromCharCode(byte)) ?? 2 ** 30 + byte);

  /** A long piece, given as its UTF-8 bytes: its first parts are its bytes, read without a string of them. */
  function countLongPiece(bytes: Uint8Array): number {
    const count = bytes.length;
    if (count <= longest && ranks.has(latin1(bytes, 0, count))) return 1;
    const ids = new Int32Array(count);
    for (let i = 0; i < count; i++) ids[i] = byteIds[bytes[i] as number] as number;
    return mergeParts({
      bounds: null,
      count,
      ids,
      // Asked once per distinct pair in a while: the pair's bytes as the rank table's Latin-1 key.
      rank: (a, _b, c) => (c - a > longest ? -1 : (ranks.get(latin1(bytes, a, c)) ?? -1)),
    });
  }

  function countPiece(piece: string): number {
    if (piece.length <= 1 || ranks.has(piece)) return piece.length === 0 ? 0 : 1;
    if (starts.length < piece.length + 1) starts = new Int32Array(piece.length * 2);
    // parts i spans piece[starts[i], starts[i + 1]); `parts` of them are live.
    let parts = piece.length;
    for (let i = 0; i <= parts; i++) starts[i] = i;
    while (parts > 1) {
      let minRank = Infinity;
      let minAt = -1;
      for (let i = 0; i < parts - 1; i++) {
        const rank = ranks.get(piece.slice(starts[i] ?? 0, starts[i + 2] ?? 0));
        if (rank !== undefined && rank < minRank) {
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
      return bytes.length > LONG_PIECE ? countLongPiece(bytes) : countPiece(bytes.toString('latin1'));
    },
  };
}
