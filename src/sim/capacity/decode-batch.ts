/**
 * The decoding sequences of the capacity model (engine.ts) and the KV cache
 * they hold. Decoding sequences share D tokens/s equally, each at most c
 * tokens/s, so they all move at the same rate: one shared progress mark
 * stands for all of them, the KV use of what each holds on its own (its
 * prompt's tail and what it generated; shared prompt blocks are
 * block-pool.ts's) is a fixed part plus `decoding × mark`,
 * and a heap of per-sequence targets (the mark at which each reaches its next
 * step) finds the next event in O(log n).
 */
import type { CapacitySettings } from './options.ts';
import type { Sequence } from './sequence.ts';
import { TargetHeap, type Target } from './target-heap.ts';

/** The shared progress of the batch and the KV tokens in use. */
export class DecodeBatch {
  /** Tokens each decoding sequence has moved since the engine started. */
  private mark = 0;
  /** Sequences decoding now. */
  private decodingCount = 0;
  /** KV tokens in use = fixed + decoding × mark. */
  private kvFixed = 0;
  private readonly targets = new TargetHeap<Sequence>();

  constructor(private readonly settings: CapacitySettings) {}

  /** Sequences decoding now. */
  get decoding(): number {
    return this.decodingCount;
  }

  /** Tokens/s of each decoding sequence. */
  rate(): number {
    const { decodeTokensPerSecond: D, sequenceTokensPerSecond: c } = this.settings;
    return this.decodingCount > 0 ? Math.min(c, D / this.decodingCount) : 0;
  }

  /** KV tokens the sequences hold on their own (prompt tails and what they generated). */
  kvUsed(): number {
    return this.kvFixed + this.decodingCount * this.mark;
  }

  /** Tokens `seq` has generated so far. */
  generatedOf(seq: Sequence): number {
    return seq.phase === 'decode' ? seq.base + this.mark - seq.start : seq.base;
  }

  /** Moves every decoding sequence on by `dt` seconds; returns the tokens/s the batch decoded at. */
  advance(dt: number): number {
    const r = this.rate();
    this.mark += r * dt;
    return this.decodingCount * r;
  }

  /** Seconds until the next live target is reached; null when none is due (no target, or no decoding). */
  secondsToTarget(): number | null {
    const r = this.rate();
    const top = this.liveTop();
    return top && r > 0 ? Math.max(0, top.mark - this.mark) / r : null;
  }

  /** Seconds until the KV use, with `sharedTokens` held in shared blocks, reaches the cache's size. */
  secondsToFull(sharedTokens = 0): number {
    return Math.max(0, this.settings.kvTokens - sharedTokens - this.kvUsed()) / (this.decodingCount * this.rate());
  }

  /** Takes the target due next and moves the mark to it; undefined when none is left. */
  reachTarget(): Target<Sequence> | undefined {
    const target = this.targets.pop();
    if (target !== undefined) this.mark = Math.max(this.mark, target.mark);
    return target;
  }

  /** A sequence admitted to prefill now holds its prompt's own part (and what it generated before) in the cache. */
  hold(seq: Sequence): void {
    this.kvFixed += this.fixedOf(seq);
  }

  /** A prefilled sequence starts decoding: a target for each of its steps left. */
  startDecode(seq: Sequence): void {
    this.kvFixed -= this.fixedOf(seq);
    seq.phase = 'decode';
    seq.start = this.mark;
    this.kvFixed += this.fixedOf(seq);
    this.decodingCount++;
    const { outputTokens, steps } = seq.request;
    for (let step = seq.stepsDone + 1; step <= steps; step++) {
      const tokens = step === steps ? outputTokens : Math.round((outputTokens * step) / steps);
      this.targets.push({ mark: this.mark + Math.max(0, tokens - seq.base), owner: seq, step, epoch: seq.epoch });
    }
  }

  /** Frees what `seq` holds; returns the tokens it generated (its targets are voided by its epoch). */
  release(seq: Sequence): number {
    const generated = this.generatedOf(seq);
    this.kvFixed -= this.fixedOf(seq);
    if (seq.phase === 'decode') this.decodingCount--;
    return generated;
  }

  /** KV tokens a sequence holds on its own, less the decoding share (`decoding × mark`); its shared prompt blocks are the pool's. */
  private fixedOf(seq: Sequence): number {
    return seq.privatePromptTokens + seq.base - (seq.phase === 'decode' ? seq.start : 0);
  }

  /** The next target of a sequence still decoding in the stint it was pushed for, dropping the void ones above it. */
  private liveTop(): Target<Sequence> | undefined {
    for (let top = this.targets.peek(); top !== undefined; top = this.targets.peek()) {
      if (top.epoch === top.owner.epoch && top.owner.phase === 'decode') return top;
      this.targets.pop();
    }
    return undefined;
  }
}
