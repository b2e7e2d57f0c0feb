/**
 * The capacity model of one GPU server under vLLM-style continuous batching,
 * as an event-driven fluid model in simulated seconds:
 *
 * - Requests wait in a FIFO queue until their prompt (plus what they had
 *   generated before a preemption) fits the KV cache, less a 1% watermark
 *   (vLLM's FCFS admission).
 * - Admitted requests prefill one at a time at P tokens/s; prompt blocks found
 *   in the prefix cache cost nothing. The first token comes at prefill's end.
 * - Decoding sequences share D tokens/s equally, each at most c tokens/s.
 *   They all move at the same rate, so one shared progress mark and a heap of
 *   per-sequence targets find the next event in O(log n).
 * - When the growing KV use reaches K, the most recently admitted sequence is
 *   preempted to the front of the queue; on re-admission it prefills its
 *   prompt and what it had generated again (recompute), losing no tokens.
 *
 * Nothing here reads the wall clock: time comes from the injected SimClock,
 * and callbacks run after the engine's state is settled.
 */
import type { SimClock } from './clock.ts';
import { createHistogram, E2E_BOUNDS, observe, TTFT_BOUNDS, type Histogram } from './histogram.ts';
import type { CapacitySettings } from './options.ts';
import { BLOCK_TOKENS, createPrefixCache } from './prefix-cache.ts';
import { TargetHeap } from './target-heap.ts';
import { createCountQuantiles, createDurationQuantiles, createTimeline, type TimelinePoint } from './timeline.ts';

/** One request for the engine. */
export interface SequenceRequest {
  /** The prompt's text, for the prefix cache. */
  prompt: string;
  promptTokens: number;
  /** Tokens it generates before it finishes. */
  outputTokens: number;
  /** Progress steps, at least 1: `onStep(k)` fires at k/steps of the output for k < steps, `onFinish` at the end. */
  steps: number;
  onFirstToken?(): void;
  onStep?(step: number): void;
  onFinish?(): void;
}

/** A submitted request. */
export interface SequenceHandle {
  /** The client went away: stop it; what it generated counts as wasted. No-op once finished. */
  abort(): void;
}

/** What the engine reports; every time and rate is in simulated seconds. */
export interface CapacityStats {
  /** Always true: these figures come from the model, not from a GPU. */
  simulated: true;
  elapsedSeconds: number;
  /** Decode tokens/s in use ÷ D, averaged over the whole run. */
  busyFraction: number;
  /** Time-averaged busy fraction and waiting requests, at most 2000 points. */
  timeline: TimelinePoint[];
  tokens: { decoded: number; wasted: number; prefill: number; prompt: number; cachedPrompt: number };
  /** Cached prompt tokens ÷ prompt tokens. */
  prefixCacheHitRate: number;
  requests: { finished: number; aborted: number; running: number; waiting: number; preemptions: number };
  /** Requests waiting now, and the time-weighted median and 90th percentile. */
  waiting: { now: number; p50: number; p90: number };
  /** Seconds from arrival to first admission. */
  queueWaitSeconds: { p50: number; p90: number };
  /** KV tokens in use ÷ K, now. */
  kvUsage: number;
}

/** Counters and histograms for the Prometheus endpoint. */
export interface CapacityMetrics {
  running: number;
  waiting: number;
  kvUsage: number;
  promptTokens: number;
  generationTokens: number;
  preemptions: number;
  prefixQueries: number;
  prefixHits: number;
  ttft: Histogram;
  e2e: Histogram;
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

type Phase = 'waiting' | 'prefill' | 'decode' | 'done';

interface Sequence {
  request: SequenceRequest;
  arrivedAt: number;
  phase: Phase;
  /** Tokens generated before the current decode stint. */
  base: number;
  /** The shared progress mark when the current decode stint began. */
  start: number;
  /** Bumped on preemption and abort, voiding pushed targets. */
  epoch: number;
  stepsDone: number;
  prefillLeft: number;
  admittedBefore: boolean;
  firstTokenAt: number | null;
}

type Next = { at: number; kind: 'prefill' | 'overflow' } | { at: number; kind: 'target' };

/** Starts an engine on `clock` with resolved settings. */
export function createCapacityEngine(settings: CapacitySettings, clock: SimClock): CapacityEngine {
  const { decodeTokensPerSecond: D, sequenceTokensPerSecond: c, kvTokens: K, prefillTokensPerSecond: P } = settings;
  const cache = createPrefixCache(Math.max(1, Math.floor(K / BLOCK_TOKENS)));
  const timeline = createTimeline();
  const waitingQuantiles = createCountQuantiles();
  const queueWaits = createDurationQuantiles();
  const ttft = createHistogram(TTFT_BOUNDS);
  const e2e = createHistogram(E2E_BOUNDS);
  const heap = new TargetHeap<Sequence>();
  const waiting: Sequence[] = [];
  const admitted: Sequence[] = [];
  const prefilling: Sequence[] = [];
  const effects: Array<() => void> = [];
  const origin = clock.now();
  let time = origin;
  /** Tokens each decoding sequence has moved since the engine started. */
  let mark = 0;
  let decoding = 0;
  /** KV tokens in use = fixed + decoding × mark. */
  let kvFixed = 0;
  let timer: unknown = null;
  let closed = false;
  const count = { decoded: 0, wasted: 0, prefill: 0, prompt: 0, cachedPrompt: 0, finished: 0, aborted: 0, preemptions: 0 };

  const rate = (): number => (decoding > 0 ? Math.min(c, D / decoding) : 0);
  const kvUsed = (): number => kvFixed + decoding * mark;
  const generatedOf = (seq: Sequence): number => (seq.phase === 'decode' ? seq.base + mark - seq.start : seq.base);
  /** KV tokens a sequence holds, less the decoding share (`decoding × mark`). */
  const fixedOf = (seq: Sequence): number => seq.request.promptTokens + seq.base - (seq.phase === 'decode' ? seq.start : 0);

  function advance(to: number): void {
    const dt = to - time;
    if (dt <= 0) return;
    const r = rate();
    mark += r * dt;
    count.decoded += decoding * r * dt;
    const head = prefilling[0];
    if (head) head.prefillLeft -= P * dt;
    timeline.add(time - origin, dt, (decoding * r) / D, waiting.length);
    waitingQuantiles.add(waiting.length, dt);
    time = to;
  }

  function liveTop() {
    for (let top = heap.peek(); top !== undefined; top = heap.peek()) {
      if (top.epoch === top.owner.epoch && top.owner.phase === 'decode') return top;
      heap.pop();
    }
    return undefined;
  }

  function next(): Next | null {
    let best: Next | null = null;
    const head = prefilling[0];
    if (head) best = { at: time + Math.max(0, head.prefillLeft) / P, kind: 'prefill' };
    const r = rate();
    const top = liveTop();
    if (top && r > 0) {
      const at = time + Math.max(0, top.mark - mark) / r;
      if (best === null || at < best.at) best = { at, kind: 'target' };
    }
    if (admitted.length > 1 && decoding > 0) {
      const at = time + Math.max(0, K - kvUsed()) / (decoding * r);
      if (best === null || at < best.at) best = { at, kind: 'overflow' };
    }
    return best;
  }

  function handle(event: Next): void {
    if (event.kind === 'prefill') {
      const seq = prefilling.shift() as Sequence;
      startDecode(seq);
    } else if (event.kind === 'overflow') {
      preempt(admitted[admitted.length - 1] as Sequence);
    } else {
      const target = heap.pop();
      if (target === undefined) return;
      mark = Math.max(mark, target.mark);
      const seq = target.owner;
      seq.stepsDone = target.step;
      if (target.step >= seq.request.steps) finish(seq);
      else {
        const step = target.step;
        effects.push(() => seq.request.onStep?.(step));
      }
    }
  }

  function startDecode(seq: Sequence): void {
    kvFixed -= fixedOf(seq);
    seq.phase = 'decode';
    seq.start = mark;
    kvFixed += fixedOf(seq);
    decoding++;
    const { outputTokens, steps } = seq.request;
    for (let step = seq.stepsDone + 1; step <= steps; step++) {
      const tokens = step === steps ? outputTokens : Math.round((outputTokens * step) / steps);
      heap.push({ mark: mark + Math.max(0, tokens - seq.base), owner: seq, step, epoch: seq.epoch });
    }
    if (seq.firstTokenAt === null) {
      seq.firstTokenAt = time;
      observe(ttft, time - seq.arrivedAt);
      effects.push(() => seq.request.onFirstToken?.());
    }
  }

  /** Takes a sequence out of the batch, keeping what it generated; returns that. */
  function release(seq: Sequence): number {
    const generated = generatedOf(seq);
    kvFixed -= fixedOf(seq);
    if (seq.phase === 'decode') decoding--;
    if (seq.phase === 'prefill') prefilling.splice(prefilling.indexOf(seq), 1);
    admitted.splice(admitted.indexOf(seq), 1);
    seq.epoch++;
    seq.base = generated;
    return generated;
  }

  function preempt(seq: Sequence): void {
    release(seq);
    seq.phase = 'waiting';
    waiting.unshift(seq);
    count.preemptions++;
  }

  function finish(seq: Sequence): void {
    release(seq);
    seq.phase = 'done';
    count.finished++;
    observe(e2e, time - seq.arrivedAt);
    effects.push(() => seq.request.onFinish?.());
  }

  function admit(): void {
    for (let seq = waiting[0]; seq !== undefined; seq = waiting[0]) {
      const need = seq.request.promptTokens + seq.base;
      if (admitted.length > 0 && kvUsed() + need > K * (1 - WATERMARK)) return;
      waiting.shift();
      if (seq.admittedBefore) seq.prefillLeft = need;
      else {
        seq.admittedBefore = true;
        queueWaits.add(time - seq.arrivedAt);
        const cached = cache.admit(seq.request.prompt, seq.request.promptTokens);
        count.prompt += seq.request.promptTokens;
        count.cachedPrompt += cached;
        // A fully cached prompt still computes its last token.
        seq.prefillLeft = Math.max(1, seq.request.promptTokens - cached);
      }
      count.prefill += seq.prefillLeft;
      seq.phase = 'prefill';
      kvFixed += fixedOf(seq);
      admitted.push(seq);
      prefilling.push(seq);
    }
  }

  /** Brings the model up to the clock's now, handling every event due on the way. */
  function catchUp(): void {
    const now = clock.now();
    for (let event = next(); event !== null && event.at <= now; event = next()) {
      advance(event.at);
      handle(event);
      admit();
    }
    advance(now);
  }

  function settle(): void {
    admit();
    if (timer !== null) clock.cancel(timer);
    timer = null;
    const event = closed ? null : next();
    if (event !== null) {
      timer = clock.schedule(event.at, () => {
        timer = null;
        if (closed) return;
        catchUp();
        settle();
      });
    }
    while (effects.length > 0) (effects.shift() as () => void)();
  }

  return {
    submit(request) {
      if (!(request.steps >= 1) || !(request.outputTokens >= 1)) throw new TypeError('a sequence needs steps >= 1 and outputTokens >= 1');
      catchUp();
      const seq: Sequence = {
        request,
        arrivedAt: time,
        phase: 'waiting',
        base: 0,
        start: 0,
        epoch: 0,
        stepsDone: 0,
        prefillLeft: 0,
        admittedBefore: false,
        firstTokenAt: null,
      };
      waiting.push(seq);
      settle();
      return {
        abort() {
          if (seq.phase === 'done' || closed) return;
          catchUp();
          if (seq.phase === 'waiting') {
            waiting.splice(waiting.indexOf(seq), 1);
            seq.epoch++;
          } else release(seq);
          count.wasted += seq.base;
          count.aborted++;
          seq.phase = 'done';
          settle();
        },
      };
    },
    stats() {
      if (!closed) catchUp();
      const elapsed = time - origin;
      return {
        simulated: true,
        elapsedSeconds: elapsed,
        busyFraction: elapsed > 0 ? count.decoded / (D * elapsed) : 0,
        timeline: timeline.points(),
        tokens: { decoded: count.decoded, wasted: count.wasted, prefill: count.prefill, prompt: count.prompt, cachedPrompt: count.cachedPrompt },
        prefixCacheHitRate: count.prompt > 0 ? count.cachedPrompt / count.prompt : 0,
        requests: { finished: count.finished, aborted: count.aborted, running: admitted.length, waiting: waiting.length, preemptions: count.preemptions },
        waiting: { now: waiting.length, p50: waitingQuantiles.quantile(0.5), p90: waitingQuantiles.quantile(0.9) },
        queueWaitSeconds: { p50: queueWaits.quantile(0.5), p90: queueWaits.quantile(0.9) },
        kvUsage: Math.min(1, kvUsed() / K),
      };
    },
    metrics() {
      if (!closed) catchUp();
      return {
        running: admitted.length,
        waiting: waiting.length,
        kvUsage: Math.min(1, kvUsed() / K),
        promptTokens: count.prefill,
        generationTokens: count.decoded,
        preemptions: count.preemptions,
        prefixQueries: count.prompt,
        prefixHits: count.cachedPrompt,
        ttft: structuredClone(ttft),
        e2e: structuredClone(e2e),
      };
    },
    close() {
      closed = true;
      if (timer !== null) clock.cancel(timer);
      timer = null;
    },
  };
}
