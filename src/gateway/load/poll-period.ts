/**
 * How often a server's load is read: about each time one of its sequences
 * decodes READ_EVERY_TOKENS tokens, at most every `maxMs` (`--load-poll-ms`,
 * 500 by default) and at least every FASTEST_MS. What the readings steer (the
 * limit, the knee's windows) changes at the pace the server decodes, not at a
 * pace of our clock: a reasoning model decoding 100 tokens/s per sequence is
 * read every 500 ms; a server 200 times faster (a simulator run at
 * `--time-scale 200`) every 25 ms, where 500 ms would let 100 simulated seconds
 * pass between two readings.
 *
 * The pace of one sequence comes from the server's token counter between two
 * readings (the sequences it runs share the tokens), else from the calls that
 * ended (their tokens over the time from their first token to their end).
 * Until either is known the first readings come quickly, a few only, so a
 * server that gives no pace is then read every `maxMs`.
 */
import { createRecentValues } from './recent-values.ts';

/** Tokens one sequence decodes between two readings. */
export const READ_EVERY_TOKENS = 100;
/** The shortest period. */
export const FASTEST_MS = 25;
/** Readings taken quickly before the pace is known. */
const QUICK_READINGS = 20;
/** Recent paces kept per source; the period follows their median, so one odd interval does not move it. */
const KEPT = 9;
/** Calls shorter than this say little of the pace (their time is mostly the last chunk's delivery). */
const LEAST_CALL_TOKENS = 100;

/** The period of one server's readings. */
export interface PollPeriod {
  /** Milliseconds until the next reading. */
  readonly ms: number;
  /** Tokens per ms one sequence decodes lately (the median of the recent paces); null until known. */
  readonly pace: number | null;
  /** A reading was taken; its counter (null without one), the sequences running and when (ms). */
  onReading(tokens: number | null, running: number, atMs: number): void;
  /** A call ended: its completion tokens over `decodeMs` from its first token to its end. */
  onCall(tokens: number, decodeMs: number): void;
  /** The server went away and came back, maybe on other hardware: its pace is measured afresh, the first readings quick again. */
  forget(): void;
}

/** Creates the period of a server read at most every `maxMs`. */
export function createPollPeriod(maxMs: number): PollPeriod {
  if (!(maxMs > 0)) throw new TypeError(`maxMs must be > 0, got ${maxMs}`);
  const fastest = Math.min(FASTEST_MS, maxMs);
  let fromCounter = createRecentValues(KEPT);
  let fromCalls = createRecentValues(KEPT);
  let last: { tokens: number; atMs: number } | null = null;
  let readings = 0;
  const paceNow = () => fromCounter.quantile(0.5) ?? fromCalls.quantile(0.5);
  return {
    get pace() {
      const pace = paceNow();
      return pace !== null && pace > 0 ? pace : null;
    },
    get ms() {
      const pace = paceNow();
      if (pace === null || !(pace > 0)) return readings < QUICK_READINGS ? fastest : maxMs;
      return Math.min(maxMs, Math.max(fastest, READ_EVERY_TOKENS / pace));
    },
    onReading(tokens, running, atMs) {
      readings++;
      if (tokens === null) return;
      const before = last;
      last = { tokens, atMs };
      if (before === null || running < 1 || atMs <= before.atMs || tokens <= before.tokens) return;
      fromCounter.add((tokens - before.tokens) / (atMs - before.atMs) / running);
    },
    onCall(tokens, decodeMs) {
      if (tokens >= LEAST_CALL_TOKENS && decodeMs > 0) fromCalls.add(tokens / decodeMs);
    },
    forget() {
      fromCounter = createRecentValues(KEPT);
      fromCalls = createRecentValues(KEPT);
      last = null;
      readings = 0;
    },
  };
}
