/**
 * Seeded random text for the dedup and tokenizer benchmarks, so that every
 * run measures the same input.
 */

/** A seeded PRNG (mulberry32). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** `length` words drawn from a vocabulary of `vocabulary` made-up words. */
export function randomWords(random: () => number, vocabulary: number, length: number): string {
  return Array.from({ length }, () => `w${Math.floor(random() * vocabulary).toString(36)}`).join(' ');
}
