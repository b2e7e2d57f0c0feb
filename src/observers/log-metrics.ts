/**
 * The metrics of a whole run, folded from its stored message log. A resumed
 * run logs again the replies of the iteration that was cut short (answered
 * from the journal), so each (type, correlation) counts once; and a call that
 * failed and succeeded on a later resume counts as the success only, as in
 * results.jsonl. Failures wait to the end of the log (they are few) to learn
 * whether a reply superseded them.
 *
 * The collector reads long texts (1,024 characters or more) of two messages
 * only: the candidates' answers (`iteration.completed`) and whether a
 * solution's text is empty (`solution.completed`). The others are read without
 * their texts, which is most of the time of reading them back: a stopped run's
 * outputs must be written within the 5 s a stop may take. A figure that comes to
 * read another message's long text adds its type to WITH_TEXTS.
 */
import { createMetricsCollector } from './metrics-collector.ts';
import type { IterationMetrics } from './metrics.ts';
import type { Store } from '../store/store.ts';
import type { Envelope, MessageType } from '../kernel/protocol.ts';

/** The messages whose long texts the metrics read. */
const WITH_TEXTS: ReadonlySet<MessageType> = new Set(['iteration.completed', 'solution.completed']);

/** Streams the log of a run into its per-iteration metrics. */
export async function metricsFromLog(store: Store): Promise<IterationMetrics[]> {
  const collector = createMetricsCollector();
  const seen = new Set<string>();
  const failed = new Map<string, Envelope>();
  for await (const envelope of store.envelopeOutlines(WITH_TEXTS)) {
    const { message } = envelope;
    if (message.type === 'llm.failed') {
      failed.set(message.correlation, envelope);
      continue;
    }
    if (message.type.endsWith('.completed')) failed.delete(message.correlation);
    const key = `${message.type}\u0000${message.correlation}`;
    if (seen.has(key)) continue;
    seen.add(key);
    collector.observe(envelope);
  }
  for (const envelope of failed.values()) collector.observe(envelope);
  return collector.iterations();
}
