/**
 * A bounded set of text and chunk digests (texts.ts: 22 base64url characters,
 * 132 bits of SHA-256), the most recently used kept: the store's memory of
 * what it has written (text-store.ts).
 *
 * Why not a map of strings: each digest is a slice of the 43-character
 * base64url of its hash, so a string key kept the whole hash text alive
 * besides the slice, the map's entry and its value, for the whole of a run;
 * here a digest is 16 bytes of a typed array, outside the objects the
 * collector walks.
 *
 * A digest is kept as its first 128 bits. Two digests that agree on those
 * and differ in the last 4 would be taken for one, and the second text's
 * chunks not written; for SHA-256 that is a 2^-128 chance per pair, far
 * below the chance that two texts share a 132-bit digest at all, which the
 * store already takes.
 *
 * Eviction is CLOCK: each digest sits in a frame; a digest found again is
 * marked, and the hand, looking for a frame to reuse, spares a marked one
 * once (as SizedLru does). Frames are found by an open-addressing index with
 * linear probing, at most half full; a digest leaves it by backward shifting,
 * so no tombstones build up over a run.
 */

/** base64url's value of each character code, -1 for others. */
const BASE64URL = (() => {
  const values = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;
  return values;
})();

/** A digest's characters: 22 of 6 bits, of which the first 128 bits are kept. */
const DIGEST_CHARS = 22;

/** Frames a set starts with; it doubles them as it fills, up to its bound. */
const FIRST_FRAMES = 1024;

export class DigestSet {
  /** Four 32-bit words per frame: the digest's first 128 bits. */
  private words: Uint32Array;
  private marked: Uint8Array;
  /** Frame + 1 per slot, 0 when empty. */
  private index: Int32Array;
  private mask: number;
  private readonly key = new Uint32Array(4);
  /** Frames allocated so far. Allocated whole at once, the bound (2^17) cost 3.2 MB zeroed per set, several per store opened, for runs that keep a few hundred digests. */
  private capacity: number;
  private count = 0;
  private hand = 0;

  constructor(private readonly frames: number) {
    this.capacity = Math.min(frames, FIRST_FRAMES);
    this.words = new Uint32Array(4 * this.capacity);
    this.marked = new Uint8Array(this.capacity);
    this.index = new Int32Array(slotsFor(this.capacity));
    this.mask = this.index.length - 1;
  }

  /** Whether `digest` is held; a digest found is marked as used. */
  has(digest: string): boolean {
    if (!this.read(digest)) return false;
    const frame = this.find();
    if (frame < 0) return false;
    this.marked[frame] = 1;
    return true;
  }

  /** Holds `digest`, letting the least recently used go when full. A string that is not a digest is not held. */
  add(digest: string): void {
    if (!this.read(digest) || this.find() >= 0) return;
    if (this.count === this.capacity && this.capacity < this.frames) this.grow();
    const frame = this.count < this.capacity ? this.count++ : this.evict();
    this.words.set(this.key, 4 * frame);
    this.marked[frame] = 0;
    let slot = (this.key[0] as number) & this.mask;
    while (this.index[slot] !== 0) slot = (slot + 1) & this.mask;
    this.index[slot] = frame + 1;
  }

  /** Doubles the frames (up to the bound), the digests held kept in theirs, and indexes them again in an index twice as large. */
  private grow(): void {
    this.capacity = Math.min(this.frames, 2 * this.capacity);
    const words = new Uint32Array(4 * this.capacity);
    words.set(this.words);
    this.words = words;
    const marked = new Uint8Array(this.capacity);
    marked.set(this.marked);
    this.marked = marked;
    this.index = new Int32Array(slotsFor(this.capacity));
    this.mask = this.index.length - 1;
    for (let frame = 0; frame < this.count; frame++) {
      let slot = (this.words[4 * frame] as number) & this.mask;
      while (this.index[slot] !== 0) slot = (slot + 1) & this.mask;
      this.index[slot] = frame + 1;
    }
  }

  /** Decodes a digest's first 128 bits into `key`, most significant first; false for a string that is not a digest. */
  private read(digest: string): boolean {
    if (digest.length !== DIGEST_CHARS) return false;
    // Bits gather in a number (exact to 2^53), 6 a character, and leave 32 at a time.
    let pending = 0;
    let bits = 0;
    let word = 0;
    for (let i = 0; i < DIGEST_CHARS; i++) {
      const code = digest.charCodeAt(i);
      const value = code < 128 ? (BASE64URL[code] as number) : -1;
      if (value < 0) return false;
      pending = pending * 64 + value;
      bits += 6;
      if (bits < 32) continue;
      const rest = 2 ** (bits - 32);
      this.key[word++] = Math.floor(pending / rest);
      pending %= rest;
      bits -= 32;
      if (word === 4) return true;
    }
    return true;
  }

  /** The frame holding `key`, or -1. */
  private find(): number {
    for (let slot = (this.key[0] as number) & this.mask; this.index[slot] !== 0; slot = (slot + 1) & this.mask) {
      const frame = (this.index[slot] as number) - 1;
      if (this.holds(frame, this.key)) return frame;
    }
    return -1;
  }

  private holds(frame: number, key: Uint32Array): boolean {
    const at = 4 * frame;
    return this.words[at] === key[0] && this.words[at + 1] === key[1] && this.words[at + 2] === key[2] && this.words[at + 3] === key[3];
  }

  /** Frees the frame the hand stops at (sparing marked ones once) and returns it. */
  private evict(): number {
    for (;;) {
      const frame = this.hand;
      this.hand = (this.hand + 1) % this.frames;
      if (this.marked[frame] === 1) {
        this.marked[frame] = 0;
        continue;
      }
      this.unindex(frame);
      return frame;
    }
  }

  /** Takes a frame out of the index, shifting back the entries probed past it. */
  private unindex(frame: number): void {
    let hole = (this.words[4 * frame] as number) & this.mask;
    while (this.index[hole] !== frame + 1) hole = (hole + 1) & this.mask;
    for (let next = (hole + 1) & this.mask; this.index[next] !== 0; next = (next + 1) & this.mask) {
      const home = (this.words[4 * ((this.index[next] as number) - 1)] as number) & this.mask;
      // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
      const stays = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (stays) continue;
      this.index[hole] = this.index[next] as number;
      hole = next;
    }
    this.index[hole] = 0;
  }
}

/** Index slots for `frames`: a power of two at least twice as many, so that the index is at most half full. */
function slotsFor(frames: number): number {
  let slots = 2;
  while (slots < 2 * frames) slots *= 2;
  return slots;
}
