/**
 * The metrics of a whole run, folded from its stored message log. A resumed
 * run logs again the replies of the iteration that was cut short (answered
 * from the journal), so each (type, correlation) counts once.
 */
import { createMetricsCollector, type IterationMetrics } from './metrics.ts';
import type { Store } from '../store/store.ts';

/** Streams the log of a run into its per-iteration metrics. */
export async function metricsFromLog(store: Store): Promise<IterationMetrics[]> {
  const collector = createMetricsCollector();
  const seen = new Set<string>();
  for await (const envelope of store.envelopes()) {
    const key = `${envelope.message.type}\u0000${envelope.message.correlation}`;
    if (seen.has(key)) continue;
    seen.add(key);
    collector.observe(envelope);
  }
  return collector.iterations();
}
