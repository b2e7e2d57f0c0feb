/**
 * One window of the knee finder (throughput-knee.ts): the readings of a
 * server over WINDOW reading periods, and what they measured. Rates are read
 * over a window, never from one reading to the next, so that the jitter of
 * each reading's time is spread over all of its intervals.
 */
import { marginOf } from './load-limit.ts';

/** Reading periods (intervals between readings) measured as one window: the jitter of each reading's time is spread over all of them. */
export const WINDOW = 4;
/** A window's batch is steady when its smallest reading is at least this fraction of its largest. */
const STEADY = 0.8;
/** A KV cache this full admits no more sequences (vLLM keeps a little free for the running ones to grow into). */
const KV_FULL = 0.9;

/** One reading as a window keeps it. */
export interface KneeSample {
  running: number;
  waiting: number | undefined;
  kvUsage: number | null;
  tokens: number;
  atMs: number;
  inFlight: number;
}

/** What a full window measured. */
export interface WindowMeasure {
  /** Tokens decoded per ms over the window. */
  throughput: number;
  /** The mean batch over the window's intervals. */
  running: number;
  /** Tokens per ms of each sequence. */
  perSequence: number;
  /** Our calls filled the cap and the server ran them all. */
  binding: boolean;
  /** The batch did not swing within the window. */
  steady: boolean;
  /** The server ran what fit in its memory, not what its decode could serve. */
  memoryFull: boolean;
}

/** Collects readings into windows that do not overlap. */
export class ReadingWindows {
  /** Readings since the window began (the reading at which the cap last moved excluded: its interval mixes two batches and the new calls' prefill). */
  private window: KneeSample[] = [];
  private last: KneeSample | null = null;

  /** Adds a reading; returns the window it completes, or null while the window is not full. */
  add(sample: KneeSample): KneeSample[] | null {
    const before = this.last;
    this.last = sample;
    // A restarted server resets its counter; a clock that goes back is another clock: measure afresh.
    if (before !== null && (sample.atMs < before.atMs || sample.tokens < before.tokens)) this.window = [];
    this.window.push(sample);
    const first = this.window[0] as KneeSample;
    if (this.window.length <= WINDOW || sample.atMs <= first.atMs) return null;
    const measured = this.window;
    // Windows do not overlap: the next one starts here.
    this.window = [sample];
    return measured;
  }

  /** The next reading starts a new window (the cap moved, or the calls paused). */
  clear(): void {
    this.window = [];
  }

  /** Forgets the last reading too: the next one is compared with nothing (another counter). */
  forget(): void {
    this.last = null;
  }
}

/** What a full window measured under `cap`; null when the server was idle (an idle window says nothing). */
export function measureWindow(measured: readonly KneeSample[], cap: number): WindowMeasure | null {
  const first = measured[0] as KneeSample;
  const sample = measured[measured.length - 1] as KneeSample;
  const decoded = sample.tokens - first.tokens;
  // The batch over the window's intervals, each read at its two ends (trapezoids): the window's
  // first and last readings bound one interval each, the others two.
  const running = measured.reduce((sum, s, index) => sum + s.running * (index === 0 || index === measured.length - 1 ? 0.5 : 1), 0) / (measured.length - 1);
  if (decoded <= 0 || running < 1) return null;
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
  return { throughput, running, perSequence, binding, steady, memoryFull };
}
