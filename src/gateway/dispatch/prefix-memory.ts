/**
 * The prompt prefixes one replica has most likely cached: the prefix keys
 * (prefix-keys.ts) of the prompts sent to it lately, in a bounded cache that
 * lets the least recently used go first, as a server's prefix cache does when
 * its memory fills. An approximation: the server's cache also loses what its
 * running sequences push out, and this one does not see that.
 */
import { SizedLru } from '../../pool/sized-lru.ts';
import { PREFIX_BLOCK_CHARS, matchedChars, type PrefixKeys } from './prefix-keys.ts';

/**
 * Characters of prompt text remembered per replica: about a million tokens,
 * half of what one H200 serving a 30B model keeps in KV cache, the rest
 * being what its running sequences generate.
 */
const REMEMBERED_CHARS = 4_000_000;

/** What one replica has been sent lately. */
export interface PrefixMemory {
  /** Characters of `prefix` (from its start) the replica most likely holds. */
  matched(prefix: PrefixKeys): number;
  /** `prefix` was sent to the replica. */
  remember(prefix: PrefixKeys): void;
  /** The replica lost what it held (it went away and came back). */
  forget(): void;
}

/** An empty memory. */
export function createPrefixMemory(rememberedChars = REMEMBERED_CHARS): PrefixMemory {
  let blocks = new SizedLru<number, true>(rememberedChars);
  return {
    matched(prefix) {
      const { keys } = prefix;
      const held = (index: number) => blocks.has(keys[index] as number);
      // Chained keys: the k-th is held only if the prompt's first k blocks were sent, so the blocks
      // held form a run from the start, found by bisection. Most replicas hold not even the first
      // block; a replica that holds one whole (a candidate's verifications are equal prompts) holds the last.
      if (keys.length === 0 || !held(0)) return 0;
      if (held(keys.length - 1)) return prefix.chars;
      let [low, high] = [0, keys.length - 1];
      while (high - low > 1) {
        const middle = (low + high) >> 1;
        if (held(middle)) low = middle;
        else high = middle;
      }
      return matchedChars(prefix, low + 1);
    },
    remember(prefix) {
      for (const key of prefix.keys) blocks.set(key, true, PREFIX_BLOCK_CHARS);
    },
    forget() {
      blocks = new SizedLru<number, true>(rememberedChars);
    },
  };
}
