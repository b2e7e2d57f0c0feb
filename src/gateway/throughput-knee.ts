/**
 * The batch size past which a server decodes no faster in all, only slower
 * per sequence: its throughput knee, read from its own token counter
 * (`vllm:generation_tokens_total`). A server shares its decode throughput
 * among the sequences it runs, so beyond the knee every extra sequence slows
 * all the others, the calls that hold the run back among them, and gains
 * nothing. Capping our calls a little above the knee keeps each sequence at
 * full speed while the server stays saturated; the calls we hold are then sent
 * by rank (held-calls.ts). Measured on the capacity model (the capacity
 * benchmarks in bench/results.json; docs/guide/keeping-servers-busy.md).
 *
 * How the knee is found: rates are measured over windows of four reading
 * periods (poll-period.ts sets their length), never from one reading to the
 * next. The cap starts low and grows fourfold after each window (a slow
 * start, a few seconds of a run) until the server's throughput stops growing
 * with its batch, then settles at (its saturated throughput ÷ the fastest
 * per-sequence rate of the slow start) × CAP_OVER_KNEE. The saturated
 * throughput is the median of the windows whose sequences shared it (each
 * ran clearly slower than the fastest rate), at the largest batches seen (at
 * least half the largest), not their highest: windows are noisy (a counter
 * summed from our streams more so), and the highest of many lies well above
 * the truth. A window at a large batch is not enough: when a
 * run has fewer calls ready than the knee (outputs of seconds, problems
 * waiting on their chains), its largest batches lie under the knee, and their
 * throughput, taken for the server's, held the cap there with hundreds of
 * calls waiting. Nor is a window in which the server's memory was full (its KV
 * cache, or a queue it keeps): it runs what fits, not what its decode could
 * serve, and a knee read there held a run under what the memory held. A
 * server whose throughput keeps growing with its batch (no sharp
 * knee) shows it: when the cap binds for several windows and the throughput
 * falls short of the saturated one, the cap grows again, so a wrong knee costs
 * a few readings, never the run. A server without the counter has no cap.
 */
import { marginOf } from './load-limit.ts';

/** What one reading of the server says, with when it was taken. */
export interface ThroughputReading {
  /** Sequences the server runs (of ours, counted as the tokens are: see `serverRunning`). */
  running: number;
  /**
   * All the sequences the server says it runs, when the tokens are counted
   * from our streams (`running` is then ours that stream, read on the same
   * clock as the tokens): only whether another client shares it is read from it.
   */
  serverRunning?: number;
  /** Its generation token counter; null when it exposes none. */
  generationTokens: number | null;
  /** Requests in its own queue, when it says (its /metrics). */
  waiting?: number;
  /** Fraction of its KV cache in use, when it says. */
  kvUsage?: number | null;
}

/** The knee of one server. */
export interface ThroughputKnee {
  /** Calls it may have in flight: Infinity when unknown or without a counter. */
  readonly cap: number;
  /** The knee found, in sequences; null until found. */
  readonly knee: number | null;
  /** A reading taken at `atMs` (any monotonic clock) while `inFlight` of our calls were on the server. */
  onReading(reading: ThroughputReading, atMs: number, inFlight: number): void;
  /** False once disabled: no cap, ever. */
  readonly active: boolean;
  /** The server has no usable metrics: no cap from now on. */
  disable(): void;
  /** Its calls paused (no reading was taken): the next reading starts a new window. */
  pause(): void;
  /**
   * The tokens now come from another counter (the server's instead of our
   * streams'): measure afresh, in a slow start from `startCap` (the calls in
   * flight, when more than the slow start's first cap: they are not recalled).
   */
  restart(startCap: number): void;
}

/** The cap during the slow start, before the first window is measured. */
export const SLOW_START_CAP = 16;
/** The cap never goes below this, whatever a window measured. */
const LEAST_CAP = 4;
/** The cap moves to a new knee only when it changes by this fraction at least: a knee that wavers by a sequence does not reset the windows at the cap. */
const MOVE_BY = 0.05;
/** The slow start's step: the cap is multiplied by this while the throughput grows with it. */
const SLOW_START_STEP = 4;
/** The cap over the knee: a few sequences in hand, so the server never runs under its knee while finished ones are replaced. */
export const CAP_OVER_KNEE = 1.1;
/** Reading periods (intervals between readings) measured as one window: the jitter of each reading's time is spread over all of them. */
export const WINDOW = 4;
/** A sequence running below this fraction of the fastest rate seen shares the throughput with the others: its window is saturated. */
const SHARED_BELOW = 0.8;
/** A step of the slow start must raise the throughput by this factor, or the server is past its knee. */
const GROWTH = 1.1;
/** With the cap binding, throughput below this fraction of the saturated throughput means the cap is under the knee. */
const SHORT_OF_PEAK = 0.9;
/** Saturated windows at the largest batches whose median is the saturated throughput. */
const SATURATED_KEPT = 15;
/** A saturated window counts at a batch of at least this fraction of the largest seen: on a server without a sharp knee, windows at small batches share too, and give less. */
const LARGE_BATCH = 0.5;
/** A window's batch is steady when its smallest reading is at least this fraction of its largest. */
const STEADY = 0.8;
/** A KV cache this full admits no more sequences (vLLM keeps a little free for the running ones to grow into). */
const KV_FULL = 0.9;
/** Binding windows at one cap whose median must fall short before the cap grows. */
const SHORT_WINDOWS = 5;
/** A sequence running at this fraction of the fastest rate seen at least runs at full speed: nothing is shared. */
const FULL_SPEED = 0.95;
/** How much the cap grows when it turned out to be under the knee. */
const REGROW = 1.25;

interface Sample {
  running: number;
  waiting: number | undefined;
  kvUsage: number | null;
  tokens: number;
  atMs: number;
  inFlight: number;
}

/** Creates a knee finder in its slow start, for a server read while it has calls (pause() between). */
export function createThroughputKnee(): ThroughputKnee {
  let cap = SLOW_START_CAP;
  let knee: number | null = null;
  let disabled = false;
  /** Readings since the cap last moved (the reading at which it moved excluded: its interval mixes two batches and the new calls' prefill). */
  let window: Sample[] = [];
  let last: Sample | null = null;
  let othersRunning = false;
  /** Fastest per-sequence rate measured in the slow start, tokens/ms. */
  let sequenceRate = 0;
  /** The recent saturated windows at the largest batches: their sequences running and throughput (tokens/ms). */
  let saturated: Array<{ running: number; throughput: number }> = [];
  let largestBatch = 0;
  /** Throughput of the windows in which the current cap bound. */
  let bindingAtCap: number[] = [];
  /** Windows in which the current cap bound while every sequence ran at full speed. */
  let roomAtCap = 0;
  /** Throughput measured at the slow start's previous cap. */
  let beforeStep = 0;
  /** The lowest the cap may go, raised each time a cap proved to be under the knee. */
  let floor = 0;

  const moveCap = (to: number) => {
    cap = to;
    window = [];
    bindingAtCap = [];
    roomAtCap = 0;
  };
  /** Keeps a saturated window among those at the largest batches. */
  const keepSaturated = (running: number, throughput: number) => {
    if (running < LARGE_BATCH * largestBatch) return;
    largestBatch = Math.max(largestBatch, running);
    saturated = saturated.filter((kept) => kept.running >= LARGE_BATCH * largestBatch).slice(-(SATURATED_KEPT - 1));
    saturated.push({ running, throughput });
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

  return {
    get cap() {
      return disabled || othersRunning ? Number.POSITIVE_INFINITY : cap;
    },
    get knee() {
      return knee;
    },
    get active() {
      return !disabled;
    },
    disable() {
      disabled = true;
    },
    pause() {
      window = [];
    },
    restart(startCap) {
      knee = null;
      last = null;
      sequenceRate = 0;
      saturated = [];
      largestBatch = 0;
      beforeStep = 0;
      floor = 0;
      moveCap(Math.max(SLOW_START_CAP, Math.round(startCap)));
    },
    onReading(reading, atMs, inFlight) {
      if (disabled) return;
      if (reading.generationTokens === null) {
        disabled = true;
        return;
      }
      // The server runs more than all of ours: other clients share it. Capping ours would only hand
      // them our share of its batch (its queue is first come first served), so no cap while they do.
      const serverRunning = reading.serverRunning ?? reading.running;
      othersRunning = serverRunning > inFlight + marginOf(serverRunning);
      const sample = { running: reading.running, waiting: reading.waiting, kvUsage: reading.kvUsage ?? null, tokens: reading.generationTokens, atMs, inFlight };
      const before = last;
      last = sample;
      // A restarted server resets its counter; a clock that goes back is another clock: measure afresh.
      if (before !== null && (atMs < before.atMs || sample.tokens < before.tokens)) window = [];
      window.push(sample);
      const first = window[0] as Sample;
      if (window.length <= WINDOW || sample.atMs <= first.atMs) return;
      const measured = window;
      // Windows do not overlap: the next one starts here.
      window = [sample];
      const decoded = sample.tokens - first.tokens;
      // The batch over the window's intervals, each read at its two ends (trapezoids): the window's
      // first and last readings bound one interval each, the others two.
      const running = measured.reduce((sum, s, index) => sum + s.running * (index === 0 || index === measured.length - 1 ? 0.5 : 1), 0) / (measured.length - 1);
      // An idle window says nothing.
      if (decoded <= 0 || running < 1) return;
      const throughput = decoded / (sample.atMs - first.atMs);
      const perSequence = throughput / running;
      // The cap binds when our calls fill it and the server runs them all. Its count of running
      // sequences lags ours by the calls in transit (sent and not yet admitted, finished and not yet
      // received): a fifth of the cap when outputs last seconds, which held the slow start at a
      // cap under the knee. So a server that says what it queues runs them all when it queues no
      // more than a margin; only for one that does not is its running count compared with the cap.
      const overMargin = measured.some((s) => (s.waiting ?? 0) > marginOf(s.running));
      const runsThem = measured.every((s) => s.waiting !== undefined) ? !overMargin : running >= 0.9 * cap;
      const binding = measured.every((s) => s.inFlight >= cap - 1) && runsThem;
      if (knee === null) sequenceRate = Math.max(sequenceRate, perSequence);
      // A batch that swung within the window gives less than its mean would (the throughput is
      // concave in the batch): only a steady one's sharing says the server was saturated.
      const runnings = measured.map((s) => s.running);
      const steady = Math.min(...runnings) >= STEADY * Math.max(...runnings);
      // A server whose memory is full runs as many sequences as fit, not as many as its decode can
      // serve: its throughput stops growing with our calls, and it preempts sequences to make room,
      // which then count as running while they prefill again, each giving less. Taken for
      // saturation, that set a knee of 27 on a server whose memory held 40, and capped it there for
      // the rest of a run. Its memory is full when its KV cache says so, or when it keeps some of our
      // calls queued (one with room admits each at its next step), or queues more than a margin.
      const memoryFull = overMargin || measured.some((s) => (s.kvUsage ?? 0) >= KV_FULL) || measured.every((s) => (s.waiting ?? 0) > 0);
      const shared = steady && !memoryFull && perSequence < SHARED_BELOW * sequenceRate;
      const endsSlowStart = knee === null && shared && throughput < GROWTH * beforeStep;
      // The window that ends the slow start is kept whatever its batch: the largest seen may have been a swing.
      if (endsSlowStart) largestBatch = Math.min(largestBatch, running);
      if (shared) keepSaturated(running, throughput);
      // The memory filled before the throughput stopped growing: the slow start's step past the knee
      // (64 to 256 on the capacity model) still gained a quarter, and at the next step the KV cache was
      // full, so no window measured again. The slow start ended only when the run's last calls thinned
      // out: a 50 × 8 run went uncapped for 87% of its time, its server preempting 66,000 sequences.
      // The windows that shared the throughput before the memory filled give the knee.
      const memoryEndsSlowStart = knee === null && memoryFull && saturated.length > 0;
      if (knee === null && !endsSlowStart && !memoryEndsSlowStart) {
        // Still in the slow start: step up once our calls fill the cap.
        if (binding) {
          beforeStep = throughput;
          moveCap(cap * SLOW_START_STEP);
        }
        return;
      }
      if (saturated.length === 0) return;
      const peak = median(saturated.map((kept) => kept.throughput));
      knee = peak / sequenceRate;
      if (binding) bindingAtCap.push(throughput);
      if (binding && steady && !memoryFull && perSequence >= FULL_SPEED * sequenceRate) roomAtCap++;
      // The cap binds and the server gives less than when saturated: the cap is under its knee.
      if (bindingAtCap.length >= SHORT_WINDOWS && median(bindingAtCap) < SHORT_OF_PEAK * peak) floor = Math.ceil(cap * REGROW);
      // The cap binds and its sequences run at full speed: the server has room,
      // so the cap is under its knee, whatever the saturated windows said. They were misread: in a
      // slow start that overshot into hundreds of calls, a window of their prefill read 1.2M tokens/s
      // on a server of 1.6M (at 200x), set the knee at 65 against a true 80, and the cap, giving more
      // than that "saturated" throughput, never counted as short of it. Measured afresh from here.
      if (roomAtCap >= SHORT_WINDOWS) {
        floor = Math.ceil(cap * REGROW);
        saturated = [];
        largestBatch = 0;
        moveCap(floor);
        return;
      }
      const next = Math.max(LEAST_CAP, floor, Math.round(knee * CAP_OVER_KNEE));
      if (Math.abs(next - cap) >= Math.max(1, MOVE_BY * cap)) moveCap(next);
      else if (bindingAtCap.length >= SHORT_WINDOWS) bindingAtCap = [];
    },
  };
}
