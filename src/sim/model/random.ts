/**
 * Hash-keyed randomness for the simulated model. Every draw is a function of
 * what it is about (the server seed, a problem, a request body), never of the
 * order in which requests arrive, so a run at concurrency 800 sees the same
 * replies as one at concurrency 1.
 */
import { createHash } from 'node:crypto';

/** A small deterministic generator: uniform floats, integers, picks and normals. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** One item of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** Standard normal (Box-Muller). */
  normal(): number;
}

/** The sha256 digest of the parts joined by NUL (so `('a','bc')` and `('ab','c')` differ). */
export function digestOf(...parts: ReadonlyArray<string | number>): Buffer {
  return createHash('sha256').update(parts.join('\u0000')).digest();
}

/** The sha256 of the parts as lowercase hex. */
export function hexOf(...parts: ReadonlyArray<string | number>): string {
  return digestOf(...parts).toString('hex');
}

/** One uniform draw in [0, 1) keyed by the parts. */
export function uniformOf(...parts: ReadonlyArray<string | number>): number {
  // 48 bits fit a double exactly.
  return digestOf(...parts).readUIntBE(0, 6) / 2 ** 48;
}

/**
 * A generator seeded by a 32-byte digest. sfc32: small, fast and good enough
 * for picking words and Bernoulli draws; the hash does the real mixing.
 */
export function createRng(seed: Buffer): Rng {
  let a = seed.readUInt32BE(0);
  let b = seed.readUInt32BE(4);
  let c = seed.readUInt32BE(8);
  let d = seed.readUInt32BE(12);
  const next = (): number => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // The first outputs of sfc32 still echo the seed words; discard them.
  for (let i = 0; i < 12; i++) next();
  const rng: Rng = {
    next,
    int: (n) => Math.floor(next() * n),
    pick<T>(items: readonly T[]): T {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new TypeError('pick() needs a non-empty list');
      return item;
    },
    normal() {
      // 1 - u keeps the logarithm finite.
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
  };
  return rng;
}

/** A generator keyed by the parts. */
export function rngOf(...parts: ReadonlyArray<string | number>): Rng {
  return createRng(digestOf(...parts));
}

/** The logistic function: a logit to a probability. */
export function sigmoid(logit: number): number {
  return 1 / (1 + Math.exp(-logit));
}
