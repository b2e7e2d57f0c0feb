/**
 * The metrics of a whole run, folded from its stored message log. A resumed
 * run logs again the replies of the iteration that was cut short (answered
 * from the journal), so each (type, correlation) counts once, but for an
 * iteration's completion, whose last logging is the one results.jsonl holds
 * (an iteration saved again, with a verdict asked again, has other figures);
 * and a call that failed and succeeded on a later resume counts as the
 * success only, as in results.jsonl. Failures wait to the end of the log (they are few) to learn
 * whether a reply superseded them.
 *
 * The collector reads one kind of long text (1,024 characters or more): the
 * candidates' answers in `iteration.completed`, which a majority vote
 * compares. Every other text is read as an outline, a placeholder that is
 * never blank (the store keeps blank texts inline), which is all that the
 * empty-answer count asks of a solution. Reading the texts back is most of
 * the time and memory of reading a log: at the sizes users run, with
 * thinking-length outputs, the solutions and summaries these messages carry
 * are gigabytes read only to be dropped. A figure that comes to read
 * another long text names it in `readsText`.
 */
import { createMetricsCollector, type MetricsCollector } from './metrics-collector.ts';
import type { IterationMetrics } from './metrics.ts';
import { seqKey, type Store } from '../store/store.ts';
import type { TextPath } from '../store/texts.ts';
import type { Envelope } from '../kernel/protocol.ts';

/** The long texts the metrics read: a candidate's answer (`message.candidates[i].answer`). */
function readsText(type: string, path: TextPath): boolean {
  return type === 'iteration.completed' && path[0] === 'message' && path[1] === 'candidates' && path[3] === 'answer';
}

/**
 * The (type, correlation) pairs of the log read so far. A correlation is kept
 * once, with the types seen under it as one character each: a set of joined
 * keys repeats every correlation once per type, and a long run's log has
 * hundreds of thousands of messages, read at the end of the run, when the
 * run's own state is still in memory.
 */
class SeenMessages {
  private readonly typeCodes = new Map<string, string>();
  private readonly typesOf = new Map<string, string>();

  /** Whether this pair is new; it is seen from now on. */
  firstTime(type: string, correlation: string): boolean {
    let code = this.typeCodes.get(type);
    if (code === undefined) {
      code = String.fromCharCode(this.typeCodes.size);
      this.typeCodes.set(type, code);
    }
    const types = this.typesOf.get(correlation) ?? '';
    if (types.includes(code)) return false;
    this.typesOf.set(correlation, types + code);
    return true;
  }
}

/** Streams the log of a run into its per-iteration metrics. */
export async function metricsFromLog(store: Store): Promise<IterationMetrics[]> {
  return (await runMetricsFromLog(store)).iterations;
}

/**
 * The fold of a log into a collector: each (type, correlation) counted once,
 * but for an iteration's completion, whose last logging counts; a failure held
 * until `settle`, unless a reply under its correlation supersedes it.
 */
function createLogFold() {
  const collector = createMetricsCollector();
  const seen = new SeenMessages();
  const failed = new Map<string, Envelope>();
  // An iteration saved again on resume (a baseline redoes its iterations from the journal, and asks again a judge pass
  // whose call had failed for good) is in results.jsonl as saved last: its figures replace the earlier ones.
  const counts = ({ message }: Envelope): boolean => seen.firstTime(message.type, message.correlation) || message.type === 'iteration.completed';
  return {
    collector,
    counts,
    read(envelope: Envelope): void {
      const { message } = envelope;
      if (message.type === 'llm.failed') {
        failed.set(message.correlation, envelope);
        return;
      }
      if (message.type.endsWith('.completed')) failed.delete(message.correlation);
      if (counts(envelope)) collector.observe(envelope);
    },
    /** Counts the failures no reply superseded. */
    settle(): void {
      for (const envelope of failed.values()) collector.observe(envelope);
      failed.clear();
    },
  };
}

/**
 * Streams the log of a run into its per-iteration metrics, and the calls that
 * failed for good in iterations no problem finished (a run in which every
 * call failed has no iteration to count them in), and how many failures were
 * logged from sequence number `since` on (by the process that started there).
 * `onRead` is told of each message read (a stop's progress).
 */
export async function runMetricsFromLog(store: Store, since = 0, onRead: () => void = () => {}): Promise<{ iterations: IterationMetrics[]; unfinishedFailures: number; failuresSince: number }> {
  const fold = createLogFold();
  let failuresSince = 0;
  for await (const envelope of store.envelopeOutlines(readsText)) {
    onRead();
    const { message } = envelope;
    if (message.type === 'llm.failed' && envelope.seq >= since && message.code !== 'TMAS_CALL_SKIPPED') failuresSince++;
    fold.read(envelope);
  }
  fold.settle();
  return { iterations: fold.collector.iterations(), unfinishedFailures: fold.collector.unfinishedFailures(), failuresSince };
}

/** The live metrics of a resumed run, and when its earlier log is folded into them. */
export interface ResumedMetrics extends MetricsCollector {
  /** Settles once the log before the resume is folded in (never rejects: a log that cannot be read leaves the live figures empty). */
  ready: Promise<void>;
}

/**
 * The live metrics of a resumed run: its log before `firstSeq` folded, then every message of this
 * process, each counted as the fold at the end counts it. The progress line's Pass@1 and the
 * viewer's curves (`tmas run --resume --view`) then cover every problem of the run, not only those
 * this process ran. The fold reads the whole log (30,802 messages of a 200 × 4 run took 7 s): the
 * resume waited for it before its first call. It now reads in the background, the run's own
 * messages held until it ends; until then the figures are empty rather than those of part of a log.
 */
export function resumedMetricsCollector(store: Store, firstSeq: number): ResumedMetrics {
  const fold = createLogFold();
  let held: Envelope[] | null = [];
  let readable = true;
  const ready = (async () => {
    try {
      // Only what earlier processes logged: this one's messages come through `observe`.
      for await (const envelope of store.envelopeOutlines(readsText, { lt: seqKey(firstSeq) })) fold.read(envelope);
      fold.settle();
    } catch {
      readable = false;
    }
    for (const envelope of held ?? []) if (fold.counts(envelope)) fold.collector.observe(envelope);
    held = null;
  })();
  return {
    observe: (envelope) => {
      if (held !== null) held.push(envelope);
      else if (fold.counts(envelope)) fold.collector.observe(envelope);
    },
    iterations: () => (held === null && readable ? fold.collector.iterations() : []),
    unfinishedFailures: () => (held === null && readable ? fold.collector.unfinishedFailures() : 0),
    ready,
  };
}
