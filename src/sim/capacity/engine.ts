/**
 * The capacity model of one GPU server under vLLM-style continuous batching,
 * as an event-driven fluid model in simulated seconds:
 *
 * - The KV cache holds prompts as vLLM's automatic prefix caching does
 *   (block-pool.ts): a full 16-token prompt block is one block however many
 *   running sequences share it; a sequence's partial last block and what it
 *   generates are its own.
 * - Requests wait in a FIFO queue until what they add to the cache (their
 *   prompt less the leading blocks running sequences already hold, plus what
 *   they had generated before a preemption) fits, less a 1% watermark
 *   (vLLM's FCFS admission).
 * - Admitted requests prefill one at a time at P tokens/s; prompt blocks found
 *   in the prefix cache cost nothing. The first token comes at prefill's end.
 * - Decoding sequences share D tokens/s equally, each at most c tokens/s.
 *   They all move at the same rate, so one shared progress mark and a heap of
 *   per-sequence targets find the next event in O(log n).
 * - When the growing KV use reaches K, the most recently admitted sequence is
 *   preempted to the front of the queue, freeing what it alone held; on
 *   re-admission it prefills again what of its prompt the cache no longer
 *   has, and what it had generated (recompute), losing no tokens.
 *
 * Nothing here reads the wall clock: time comes from the injected SimClock,
 * and callbacks run after the engine's state is settled.
 *
 * The requests: sequence.ts; the decoding batch and the KV use of what its
 * sequences hold on their own: decode-batch.ts; the shared prompt blocks:
 * block-pool.ts; what the model counts: capacity-tally.ts.
 */
import type { SimClock } from './clock.ts';
import { CapacityTally, type CapacityMetrics, type CapacityStats } from './capacity-tally.ts';
import { DecodeBatch } from './decode-batch.ts';
import type { CapacitySettings } from './options.ts';
import { createBlockPool, type BlockPool } from './block-pool.ts';
import { BLOCK_TOKENS, blockKeysOf } from './prefix-cache.ts';
import { createSequence, type Sequence, type SequenceRequest } from './sequence.ts';

export type { CapacityMetrics, CapacityStats } from './capacity-tally.ts';
export type { SequenceRequest } from './sequence.ts';

/** A submitted request. */
export interface SequenceHandle {
  /** The client went away: stop it; what it generated counts as wasted. No-op once finished. */
  abort(): void;
}

/** The running model. */
export interface CapacityEngine {
  submit(request: SequenceRequest): SequenceHandle;
  stats(): CapacityStats;
  metrics(): CapacityMetrics;
  /** Cancels the timer; nothing fires afterwards. */
  close(): void;
}

/** Admission leaves this fraction of the cache free, as vLLM's block manager does, so a preempted sequence does not bounce straight back. */
const WATERMARK = 0.01;

/** The model's next event: the head of the prefill queue done, the KV cache full, or a decode target reached. */
type Next = { at: number; kind: 'prefill' | 'overflow' } | { at: number; kind: 'target' };

/** Starts an engine on `clock` with resolved settings. */
export function createCapacityEngine(settings: CapacitySettings, clock: SimClock): CapacityEngine {
  return new FluidEngine(settings, clock);
}

/** The model's state between events, brought up to the clock's now before each use. */
class FluidEngine implements CapacityEngine {
  private readonly pool: BlockPool;
  private readonly tally: CapacityTally;
  private readonly batch: DecodeBatch;
  private readonly waiting: Sequence[] = [];
  private readonly admitted: Sequence[] = [];
  private readonly prefilling: Sequence[] = [];
  /** Callbacks of the requests, run once the engine's state is settled. */
  private readonly effects: Array<() => void> = [];
  private readonly origin: number;
  private time: number;
  private timer: unknown = null;
  private closed = false;

  constructor(
    private readonly settings: CapacitySettings,
    private readonly clock: SimClock,
  ) {
    this.pool = createBlockPool();
    this.tally = new CapacityTally(settings.decodeTokensPerSecond);
    this.batch = new DecodeBatch(settings);
    this.origin = clock.now();
    this.time = this.origin;
  }

  submit(request: SequenceRequest): SequenceHandle {
    if (!(request.steps >= 1) || !(request.outputTokens >= 1)) throw new TypeError('a sequence needs steps >= 1 and outputTokens >= 1');
    this.catchUp();
    const seq = createSequence(request, this.time);
    this.waiting.push(seq);
    this.settle();
    return { abort: () => this.abort(seq) };
  }

  stats(): CapacityStats {
    if (!this.closed) this.catchUp();
    return this.tally.stats({ elapsedSeconds: this.time - this.origin, ...this.now() });
  }

  metrics(): CapacityMetrics {
    if (!this.closed) this.catchUp();
    return this.tally.metrics(this.now());
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) this.clock.cancel(this.timer);
    this.timer = null;
  }

  /** What the tally reports of the state now. */
  private now(): { running: number; waiting: number; kvUsage: number } {
    return { running: this.admitted.length, waiting: this.waiting.length, kvUsage: Math.min(1, this.kvUsed() / this.settings.kvTokens) };
  }

  /** KV tokens in use: the shared prompt blocks once, and what each sequence holds on its own. */
  private kvUsed(): number {
    return this.pool.heldTokens + this.batch.kvUsed();
  }

  /** Cached blocks nobody holds live in the free room (vLLM counts them free): forgets those the room no longer has. */
  private trimCache(): void {
    this.pool.trim(Math.floor(Math.max(0, this.settings.kvTokens - this.kvUsed()) / BLOCK_TOKENS));
  }

  private abort(seq: Sequence): void {
    if (seq.phase === 'done' || this.closed) return;
    this.catchUp();
    if (seq.phase === 'waiting') {
      this.waiting.splice(this.waiting.indexOf(seq), 1);
      seq.epoch++;
    } else this.release(seq);
    this.tally.aborted(seq.base);
    seq.phase = 'done';
    this.settle();
  }

  /** Brings the model up to the clock's now, handling every event due on the way. */
  private catchUp(): void {
    const now = this.clock.now();
    for (let event = this.next(); event !== null && event.at <= now; event = this.next()) {
      this.advance(event.at);
      this.handle(event);
      this.admit();
    }
    this.advance(now);
  }

  /** Admits what fits, sets the timer for the next event, then runs the requests' callbacks. */
  private settle(): void {
    this.admit();
    if (this.timer !== null) this.clock.cancel(this.timer);
    this.timer = null;
    const event = this.closed ? null : this.next();
    if (event !== null) {
      this.timer = this.clock.schedule(event.at, () => {
        this.timer = null;
        if (this.closed) return;
        this.catchUp();
        this.settle();
      });
    }
    while (this.effects.length > 0) (this.effects.shift() as () => void)();
  }

  private advance(to: number): void {
    const dt = to - this.time;
    if (dt <= 0) return;
    const flow = this.batch.advance(dt);
    const head = this.prefilling[0];
    if (head) head.prefillLeft -= this.settings.prefillTokensPerSecond * dt;
    this.tally.interval(this.time - this.origin, dt, flow, this.waiting.length);
    this.time = to;
  }

  private next(): Next | null {
    let best: Next | null = null;
    const head = this.prefilling[0];
    if (head) best = { at: this.time + Math.max(0, head.prefillLeft) / this.settings.prefillTokensPerSecond, kind: 'prefill' };
    const toTarget = this.batch.secondsToTarget();
    if (toTarget !== null) {
      const at = this.time + toTarget;
      if (best === null || at < best.at) best = { at, kind: 'target' };
    }
    if (this.admitted.length > 1 && this.batch.decoding > 0) {
      const at = this.time + this.batch.secondsToFull(this.pool.heldTokens);
      if (best === null || at < best.at) best = { at, kind: 'overflow' };
    }
    return best;
  }

  private handle(event: Next): void {
    if (event.kind === 'prefill') this.startDecode(this.prefilling.shift() as Sequence);
    else if (event.kind === 'overflow') this.preempt(this.admitted[this.admitted.length - 1] as Sequence);
    else {
      const target = this.batch.reachTarget();
      if (target === undefined) return;
      const seq = target.owner;
      seq.stepsDone = target.step;
      if (target.step >= seq.request.steps) this.finish(seq);
      else {
        const step = target.step;
        this.effects.push(() => seq.request.onStep?.(step));
      }
    }
  }

  private startDecode(seq: Sequence): void {
    this.batch.startDecode(seq);
    if (seq.firstTokenAt === null) {
      seq.firstTokenAt = this.time;
      this.tally.firstToken(this.time - seq.arrivedAt);
      this.effects.push(() => seq.request.onFirstToken?.());
    }
  }

  /** Takes a sequence out of the batch, keeping what it generated; returns that. */
  private release(seq: Sequence): number {
    const generated = this.batch.release(seq);
    this.pool.release(seq.heldBlocks);
    seq.heldBlocks = [];
    seq.privatePromptTokens = 0;
    if (seq.phase === 'prefill') this.prefilling.splice(this.prefilling.indexOf(seq), 1);
    this.admitted.splice(this.admitted.indexOf(seq), 1);
    seq.epoch++;
    seq.base = generated;
    return generated;
  }

  /** The most recently admitted sequence goes back to the front of the queue (vLLM's recompute preemption). */
  private preempt(seq: Sequence): void {
    this.release(seq);
    seq.phase = 'waiting';
    this.waiting.unshift(seq);
    this.tally.preempted();
  }

  private finish(seq: Sequence): void {
    this.release(seq);
    seq.phase = 'done';
    this.tally.finished(this.time - seq.arrivedAt);
    this.effects.push(() => seq.request.onFinish?.());
  }

  /**
   * Admits queued sequences first come first served while what they add to
   * the cache fits: their prompt less the leading blocks running sequences
   * hold already, and what they generated before a preemption.
   */
  private admit(): void {
    for (let seq = this.waiting[0]; seq !== undefined; seq = this.waiting[0]) {
      const { promptTokens } = seq.request;
      const keys = (seq.blockKeys ??= blockKeysOf(seq.request.prompt));
      const need = promptTokens - Math.min(promptTokens, this.pool.heldPrefixTokens(keys)) + seq.base;
      if (this.admitted.length > 0 && this.kvUsed() + need > this.settings.kvTokens * (1 - WATERMARK)) return;
      this.waiting.shift();
      this.trimCache();
      const holding = this.pool.hold(keys, promptTokens);
      seq.heldBlocks = holding.keys;
      seq.privatePromptTokens = holding.privateTokens;
      const cached = Math.min(promptTokens, holding.cachedTokens);
      if (!seq.admittedBefore) {
        seq.admittedBefore = true;
        this.tally.firstAdmission(this.time - seq.arrivedAt, promptTokens, cached);
      }
      // A fully cached prompt still computes its last token; a preempted sequence recomputes what it had generated.
      seq.prefillLeft = Math.max(1, promptTokens - cached) + seq.base;
      this.tally.prefill(seq.prefillLeft);
      seq.phase = 'prefill';
      this.batch.hold(seq);
      this.trimCache();
      this.admitted.push(seq);
      this.prefilling.push(seq);
    }
  }
}
