/**
 * A server's load inferred from our own streams, for servers without
 * metrics: a stream that has sent its first event is running on the server;
 * one still silent well past the usual time to first token is waiting in the
 * server's queue. "Usual" is a low quantile of the recent times to first
 * token, which prefill alone sets when nothing queues. Servers whose first
 * event usually takes seconds are left alone (see MAX_USUAL_MS).
 */
import type { LoadReading } from './load-limit.ts';

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

/** One attempt being watched. */
export interface WatchedStream {
  /** Its first event arrived. */
  started(): void;
  /** It ended, whatever the outcome. */
  ended(): void;
}

/** The streams of one server. */
export interface FirstTokenWatch {
  watch(): WatchedStream;
  /** The inferred load now; null until a time to first token was seen. */
  reading(now?: number): LoadReading | null;
  /** Streams that sent their first event and have not ended. */
  readonly running: number;
}

/** Creates the watch of one server; `clock` gives milliseconds (tests pass their own). */
export function createFirstTokenWatch(clock: () => number = () => performance.now()): FirstTokenWatch {
  const silent = new Map<number, number>();
  let next = 0;
  let running = 0;
  const samples: number[] = [];
  let at = 0;
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
          const ttft = clock() - sentAt;
          if (samples.length < SAMPLES) samples.push(ttft);
          else samples[at++ % SAMPLES] = ttft;
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
      if (samples.length === 0) return null;
      const sorted = [...samples].sort((a, b) => a - b);
      const usual = sorted[Math.floor(sorted.length / 10)] ?? 0;
      if (usual > MAX_USUAL_MS) return null;
      const queuedAfter = QUEUED_AFTER * usual + SLACK_MS;
      let waiting = 0;
      for (const sentAt of silent.values()) if (now - sentAt > queuedAfter) waiting++;
      return { running, waiting };
    },
  };
}
