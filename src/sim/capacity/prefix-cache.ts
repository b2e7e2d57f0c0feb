/**
 * Automatic prefix caching as vLLM does it, by text: a prompt is cut into
 * fixed blocks, each block's key hashes everything up to its end (a chain),
 * so a block is found only when the whole prompt before it matches too. The
 * leading blocks found cost no prefill. The cache is bounded and forgets the
 * least recently used block first.
 */
import { CHARS_PER_TOKEN } from '../filler.ts';

/** Characters per block: 16 tokens at the simulator's 4 characters per token, vLLM's default block size. */
export const BLOCK_CHARS = 64;
/** Tokens per block. */
export const BLOCK_TOKENS = BLOCK_CHARS / CHARS_PER_TOKEN;

/** A bounded prefix cache. */
export interface PrefixCache {
  /** Tokens of `text`'s leading full blocks already cached (at most `promptTokens`); caches all of its full blocks. */
  admit(text: string, promptTokens: number): number;
  /** Blocks held. */
  readonly size: number;
}

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

/** A prefix cache holding at most `maxBlocks` blocks. */
export function createPrefixCache(maxBlocks: number): PrefixCache {
  const blocks = new Map<number, true>();
  return {
    admit(text, promptTokens) {
      let hits = 0;
      let matching = true;
      for (const key of blockKeysOf(text)) {
        const found = blocks.delete(key);
        if (found && matching) hits++;
        else matching = false;
        blocks.set(key, true);
        if (blocks.size > maxBlocks) blocks.delete(blocks.keys().next().value as number);
      }
      return Math.min(promptTokens, hits * BLOCK_TOKENS);
    },
    get size() {
      return blocks.size;
    },
  };
}
