/**
 * A run as the viewer serves it: its open store and manifest, whether it is
 * still running, and its per-iteration curves. A finished run's curves come
 * from its metrics.json (or, when that is missing, from folding its log once);
 * a running one's from the metrics collector of the running process, so they
 * move as the run goes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Observable } from 'rxjs';
import type { Envelope } from '../kernel/protocol.ts';
import type { IterationMetrics } from '../observers/metrics.ts';
import { metricsFromLog } from '../observers/log-metrics.ts';
import type { Store } from '../store/store.ts';
import type { RunManifest } from '../host/run/run-manifest.ts';
import { isUserError } from '../kernel/errors.ts';
import { checkMetricsVersion } from '../report/metrics-file.ts';

/** One run the viewer shows. */
export interface ViewedRun {
  /** The directory's name: how the run is labelled. */
  name: string;
  dir: string;
  store: Store;
  manifest: RunManifest;
  /** True while the run is going on (served by `tmas run --view`). */
  live(): boolean;
  /** The per-iteration figures so far. */
  curves(): Promise<IterationMetrics[]>;
}

/** A finished (or stopped) run read from its directory. */
export function finishedRun(dir: string, store: Store, manifest: RunManifest): ViewedRun {
  let curves: Promise<IterationMetrics[]> | null = null;
  const read = async (): Promise<IterationMetrics[]> => {
    const file = path.join(dir, 'metrics.json');
    try {
      const metrics = JSON.parse(await readFile(file, 'utf8')) as { iterations?: IterationMetrics[] };
      checkMetricsVersion(metrics, file);
      if (metrics.iterations) return metrics.iterations;
    } catch (error) {
      // A newer tmas's file is refused, not read as this one's; a run stopped before its outputs were written has everything in its log.
      if (isUserError(error)) throw error;
    }
    return metricsFromLog(store);
  };
  return {
    name: path.basename(path.resolve(dir)),
    dir: path.resolve(dir),
    store,
    manifest,
    live: () => false,
    curves: () => (curves ??= read()),
  };
}

/** The run of this process, while it goes: `metrics` is the live collector's current figures. */
export function liveRun(options: { dir: string; store: Store; manifest: RunManifest; metrics: () => IterationMetrics[]; envelopes$: Observable<Envelope> }): ViewedRun {
  let finished = false;
  options.envelopes$.subscribe({
    next: (envelope) => {
      if (envelope.message.type === 'run.completed') finished = true;
    },
    complete: () => (finished = true),
  });
  return {
    name: path.basename(path.resolve(options.dir)),
    dir: path.resolve(options.dir),
    store: options.store,
    manifest: options.manifest,
    live: () => !finished,
    curves: async () => options.metrics(),
  };
}
