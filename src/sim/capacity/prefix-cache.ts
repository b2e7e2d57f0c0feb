/**
 * Automatic prefix caching as vLLM does it, by text: a prompt is cut into
 * fixed blocks, each block's key hashes everything up to its end (a chain),
 * so a block is found only when the whole prompt before it matches too.
 * block-pool.ts keeps the blocks under these keys: shared by the sequences
 * that hold them, cached while nobody does.
 */
import { CHARS_PER_TOKEN } from '../model/filler.ts';

/** Characters per block: 16 tokens at the simulator's 4 characters per token, vLLM's default block size. */
export const BLOCK_CHARS = 64;
/** Tokens per block. */
export const BLOCK_TOKENS = BLOCK_CHARS / CHARS_PER_TOKEN;

/**
 * The chain keys of the full blocks of `text`: two FNV-1a lanes carried from
 * block to block, packed into 53 bits. Not cryptographic; collisions at this
 * width are negligible for a simulator.
 */
export function blockKeysOf(text: string): number[] {
  const keys: number[] = [];
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  const full = text.length - (text.length % BLOCK_CHARS);
  for (let at = 0; at < full; at++) {
    const code = text.charCodeAt(at);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x0100019b) ^ (b >>> 15);
    if ((at + 1) % BLOCK_CHARS === 0) keys.push((a >>> 0) * 2 ** 21 + ((b >>> 0) >>> 11));
  }
  return keys;
}
