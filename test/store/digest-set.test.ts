import { describe, expect, test } from 'vitest';
import { DigestSet } from '../../src/store/digest-set.ts';
import { chunkDigest } from '../../src/store/texts.ts';

const digest = (i: number) => chunkDigest(`chunk ${i}`);

/** The same policy written plainly: frames in a ring, a used digest spared once by the hand. */
function clockModel(frames: number) {
  const ring: Array<{ digest: string; marked: boolean }> = [];
  const byDigest = new Map<string, { digest: string; marked: boolean }>();
  let hand = 0;
  return {
    has(d: string): boolean {
      const frame = byDigest.get(d);
      if (frame) frame.marked = true;
      return frame !== undefined;
    },
    add(d: string): void {
      if (byDigest.has(d)) return;
      if (ring.length < frames) {
        const frame = { digest: d, marked: false };
        ring.push(frame);
        return void byDigest.set(d, frame);
      }
      for (;;) {
        const frame = ring[hand] as { digest: string; marked: boolean };
        hand = (hand + 1) % frames;
        if (frame.marked) frame.marked = false;
        else {
          byDigest.delete(frame.digest);
          Object.assign(frame, { digest: d, marked: false });
          return void byDigest.set(d, frame);
        }
      }
    },
  };
}

/** Adds and looks up `steps` digests of `range`, drawn from `seed`, in a set of `frames` and in the plain clock: both agree throughout. */
function expectsClock(frames: number, range: number, steps: number, seed: number): void {
  const set = new DigestSet(frames);
  const model = clockModel(frames);
  let state = seed;
  for (let step = 0; step < steps; step++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const d = digest(state % range);
    if (state % 3 === 0) expect(set.has(d)).toBe(model.has(d));
    else {
      set.add(d);
      model.add(d);
    }
  }
  for (let i = 0; i < range; i++) expect(set.has(digest(i))).toBe(model.has(digest(i)));
}

describe('the digests a store remembers as written', () => {
  test('holds what was added and nothing else', () => {
    const set = new DigestSet(1000);
    for (let i = 0; i < 1000; i++) set.add(digest(i));
    for (let i = 0; i < 1000; i++) expect(set.has(digest(i))).toBe(true);
    for (let i = 1000; i < 2000; i++) expect(set.has(digest(i))).toBe(false);
    expect(set.has('not a digest')).toBe(false);
  });

  test('when full, lets the least recently used go, sparing a digest found again once, as a plain clock would', () => {
    // A small table, so that probes collide and digests leave it from the middle of their runs.
    expectsClock(16, 64, 20_000, 7);
  });

  test('a set that grows its frames as it fills (from 1024 up to its bound) keeps every digest and then evicts as a plain clock would', () => {
    expectsClock(5000, 8000, 30_000, 11);
  });
});
