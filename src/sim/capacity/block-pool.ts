/**
 * The KV cache's prompt blocks as vLLM's block pool keeps them with automatic
 * prefix caching: a full block of a prompt is one physical block however many
 * running sequences hold it, found by its chain key (prefix-cache.ts) and
 * counted once. A block nobody holds stays cached but counts as free, as
 * vLLM's usage gauge counts it; such blocks are forgotten least recently
 * freed first, and a sequence frees its blocks tail first, so a prompt's
 * later blocks go before its leading ones (vLLM frees in reverse order).
 *
 * What a sequence holds beyond its full prompt blocks (its prompt's last,
 * partial block and what it generates) is its own, counted by the engine.
 */
import { BLOCK_TOKENS } from './prefix-cache.ts';

/** A sequence's prompt blocks once it holds them. */
export interface Holding {
  /** Chain keys of the blocks it holds in the pool, counted once however many hold them. */
  keys: number[];
  /** Prompt tokens found computed: its leading blocks that were in the pool (held or cached). */
  cachedTokens: number;
  /** Prompt tokens it holds on its own (its partial last block, and full blocks the pool could not share). */
  privateTokens: number;
}

/** The shared prompt blocks of one server. */
export interface BlockPool {
  /** Tokens of the leading blocks of `keys` that running sequences hold now: what a sequence with this prompt needs no new room for. */
  heldPrefixTokens(keys: readonly number[]): number;
  /** A sequence with this prompt takes its blocks: found ones are shared, the others added, held by it. */
  hold(keys: readonly number[], promptTokens: number): Holding;
  /** A sequence lets go of its blocks; those nobody holds stay cached, free. */
  release(keys: readonly number[]): void;
  /** Forgets cached blocks nobody holds, least recently freed first, until at most `blocks` remain. */
  trim(blocks: number): void;
  /** Tokens of the blocks held by at least one sequence. */
  readonly heldTokens: number;
  /** Blocks cached that nobody holds. */
  readonly cachedBlocks: number;
}

/** An empty pool. */
export function createBlockPool(): BlockPool {
  /** Holders of each block held; a block at 0 moves to `free`. */
  const refs = new Map<number, number>();
  /** Cached blocks nobody holds, in the order they were freed (first forgotten first). */
  const free = new Set<number>();
  let held = 0;
  /** The last answer of heldPrefixTokens: the head of the queue asks again at every event until the pool changes. */
  let memo: { keys: readonly number[]; version: number; tokens: number } | null = null;
  let version = 0;

  const take = (key: number): void => {
    const count = refs.get(key) ?? 0;
    if (count === 0) {
      free.delete(key);
      held++;
    }
    refs.set(key, count + 1);
  };

  return {
    heldPrefixTokens(keys) {
      if (memo !== null && memo.keys === keys && memo.version === version) return memo.tokens;
      let blocks = 0;
      while (blocks < keys.length && (refs.get(keys[blocks] as number) ?? 0) > 0) blocks++;
      memo = { keys, version, tokens: blocks * BLOCK_TOKENS };
      return memo.tokens;
    },
    hold(keys, promptTokens) {
      version++;
      // A pool block holds 16 prompt tokens; never more blocks than the prompt has tokens for.
      const usable = keys.slice(0, Math.floor(promptTokens / BLOCK_TOKENS));
      let hits = 0;
      while (hits < usable.length && (refs.has(usable[hits] as number) || free.has(usable[hits] as number))) hits++;
      const taken: number[] = [];
      usable.forEach((key, index) => {
        // Past the first miss vLLM computes the rest anew into blocks of its own, even where an equal block is cached:
        // such a block is the sequence's alone (its privateTokens).
        if (index < hits || !(refs.has(key) || free.has(key))) {
          take(key);
          taken.push(key);
        }
      });
      return { keys: taken, cachedTokens: hits * BLOCK_TOKENS, privateTokens: promptTokens - taken.length * BLOCK_TOKENS };
    },
    release(keys) {
      version++;
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index] as number;
        const count = (refs.get(key) ?? 0) - 1;
        if (count > 0) refs.set(key, count);
        else {
          refs.delete(key);
          held--;
          free.add(key);
        }
      }
    },
    trim(blocks) {
      if (free.size <= blocks) return;
      version++;
      for (const key of free) {
        if (free.size <= blocks) break;
        free.delete(key);
      }
    },
    get heldTokens() {
      return held * BLOCK_TOKENS;
    },
    get cachedBlocks() {
      return free.size;
    },
  };
}
