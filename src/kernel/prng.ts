/**
 * Seeded randomness keyed by what a decision is about (docs/concepts/journal.md: a replay makes the same choices):
 * the same key always gives the same draw, whatever the order in which
 * decisions are made, so runs at any concurrency make the same choices.
 */
import { createHash } from 'node:crypto';

function digest(parts: ReadonlyArray<string | number>): Buffer {
  return createHash('sha256').update(parts.join('\u0000')).digest();
}

/** A uniform draw in [0, 1) determined by the key parts. */
export function uniformFor(...parts: ReadonlyArray<string | number>): number {
  // 48 bits fit a double exactly.
  return digest(parts).readUIntBE(0, 6) / 2 ** 48;
}

/** An unsigned 31-bit integer determined by the key parts (a per-call `seed` for the endpoint). */
export function seedFor(...parts: ReadonlyArray<string | number>): number {
  return digest(parts).readUInt32BE(0) >>> 1;
}

/** A short stable hex hash of a JSON-serialisable value. */
export function hashOf(value: unknown, length = 16): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, length);
}

/**
 * A sequential seeded PRNG (mulberry32) for generated test and benchmark
 * inputs, where a stream of draws is wanted rather than one draw per key.
 */
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
