/**
 * A server's load inferred from our own streams, for servers without
 * metrics: a stream that has sent its first event is running on the server;
 * one still silent well past the usual time to first token is waiting in the
 * server's queue. "Usual" is a low quantile of the recent times to first
 * token, which prefill alone sets when nothing queues. Servers whose first
 * event usually takes seconds are left alone (see MAX_USUAL_MS). The same
 * watch tells whether a server's text flows as it is decoded (its first text
 * usually within MAX_USUAL_MS), which counting that text needs (stream-usage.ts).
 */
import type { LoadReading } from './load-limit.ts';
import { createRecentValues, type RecentValues } from './recent-values.ts';

/** Recent times to first token kept, per server. */
const SAMPLES = 256;
/** A stream silent for this multiple of the usual time to first token (plus the slack) counts as queued. */
const QUEUED_AFTER = 3;
const SLACK_MS = 10;
/**
 * A server whose first event usually takes longer than this sends it after
 * hidden reasoning (hosted reasoning models), not at the first token: its
 * silence says nothing about a queue, and no load is inferred.
 */
const MAX_USUAL_MS = 2_000;
/** First texts seen before saying whether text flows. */
const TEXTS_TO_JUDGE = 8;

/** One attempt being watched. */
export interface WatchedStream {
  /** Its first event arrived. */
  started(): void;
  /** Its first text (content or reasoning) arrived. */
  texted(): void;
  /** It ended, whatever the outcome. */
  ended(): void;
}

/** The streams of one server. */
export interface FirstTokenWatch {
  watch(): WatchedStream;
  /** The inferred load now; null until a time to first token was seen. */
  reading(now?: number): LoadReading | null;
  /**
   * Whether the server's text usually comes as it is decoded (its first text
   * within MAX_USUAL_MS), so that counting it measures the decoding; false
   * when it comes only after a hidden reasoning; null before TEXTS_TO_JUDGE
   * first texts (one late text may have waited in a queue).
   */
  textFlows(): boolean | null;
  /** Streams that sent their first event and have not ended. */
  readonly running: number;
}

/** Creates the watch of one server; `clock` gives milliseconds (tests pass their own). */
export function createFirstTokenWatch(clock: () => number = () => performance.now()): FirstTokenWatch {
  const silent = new Map<number, number>();
  let next = 0;
  let running = 0;
  const samples = createRecentValues(SAMPLES);
  const textSamples = createRecentValues(SAMPLES);
  /** The usual time to a first event or text: a low quantile, which prefill alone sets when nothing queues. */
  const usual = (sample: RecentValues) => sample.quantile(0.1) ?? 0;
  return {
    watch() {
      const id = next++;
      const sentAt = clock();
      silent.set(id, sentAt);
      let state: 'silent' | 'running' | 'ended' = 'silent';
      return {
        started() {
          if (state !== 'silent') return;
          state = 'running';
          silent.delete(id);
          running++;
          samples.add(clock() - sentAt);
        },
        texted() {
          textSamples.add(clock() - sentAt);
        },
        ended() {
          if (state === 'running') running--;
          else if (state === 'silent') silent.delete(id);
          state = 'ended';
        },
      };
    },
    get running() {
      return running;
    },
    reading(now = clock()) {
      if (samples.size === 0) return null;
      const usualMs = usual(samples);
      if (usualMs > MAX_USUAL_MS) return null;
      const queuedAfter = QUEUED_AFTER * usualMs + SLACK_MS;
      let waiting = 0;
      for (const sentAt of silent.values()) if (now - sentAt > queuedAfter) waiting++;
      return { running, waiting };
    },
    textFlows() {
      return textSamples.size < TEXTS_TO_JUDGE ? null : usual(textSamples) <= MAX_USUAL_MS;
    },
  };
}
