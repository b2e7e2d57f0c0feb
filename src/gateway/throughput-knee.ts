/**
 * The batch size past which a server decodes no faster in all, only slower
 * per sequence: its throughput knee, read from its own token counter
 * (`vllm:generation_tokens_total`). A server shares its decode throughput
 * among the sequences it runs, so beyond the knee every extra sequence slows
 * all the others, the calls that hold the run back among them, and gains
 * nothing. Capping our calls a little above the knee keeps each sequence at
 * full speed while the server stays saturated; the calls we hold are then sent
 * by rank (held-calls.ts). Measured on the capacity model (README, *Keeping
 * the servers busy*).
 *
 * How the knee is found: rates are measured over windows of four reading periods,
 * never from one reading to the next. The cap starts low and grows fourfold
 * after each window (a slow start, a few seconds of a run) until the server's
 * throughput stops growing with its batch, then settles at (peak throughput
 * ÷ the fastest per-sequence rate seen) × CAP_OVER_KNEE. A server whose throughput keeps
 * growing with its batch (no sharp knee) shows it: when the cap binds and the
 * throughput falls short of the peak, the cap grows again, so a wrong knee
 * costs a few readings, never the run. A server without the counter has no cap.
 */
import { marginOf } from './load-limit.ts';

/** What one reading of the server says, with when it was taken. */
export interface ThroughputReading {
  /** Sequences the server runs. */
  running: number;
  /** Its generation token counter; null when it exposes none. */
  generationTokens: number | null;
}

/** The knee of one server. */
export interface ThroughputKnee {
  /** Calls it may have in flight: Infinity when unknown or without a counter. */
  readonly cap: number;
  /** The knee found, in sequences; null until found. */
  readonly knee: number | null;
  /** A reading taken at `atMs` (any monotonic clock) while `inFlight` of our calls were on the server. */
  onReading(reading: ThroughputReading, atMs: number, inFlight: number): void;
  /** The server has no usable metrics: no cap from now on. */
  disable(): void;
}

/** The cap during the slow start, before the first window is measured. */
export const SLOW_START_CAP = 16;
/** The slow start's step: the cap is multiplied by this while the throughput grows with it. */
const SLOW_START_STEP = 4;
/** The cap over the knee: a few sequences in hand, so the server never runs under its knee while finished ones are replaced. */
export const CAP_OVER_KNEE = 1.1;
/** Reading periods measured as one window: the jitter of each reading's time is spread over all of them. */
export const WINDOW = 4;
/** A sequence running below this fraction of the fastest rate seen shares the throughput with the others. */
const SHARED_BELOW = 0.8;
/** A step of the slow start must raise the throughput by this factor, or the server is past its knee. */
const GROWTH = 1.1;
/** With the cap binding, throughput below this fraction of the peak means the cap is under the knee. */
const SHORT_OF_PEAK = 0.9;
/** How much the cap grows when it turned out to be under the knee. */
const REGROW = 1.25;
/** A gap this many reading periods long between two readings spans a pause (no calls, so no readings): not measured. */
const PAUSE = 4;

interface Sample {
  running: number;
  tokens: number;
  atMs: number;
  inFlight: number;
}

/** Creates a knee finder in its slow start, for a server read every `periodMs` (while it has calls). */
export function createThroughputKnee(periodMs: number): ThroughputKnee {
  if (!(periodMs > 0)) throw new TypeError(`periodMs must be > 0, got ${periodMs}`);
  let cap = SLOW_START_CAP;
  let knee: number | null = null;
  let disabled = false;
  /** Readings since the cap last moved (the reading at which it moved excluded: its interval mixes two batches and the new calls' prefill). */
  let window: Sample[] = [];
  let last: Sample | null = null;
  let othersRunning = false;
  /** Fastest per-sequence rate measured, tokens/ms. */
  let sequenceRate = 0;
  /** Highest throughput measured, tokens/ms. */
  let peak = 0;
  /** Throughput measured at the slow start's previous cap. */
  let beforeStep = 0;
  /** The lowest the cap may go, raised each time a cap proved to be under the knee. */
  let floor = 0;

  const moveCap = (to: number) => {
    cap = to;
    window = [];
  };

  return {
    get cap() {
      return disabled || othersRunning ? Number.POSITIVE_INFINITY : cap;
    },
    get knee() {
      return knee;
    },
    disable() {
      disabled = true;
    },
    onReading(reading, atMs, inFlight) {
      if (disabled) return;
      if (reading.generationTokens === null) {
        disabled = true;
        return;
      }
      // The server runs more than all of ours: other clients share it. Capping ours would only hand
      // them our share of its batch (its queue is first come first served), so no cap while they do.
      othersRunning = reading.running > inFlight + marginOf(reading.running);
      const sample = { running: reading.running, tokens: reading.generationTokens, atMs, inFlight };
      const before = last;
      last = sample;
      // A restarted server resets its counter; a gap in the readings (no calls) spans a pause; a clock that goes back is another clock: measure afresh.
      if (before !== null && (atMs < before.atMs || sample.tokens < before.tokens || atMs - before.atMs > PAUSE * periodMs)) window = [];
      window.push(sample);
      const first = window[0] as Sample;
      if (sample.atMs - first.atMs < WINDOW * periodMs) return;
      const measured = window;
      // Windows do not overlap: the next one starts here.
      window = [sample];
      const decoded = sample.tokens - first.tokens;
      const running = measured.reduce((sum, s) => sum + s.running, 0) / measured.length;
      // An idle window says nothing.
      if (decoded <= 0 || running < 1) return;
      const throughput = decoded / (sample.atMs - first.atMs);
      const perSequence = throughput / running;
      sequenceRate = Math.max(sequenceRate, perSequence);
      peak = Math.max(peak, throughput);
      const binding = measured.every((s) => s.inFlight >= cap - 1) && running >= 0.9 * cap;
      if (knee === null) {
        const saturated = perSequence < SHARED_BELOW * sequenceRate && throughput < GROWTH * beforeStep;
        if (saturated) knee = peak / sequenceRate;
        else {
          // Still in the slow start: step up once our calls fill the cap.
          if (binding) {
            beforeStep = throughput;
            moveCap(cap * SLOW_START_STEP);
          }
          return;
        }
      } else {
        // Each window sharpens the peak and the fastest rate: the knee follows, up only, since one
        // noisy window too slow at the first saturated step would otherwise keep the cap under it.
        knee = Math.max(knee, peak / sequenceRate);
        if (binding && throughput < SHORT_OF_PEAK * peak) floor = Math.ceil(cap * REGROW);
      }
      const next = Math.max(floor, Math.round(knee * CAP_OVER_KNEE));
      if (next !== cap) moveCap(next);
    },
  };
}
