/**
 * What the capacity model (engine.ts) counts as it runs: tokens, requests,
 * the timeline of its busy fraction and queue, the quantiles of its queue and
 * of the waits in it, and vLLM's latency histograms. Bounded however long the
 * run (timeline.ts); read as the engine's stats and as its /metrics.
 */
import { createHistogram, E2E_BOUNDS, observe, TTFT_BOUNDS, type Histogram } from './histogram.ts';
import { createCountQuantiles, createDurationQuantiles, createTimeline, type TimelinePoint } from './timeline.ts';

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

/** The engine's state now, which the tally does not keep. */
export interface EngineNow {
  elapsedSeconds: number;
  running: number;
  waiting: number;
  kvUsage: number;
}

/** The counters of one engine. */
export class CapacityTally {
  private readonly count = { decoded: 0, wasted: 0, prefill: 0, prompt: 0, cachedPrompt: 0, finished: 0, aborted: 0, preemptions: 0 };
  private readonly timeline = createTimeline();
  private readonly waitingQuantiles = createCountQuantiles();
  private readonly queueWaits = createDurationQuantiles();
  private readonly ttft = createHistogram(TTFT_BOUNDS);
  private readonly e2e = createHistogram(E2E_BOUNDS);

  /** `decodeTokensPerSecond` is D, which the busy fraction divides by. */
  constructor(private readonly decodeTokensPerSecond: number) {}

  /** Over `dt` seconds from `from` (since the engine started), the batch decoded at `flow` tokens/s while `waiting` requests queued. */
  interval(from: number, dt: number, flow: number, waiting: number): void {
    this.count.decoded += flow * dt;
    this.timeline.add(from, dt, flow / this.decodeTokensPerSecond, waiting);
    this.waitingQuantiles.add(waiting, dt);
  }

  /** A request admitted for the first time, after `waitedSeconds` in the queue, `cached` of its prompt's tokens found in the prefix cache. */
  firstAdmission(waitedSeconds: number, promptTokens: number, cached: number): void {
    this.queueWaits.add(waitedSeconds);
    this.count.prompt += promptTokens;
    this.count.cachedPrompt += cached;
  }

  /** Tokens an admission prefills (again, after a preemption). */
  prefill(tokens: number): void {
    this.count.prefill += tokens;
  }

  /** A request's first token, `seconds` after it arrived. */
  firstToken(seconds: number): void {
    observe(this.ttft, seconds);
  }

  preempted(): void {
    this.count.preemptions++;
  }

  /** A request finished, `seconds` after it arrived. */
  finished(seconds: number): void {
    this.count.finished++;
    observe(this.e2e, seconds);
  }

  /** A request aborted by its client, after generating `wasted` tokens. */
  aborted(wasted: number): void {
    this.count.wasted += wasted;
    this.count.aborted++;
  }

  /** The engine's figures. */
  stats(now: EngineNow): CapacityStats {
    const { count } = this;
    const elapsed = now.elapsedSeconds;
    return {
      simulated: true,
      elapsedSeconds: elapsed,
      busyFraction: elapsed > 0 ? count.decoded / (this.decodeTokensPerSecond * elapsed) : 0,
      timeline: this.timeline.points(),
      tokens: { decoded: count.decoded, wasted: count.wasted, prefill: count.prefill, prompt: count.prompt, cachedPrompt: count.cachedPrompt },
      prefixCacheHitRate: count.prompt > 0 ? count.cachedPrompt / count.prompt : 0,
      requests: { finished: count.finished, aborted: count.aborted, running: now.running, waiting: now.waiting, preemptions: count.preemptions },
      waiting: { now: now.waiting, p50: this.waitingQuantiles.quantile(0.5), p90: this.waitingQuantiles.quantile(0.9) },
      queueWaitSeconds: { p50: this.queueWaits.quantile(0.5), p90: this.queueWaits.quantile(0.9) },
      kvUsage: now.kvUsage,
    };
  }

  /** The engine's counters, for /metrics (copies of the histograms: the caller may keep them). */
  metrics(now: Omit<EngineNow, 'elapsedSeconds'>): CapacityMetrics {
    const { count } = this;
    return {
      running: now.running,
      waiting: now.waiting,
      kvUsage: now.kvUsage,
      promptTokens: count.prefill,
      generationTokens: count.decoded,
      preemptions: count.preemptions,
      prefixQueries: count.prompt,
      prefixHits: count.cachedPrompt,
      ttft: structuredClone(this.ttft),
      e2e: structuredClone(this.e2e),
    };
  }
}
