/**
 * A server whose `/metrics` did not answer (a 404, an HTML page, no answer)
 * is asked again now and then: SGLang started before its metrics exporter, a
 * proxy's route to them added while the run goes on. Before, a page that
 * failed the first three readings was never read again, and the whole run
 * went on inferred load. The asks are bounded: RECHECKS of them, spaced
 * farther each time (30 s, 1, 2, 4 min, then every 8 min at the default
 * period: the last about 40 minutes after its metrics were given up), each
 * under the reading's own time limit.
 */
import type { EndpointState } from './endpoint-state.ts';

/** Asks of a page given up, at most. */
export const RECHECKS = 8;
/** The first ask after a page was given up, in load-reading periods (`--load-poll-ms`, 500 ms by default): 30 s. */
const FIRST_RECHECK_PERIODS = 60;
/** The longest wait between two asks, in the same periods: 8 min. */
const LONGEST_RECHECK_PERIODS = 960;

/** Its metrics were given up for not answering: they are asked again later, RECHECKS times at most. */
export function scheduleRechecks(state: EndpointState): void {
  state.metrics.rechecks = 0;
  state.metrics.recheckAt = performance.now() + FIRST_RECHECK_PERIODS * state.metrics.periodMs;
}

/** Its metrics are not to be asked again (they were read and belied by our streams: another ask would read the same). */
export function stopRechecks(state: EndpointState): void {
  state.metrics.rechecks = RECHECKS;
}

/** Whether a page given up is due to be asked again now; if so, the ask is counted and the next one set farther. */
export function recheckDue(state: EndpointState): boolean {
  const { metrics } = state;
  if (metrics.rechecks >= RECHECKS || performance.now() < metrics.recheckAt) return false;
  metrics.rechecks++;
  const periods = Math.min(LONGEST_RECHECK_PERIODS, FIRST_RECHECK_PERIODS * 2 ** metrics.rechecks);
  metrics.recheckAt = performance.now() + periods * metrics.periodMs;
  return true;
}
