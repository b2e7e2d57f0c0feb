/**
 * Reading each busy server's load (`--server-queue short`): its `/metrics`
 * when it has them, else what our streams show, at the pace poll-period.ts
 * sets; each reading moves its load limit and its throughput knee.
 */
import { FASTEST_MS } from '../load/poll-period.ts';
import { METRICS_TIMEOUT_MS, metricsUrlOf, readServerLoad, type ServerLoad } from '../load/server-load.ts';
import { stopUsingMetrics } from './unused-metrics.ts';
import { recheckDue, scheduleRechecks } from './metrics-recheck.ts';
import { countingStreams } from './stream-usage.ts';
import { beliedByStreams } from './belied-metrics.ts';
import type { Dispatcher } from '../dispatch/dispatcher.ts';
import type { EndpointState } from './endpoint-state.ts';
import type { HttpTransport } from '../request/http-transport.ts';

/** Unanswered `/metrics` readings after which a server counts as having none (its load is then inferred from streams). */
const METRICS_MISSES = 3;
/** Unanswered readings in a row, once the timeout is at its longest, after which a server whose metrics answered before has them no more. */
const LATE_MISSES = 5;
/** The longest a `/metrics` answer is waited for: a server busy with our calls answers late (vLLM's API server shares its event loop with their streams). */
const LONGEST_METRICS_WAIT_MS = 8_000;

/** Reads a busy server's load and moves its limit. */
export async function readLoad(state: EndpointState, transport: HttpTransport): Promise<void> {
  // A page given up for not answering is asked again now and then (metrics-recheck.ts).
  const recheck = state.metrics.state === 'no' && recheckDue(state);
  if (state.metrics.state !== 'no' || recheck) {
    state.metrics.pending = true;
    // Our calls on the server while it answers, at most (calls that end meanwhile were there when asked).
    const before = state.inFlight;
    // Ours streaming when the page is asked for: it was taken somewhere between then and its answer.
    const streamingBefore = state.watch.running;
    const askedAt = performance.now();
    const reading = await readServerLoad(transport, metricsUrlOf(state.url), { authorization: `Bearer ${state.apiKey}` }, state.metrics.timeoutMs);
    // The server read its counter somewhere between the question and the answer.
    const readAt = (askedAt + performance.now()) / 2;
    state.metrics.pending = false;
    if (reading !== null) {
      // The next answer is waited for twice as long as this one took.
      state.metrics.timeoutMs = Math.min(LONGEST_METRICS_WAIT_MS, Math.max(METRICS_TIMEOUT_MS, Math.ceil(2 * (performance.now() - askedAt))));
      const load = state.series.accept(reading);
      // A page that lacks an engine's series (it missed this scrape) says less than the server holds: the next one is read.
      if (load === null) return;
      const verdict = beliedByStreams(state, load, Math.min(streamingBefore, state.watch.running));
      if (verdict === 'trusted') {
        if (recheck) state.onMetricsFound(state.url);
        return onMetrics(state, load, before, readAt);
      }
      // A belied reading is set aside; once its metrics are not used, the load is inferred from our streams (below).
      if (verdict === 'set aside') return;
    }
    if (!recheck && !onMissedMetrics(state, readAt)) return;
  }
  const inferred = state.watch.reading();
  if (inferred !== null) state.load.onReading(inferred, state.inFlight);
  if (countingStreams(state)) readStreamCount(state, state.watch.running);
  else state.poll.onReading(null, state.watch.running, performance.now());
}

/** A reading of its `/metrics`, with `before` of our calls on it when asked. */
function onMetrics(state: EndpointState, load: ServerLoad, before: number, readAt: number): void {
  state.metrics.state = 'yes';
  state.metrics.misses = 0;
  state.load.onReading(load, state.inFlight, Math.max(before, state.inFlight));
  state.counter = load.generationTokens !== null;
  if (load.generationTokens !== null) {
    // The server counts its tokens: our streams need not, and the knee is measured from its counter.
    if (countingStreams(state)) state.knee.restart(state.inFlight);
    state.streamUsage.state = 'off';
    state.poll.onReading(load.generationTokens, load.running, load.generationTokensAtMs ?? readAt);
    state.knee.onReading(load, load.generationTokensAtMs ?? readAt, Math.max(before, state.inFlight));
  } else if (countingStreams(state)) {
    // The batch as our streams see it, on the clock of the tokens they count. With the server's
    // gauge instead, read at other moments than our streams' tokens arrive, 3 runs of 9 on the
    // capacity model read the knee at 0.9, 47 and 65 (true 80) and took 1.08x, 1.54x and 1.21x;
    // with ours, 8 of 8 read 71-109 and took 1.059-1.068x.
    readStreamCount(state, state.watch.running, load);
  } else {
    state.poll.onReading(null, load.running, readAt);
    // Nothing counts its tokens, nor will: no cap.
    if (state.streamUsage.state === 'off') state.knee.disable();
  }
}

/**
 * Its `/metrics` did not answer; after METRICS_MISSES in a row before any
 * answer, it counts as having none; one that answered before is waited for
 * longer each time, and after LATE_MISSES at the longest wait while its calls
 * succeed, its metrics are not used (returns true then).
 */
function onMissedMetrics(state: EndpointState, readAt: number): boolean {
  state.poll.onReading(null, 0, readAt);
  // A server that has not answered with metrics yet may have none: unless our streams may count its tokens, its calls are not held for a slow start.
  if (state.metrics.state === 'unknown') {
    state.counter = false;
    if (state.streamUsage.state === 'off') state.knee.disable();
    // A server that never answered with metrics has none, for now: they are asked again later (metrics-recheck.ts).
    if (++state.metrics.misses < METRICS_MISSES) return false;
    state.metrics.state = 'no';
    scheduleRechecks(state);
    return true;
  }
  // One that did and stops may be busy: it is waited for longer. Before, a page that came in 2.5 s under load was never
  // read again, and a server read while idle was held at the knee's slow start (16 calls) for the rest of the run.
  const longest = state.metrics.timeoutMs >= LONGEST_METRICS_WAIT_MS;
  state.metrics.timeoutMs = Math.min(LONGEST_METRICS_WAIT_MS, 2 * state.metrics.timeoutMs);
  // A server whose calls fail too is down, not without metrics: a replica that restarts keeps them when it is back.
  if (state.failedAttempts > 0) state.metrics.misses = 0;
  else if (longest) state.metrics.misses++;
  if (state.metrics.misses < LATE_MISSES) return false;
  stopUsingMetrics(state, `its /metrics went unanswered ${LATE_MISSES} times in a row (a 404, another page, or no answer within ${LONGEST_METRICS_WAIT_MS / 1000} s)`);
  return true;
}

/** A reading of the tokens our streams counted, with `running` of our sequences streaming (and the server's load, when read): it paces the readings and measures the knee. */
function readStreamCount(state: EndpointState, running: number, server?: Pick<ServerLoad, 'running' | 'waiting' | 'kvUsage'>): void {
  const now = performance.now();
  const tokens = state.streamUsage.state === 'text' ? state.text.tokens : state.streamUsage.tokens;
  state.poll.onReading(tokens, running, now);
  state.knee.onReading({ running, generationTokens: tokens, ...(server === undefined ? {} : { serverRunning: server.running, waiting: server.waiting, kvUsage: server.kvUsage }) }, now, state.inFlight);
}

/**
 * Reads each busy server when its period (poll-period.ts) has passed; the
 * timer ticks at the shortest period and does not keep the process alive.
 * Returns the timer, for clearInterval.
 */
export function startLoadPoller(endpoints: Map<string, EndpointState>, dispatcher: Dispatcher<EndpointState>, transport: HttpTransport, maxPollMs: number): NodeJS.Timeout {
  const poller = setInterval(() => {
    const now = performance.now();
    for (const state of endpoints.values()) {
      if (state.drained || state.down) continue;
      // No calls, no readings: the knee's next window starts afresh.
      if (state.inFlight === 0 && dispatcher.heldFor(state.pool) === 0) {
        state.knee.pause();
        continue;
      }
      if (state.metrics.pending || now < state.nextReadAt) continue;
      state.nextReadAt = now + state.poll.ms;
      void readLoad(state, transport).then(() => dispatcher.pump());
    }
  }, Math.min(FASTEST_MS, maxPollMs));
  poller.unref();
  return poller;
}
