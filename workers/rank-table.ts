/**
 * A tiktoken rank file as a table of byte strings: every token's bytes in one
 * buffer, found by an open-addressing hash of the bytes themselves.
 *
 * Why not a `Map` keyed by each token as a Latin-1 string: building one for
 * o200k_base (200,000 strings, each decoded from base64) took about 0.2 s of
 * CPU time in every pool thread, garbage collection included, before the
 * first prompt of a run could be counted, and every run starts a thread. Here
 * the base64 is decoded straight into the buffer (no string per token), the
 * table is a few typed arrays (5 MB, not 20), and a lookup hashes the bytes of
 * a piece where they lie, without making a string of them.
 */

/** A token's rank by its bytes. */
export interface RankTable {
  /** The rank of the token whose bytes are `bytes[start, end)`; -1 when they are no token. */
  rank(bytes: Uint8Array, start: number, end: number): number;
  /** Bytes of the longest token: no longer run of bytes is one. */
  readonly longest: number;
}

/** Each base64 character's six bits; -1 for any other character (the padding `=` included). */
const BASE64_BITS = Int8Array.from({ length: 128 }, (_, code) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.indexOf(String.fromCharCode(code)));

/** Decodes the base64 of `text[from, to)` into `out` at `at` (up to its padding); returns where the bytes end. */
function decodeBase64(text: string, from: number, to: number, out: Uint8Array, at: number): number {
  let bits = 0;
  let held = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? (BASE64_BITS[code] as number) : -1;
    if (value < 0) break;
    bits = ((bits << 6) | value) & 0xffffff;
    held += 6;
    if (held >= 8) {
      held -= 8;
      out[at++] = (bits >> held) & 0xff;
    }
  }
  return at;
}

/** FNV-1a over `bytes[start, end)`. */
function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  return hash >>> 0;
}

/** Whether `a[aStart, aEnd)` and `b[bStart, bEnd)` hold the same bytes. */
function sameBytes(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let i = 0; i < aEnd - aStart; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}

/** Where the space-separated field that starts at `from` ends, within a line that ends at `lineEnd`. */
function fieldEnd(text: string, from: number, lineEnd: number): number {
  const space = text.indexOf(' ', from);
  return space === -1 || space > lineEnd ? lineEnd : space;
}

/** Every token of a rank file: the bytes of token k are `bytes[offsets[k], offsets[k + 1])`, its rank `ranks[k]`. */
interface Tokens {
  bytes: Uint8Array;
  offsets: Int32Array;
  ranks: Int32Array;
  count: number;
}

/**
 * Reads a rank file's `bpe_ranks`: lines of `! <first rank> <token> <token>…`
 * (fields cut at each space), ranks consecutive within a line, tokens in base64.
 */
function readTokens(text: string): Tokens {
  let spaces = 0;
  for (let at = text.indexOf(' '); at !== -1; at = text.indexOf(' ', at + 1)) spaces++;
  // Each token follows a space; base64 is 4 characters for 3 bytes.
  const offsets = new Int32Array(spaces + 1);
  const ranks = new Int32Array(spaces);
  const bytes = new Uint8Array(Math.ceil((text.length * 3) / 4));
  let count = 0;
  let used = 0;
  for (let start = 0; start < text.length; ) {
    let lineEnd = text.indexOf('\n', start);
    if (lineEnd === -1) lineEnd = text.length;
    const afterMarker = fieldEnd(text, start, lineEnd);
    if (afterMarker < lineEnd) {
      let end = fieldEnd(text, afterMarker + 1, lineEnd);
      let rank = Number.parseInt(text.slice(afterMarker + 1, end), 10);
      while (end < lineEnd) {
        const from = end + 1;
        end = fieldEnd(text, from, lineEnd);
        offsets[count] = used;
        used = decodeBase64(text, from, end, bytes, used);
        ranks[count++] = rank++;
      }
    }
    start = lineEnd + 1;
  }
  offsets[count] = used;
  return { bytes, offsets, ranks, count };
}

/** Builds the table of a rank file's `bpe_ranks`; a token listed twice keeps its last rank, as a map would. */
export function readRankTable(bpeRanks: string): RankTable {
  const { bytes, offsets, ranks, count } = readTokens(bpeRanks);
  // At most half full, so that a probe ends within a few slots.
  const mask = 2 ** Math.ceil(Math.log2(Math.max(2, count * 2))) - 1;
  const slots = new Int32Array(mask + 1).fill(-1);
  let longest = 0;
  for (let token = 0; token < count; token++) {
    const start = offsets[token] as number;
    const end = offsets[token + 1] as number;
    longest = Math.max(longest, end - start);
    for (let slot = hashOf(bytes, start, end) & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot] as number;
      if (held === -1 || sameBytes(bytes, offsets[held] as number, offsets[held + 1] as number, bytes, start, end)) {
        slots[slot] = token;
        break;
      }
    }
  }
  return {
    longest,
    rank(piece, start, end) {
      for (let slot = hashOf(piece, start, end) & mask; ; slot = (slot + 1) & mask) {
        const held = slots[slot] as number;
        if (held === -1) return -1;
        if (sameBytes(bytes, offsets[held] as number, offsets[held + 1] as number, piece, start, end)) return ranks[held] as number;
      }
    },
  };
}
