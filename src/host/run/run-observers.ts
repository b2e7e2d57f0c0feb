/**
 * The bus's subscribers for one run: the message log (into the store), the
 * live metrics, and the progress display with the gateway's figures.
 */
import type { Gateway } from '../../gateway/gateway.ts';
import type { Bus } from '../../kernel/bus.ts';
import { createMetricsCollector, type MetricsCollector } from '../../observers/metrics-collector.ts';
import { showProgress } from '../../observers/progress.ts';
import { writeMessageLog } from '../../store/message-log.ts';
import type { Store } from '../../store/store.ts';
import type { RunConfig } from '../../settings/config.ts';
import { limitFigures, replicaFigures, streamRateOf } from '../progress-figures.ts';

/** What observes a run: the log writer, the metrics and the progress display. */
export interface RunObservers {
  log: ReturnType<typeof writeMessageLog>;
  metrics: MetricsCollector;
  progress: ReturnType<typeof showProgress>;
}

/** Subscribes the log, the metrics and the progress display to the bus. */
export function observeRun(
  bus: Bus,
  parts: { store: Store; gateway: Gateway; config: RunConfig; problems: number; simulated: boolean; expectedCalls: ReadonlyMap<string, Readonly<Record<string, number>>> },
  io: { stderr(line: string): void; terminal?: NodeJS.WriteStream | undefined },
  /** The live metrics: a resumed run's start from its log (resumedMetricsCollector); a new run's from nothing. */
  metrics: MetricsCollector = createMetricsCollector(),
): RunObservers {
  const { gateway, config } = parts;
  const log = writeMessageLog(bus.envelopes$, parts.store);
  bus.envelopes$.subscribe((envelope) => metrics.observe(envelope));
  const progress = showProgress(bus.envelopes$, {
    totalProblems: parts.problems,
    totalIterations: config.loop.maxIterations,
    write: io.stderr,
    terminal: io.terminal,
    simulated: parts.simulated,
    expectedCalls: parts.expectedCalls,
    probe: {
      retriesByCause: () => gateway.stats.retriesByCause,
      inFlight: () => gateway.stats.inFlight,
      queued: () => gateway.stats.queued,
      retries: () => gateway.stats.retries,
      streamRate: streamRateOf(gateway),
      replicas: () => replicaFigures(gateway, config),
      limits: () => limitFigures(gateway, config),
      pass1: () => {
        const done = metrics.iterations().filter((it) => it.problems === parts.problems).at(-1);
        return done ? { iteration: done.iteration, value: done.pass1 } : null;
      },
    },
  });
  return { log, metrics, progress };
}
