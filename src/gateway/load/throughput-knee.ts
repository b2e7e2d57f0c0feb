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
 *
 * On a replica of a pool, the slow start steps by four no higher than the
 * largest cap the pool's other replicas found (`ceiling`), and by a quarter
 * past it: its step past the knee is then small; and a slow start that had
 * stepped far past that cap before the others found theirs comes down to it.
 * A step of four from 64 took a replica to 256 calls, which its share of the
 * pool's calls never filled; its knee was never found, and as the replica with
 * the most free slots it took every call until it ran ~184 sequences at half
 * speed. (A slow start whose sequences run well past the knee under a cap they
 * do not fill now ends there: WELL_PAST.)
 *
 * A window and what it measures: knee-window.ts; the saturated windows and
 * their median: saturated-windows.ts.
 */
import { ReadingWindows, measureWindow, type WindowMeasure } from './knee-window.ts';
import { marginOf } from './load-limit.ts';
import { SaturatedWindows, medianOf, upperOf } from './saturated-windows.ts';

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
  /** Tokens per ms one sequence decoded while the server had room (the fastest window of the slow start); null until measured. */
  readonly sequenceRate: number | null;
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
/** A sequence running below this fraction of the fastest rate seen shares the throughput with the others: its window is saturated. */
const SHARED_BELOW = 0.8;
/**
 * A sequence running at this fraction of the fastest rate or less, the batch
 * steady and under a cap our calls do not fill, ends the slow start whatever
 * its last step gained: the server runs half as many sequences again as its
 * throughput needs, well past its knee, and no next step will come. Without
 * it, a step from 64 to 256 that still gained a quarter (a knee of 80) waited
 * for the next step, which comes only when our calls fill 256; on a replica of
 * a pool, which gets a share of the calls, they never did, and its knee was
 * never found.
 */
const WELL_PAST = 2 / 3;
/** A slow start whose cap is more than this multiple of the pool's ceiling comes down to the ceiling: a replica next to its peers does not need four times their knee. */
const FAR_ABOVE = 2;
/** A step of the slow start must raise the throughput by this factor, or the server is past its knee. */
const GROWTH = 1.1;
/** With the cap binding, throughput below this fraction of the saturated throughput means the cap is under the knee. */
const SHORT_OF_PEAK = 0.9;
/** Binding windows at one cap whose median must fall short before the cap grows. */
const SHORT_WINDOWS = 5;
/** A sequence running at this fraction of the fastest rate seen at least runs at full speed: nothing is shared. */
const FULL_SPEED = 0.95;
/** How much the cap grows when it turned out to be under the knee. */
const REGROW = 1.25;


/**
 * Creates a knee finder in its slow start, for a server read while it has
 * calls (pause() between). `ceiling` gives, on a replica of a pool, the
 * largest cap the other replicas found (null while none has).
 */
export function createThroughputKnee(options: { ceiling?: () => number | null } = {}): ThroughputKnee {
  return new KneeFinder(options.ceiling ?? (() => null));
}

/** The knee finder: the readings go into windows (knee-window.ts), each full window moves the cap. */
class KneeFinder implements ThroughputKnee {
  private capNow = SLOW_START_CAP;
  private found: number | null = null;
  private disabled = false;
  private othersRunning = false;
  private readonly windows = new ReadingWindows();
  /** Fastest per-sequence rate measured in the slow start, tokens/ms. */
  private fastest = 0;
  /** The largest batch a window ran at full speed: the knee lies above it. */
  private fullSpeedBatch = 0;
  private readonly saturated = new SaturatedWindows();
  /** Throughput of the windows in which the current cap bound. */
  private bindingAtCap: number[] = [];
  /** Per-sequence rates of the last steady windows in which the current cap bound (SHORT_WINDOWS at most). */
  private paceAtCap: number[] = [];
  /** Throughput measured at the slow start's previous cap. */
  private beforeStep = 0;
  /** The lowest the cap may go, raised each time a cap proved to be under the knee. */
  private floor = 0;
  /** The slow start met the pool's ceiling: it steps by a quarter, and never comes down to the ceiling again. */
  private cautious = false;

  constructor(private readonly ceiling: () => number | null) {}

  get cap(): number {
    if (this.disabled || this.othersRunning) return Number.POSITIVE_INFINITY;
    // Read here too, not only at the next reading: a replica without calls is not read, and its cap is what the router sees.
    return this.farAbove() ?? this.capNow;
  }

  /** The pool's ceiling when this slow start's cap lies far above it (and has not met it yet); null otherwise. */
  private farAbove(): number | null {
    if (this.found !== null || this.cautious) return null;
    const ceiling = this.ceiling();
    return ceiling !== null && this.capNow > FAR_ABOVE * ceiling ? ceiling : null;
  }

  get sequenceRate(): number | null {
    return this.fastest > 0 ? this.fastest : null;
  }

  get knee(): number | null {
    return this.found;
  }

  get active(): boolean {
    return !this.disabled;
  }

  disable(): void {
    this.disabled = true;
  }

  pause(): void {
    this.windows.clear();
  }

  restart(startCap: number): void {
    this.found = null;
    this.windows.forget();
    this.fastest = 0;
    this.fullSpeedBatch = 0;
    this.saturated.clear();
    this.beforeStep = 0;
    this.floor = 0;
    this.cautious = false;
    this.moveCap(Math.max(SLOW_START_CAP, Math.round(startCap)));
  }

  onReading(reading: ThroughputReading, atMs: number, inFlight: number): void {
    if (this.disabled) return;
    if (reading.generationTokens === null) {
      this.disabled = true;
      return;
    }
    // The server runs more than all of ours: other clients share it. Capping ours would only hand
    // them our share of its batch (its queue is first come first served), so no cap while they do.
    const serverRunning = reading.serverRunning ?? reading.running;
    this.othersRunning = serverRunning > inFlight + marginOf(serverRunning);
    const ceiling = this.farAbove();
    if (ceiling !== null) {
      this.cautious = true;
      this.moveCap(ceiling);
    }
    const measured = this.windows.add({ running: reading.running, waiting: reading.waiting, kvUsage: reading.kvUsage ?? null, tokens: reading.generationTokens, atMs, inFlight });
    if (measured === null) return;
    const window = measureWindow(measured, this.capNow);
    if (window !== null) this.onWindow(window);
  }

  /** A full window: in the slow start, step up or end it; after it, follow the knee. */
  private onWindow(window: WindowMeasure): void {
    const { throughput, running, perSequence, binding, steady, memoryFull } = window;
    if (this.found === null) this.fastest = Math.max(this.fastest, perSequence);
    if (perSequence >= FULL_SPEED * this.fastest) this.fullSpeedBatch = Math.max(this.fullSpeedBatch, running);
    // A batch the server has run at full speed is under its knee: sequences slow there are a stall
    // (the server or our reading of it paused), not sharing. A stall of a server running one sequence,
    // taken for sharing, ended a slow start with a knee of 0.7 on a server of 80, and its cap held a
    // pool's calls on its slower replica (a client at a load of 12 on two cores).
    const shared = steady && !memoryFull && running > this.fullSpeedBatch && perSequence < SHARED_BELOW * this.fastest;
    const endsSlowStart = this.found === null && shared && (throughput < GROWTH * this.beforeStep || (!binding && perSequence <= WELL_PAST * this.fastest));
    if (endsSlowStart) this.saturated.lowerLargestTo(running);
    if (shared) this.saturated.keep(running, throughput);
    // The memory filled before the throughput stopped growing: the slow start's step past the knee
    // (64 to 256 on the capacity model) still gained a quarter, and at the next step the KV cache was
    // full, so no window measured again. The slow start ended only when the run's last calls thinned
    // out: a 50 × 8 run went uncapped for 87% of its time, its server preempting 66,000 sequences.
    // The windows that shared the throughput before the memory filled give the knee.
    const memoryEndsSlowStart = this.found === null && memoryFull && this.saturated.size > 0;
    if (this.found === null && !endsSlowStart && !memoryEndsSlowStart) {
      // Still in the slow start: step up once our calls fill the cap.
      if (binding) {
        this.beforeStep = throughput;
        this.moveCap(this.slowStartStep());
      }
      return;
    }
    this.followKnee(window);
  }

  /**
   * Grows a cap under which the sequences run at full speed; else sets the
   * knee from the saturated windows and moves the cap to it, or grows a cap
   * that proved to be under it.
   */
  private followKnee({ throughput, running, perSequence, binding, steady, memoryFull }: WindowMeasure): void {
    if (binding && steady && !memoryFull && this.paceAtCap.push(perSequence) > SHORT_WINDOWS) this.paceAtCap.shift();
    // The cap binds and its sequences run at full speed (the median of its last windows: one noisy
    // window in a long stay at a cap over the knee is no proof): the server has room,
    // so the cap is under its knee, whatever the saturated windows said. They were misread: in a
    // slow start that overshot into hundreds of calls, a window of their prefill read 1.2M tokens/s
    // on a server of 1.6M (at 200x), set the knee at 65 against a true 80, and the cap, giving more
    // than that "saturated" throughput, never counted as short of it. Measured afresh from here,
    // and until a window shares the throughput again the knee is at least the batch that ran at
    // full speed: this runs whether or not saturated windows are kept, since a server whose knee
    // lies far above shows none, and a cap that waited for one stayed at 23 on a server with room
    // for 500 (a stalled window of the slow start read as its knee).
    if (this.paceAtCap.length >= SHORT_WINDOWS && medianOf(this.paceAtCap) >= FULL_SPEED * this.fastest) {
      this.found = Math.max(this.found ?? 0, running);
      this.floor = Math.ceil(this.capNow * REGROW);
      this.saturated.clear();
      this.moveCap(this.floor);
      return;
    }
    if (this.saturated.size === 0) return;
    const peak = this.saturated.peak();
    const knee = peak / this.fastest;
    this.found = knee;
    if (binding) this.bindingAtCap.push(throughput);
    // The cap binds and the server gives less than when saturated: the cap is under its knee. Nearly
    // all its windows must fall short, not half: a window in which the server stalled (a burst of
    // prefill, a pause) gives less at any cap, and a floor is never lowered (a knee misread low, the
    // fastest rate read high, is brought back up that way), so each stall taken for proof raised it
    // for good: with a dip in one reading of forty to twenty and readings noisy by up to a fifth, a
    // tenth of servers ended capped at 1.5 to 3.4 times their knee, each sequence that much slower.
    if (this.bindingAtCap.length >= SHORT_WINDOWS && upperOf(this.bindingAtCap) < SHORT_OF_PEAK * peak) this.floor = Math.ceil(this.capNow * REGROW);
    const next = Math.max(LEAST_CAP, this.floor, Math.round(knee * CAP_OVER_KNEE));
    if (Math.abs(next - this.capNow) >= Math.max(1, MOVE_BY * this.capNow)) this.moveCap(next);
    else if (this.bindingAtCap.length >= SHORT_WINDOWS) this.bindingAtCap = [];
  }

  /** The slow start's next cap: four times this one, or, past the pool's ceiling, a quarter more. */
  private slowStartStep(): number {
    const step = this.capNow * SLOW_START_STEP;
    const ceiling = this.ceiling();
    if (!this.cautious && (ceiling === null || step <= ceiling)) return step;
    this.cautious = true;
    if (ceiling === null) return Math.ceil(this.capNow * REGROW);
    // Already far above the ceiling (stepped before the others found theirs): down to it, as a reading would bring it.
    if (this.capNow > FAR_ABOVE * ceiling) return ceiling;
    return Math.max(ceiling, Math.ceil(this.capNow * REGROW));
  }

  /** A new cap: the windows at the old one say nothing of it. */
  private moveCap(to: number): void {
    this.capNow = to;
    this.windows.clear();
    this.bindingAtCap = [];
    this.paceAtCap = [];
  }
}
