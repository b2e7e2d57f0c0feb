/**
 * Seeded random text for the dedup and tokenizer benchmarks, so that every
 * run measures the same input.
 */

export { createRandom } from '../../src/kernel/prng.ts';

/** `length` words drawn from a vocabulary of `vocabulary` made-up words. */
export function randomWords(random: () => number, vocabulary: number, length: number): string {
  return Array.from({ length }, () => `w${Math.floor(random() * vocabulary).toString(36)}`).join(' ');
}
