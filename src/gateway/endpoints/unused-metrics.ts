/**
 * A server whose `/metrics` tmas stops using midway (its own streams belie
 * them, or they stopped answering): from then on it is read as a server
 * without metrics, its load and tokens inferred from our streams.
 */
import type { EndpointState } from './endpoint-state.ts';
import { stopRechecks } from './metrics-recheck.ts';

/** Stops using its metrics, and tells why once. */
export function stopUsingMetrics(state: EndpointState, reason: string): void {
  state.metrics.state = 'no';
  // Metrics read and found wrong would read the same if asked again.
  stopRechecks(state);
  // Its counter is no longer read: our streams count its tokens (their usage, else their text), and the knee starts afresh.
  if (state.counter === true && state.streamUsage.state === 'off') state.streamUsage = { state: 'asked', tokens: 0 };
  state.counter = false;
  state.knee.restart(state.inFlight);
  state.onMetricsUnused(state.url, reason);
}
