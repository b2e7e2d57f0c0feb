/**
 * Runs tmas in this process against an endpoint (the sim-server child) and
 * measures it: wall time, this process's CPU time (the runtime's main thread
 * and its pool threads; the model runs in another process), peak RSS, and
 * optional probes on the gateway's counters and on the bus.
 */
import path from 'node:path';
import { collectGarbageEagerly, RUN_HEAP_GROWTH } from '../../src/cli/common/eager-gc.ts';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import { loadProblems } from '../../src/input/problems.ts';
import { runEvaluation, type RunObservables, type RunOutcome } from '../../src/host/run/run-evaluation.ts';

/** What one measured run reports. */
export interface MeasuredRun {
  outcome: RunOutcome;
  wallMs: number;
  /** User + system CPU of this process during the run. */
  cpuMs: number;
  /** Highest RSS sampled during the run (every 100 ms), in bytes. */
  peakRss: number;
}

/** Options of `measureRun`. */
export interface MeasureOptions {
  /** `tmas run` arguments, without --output-file (one is made under `dir`). */
  args: string[];
  dir: string;
  /** Called while the run goes, with the gateway and the bus. */
  observe?: (parts: RunObservables) => void;
}

/** Runs an evaluation in-process, quietly, and measures it. */
export async function measureRun(options: MeasureOptions): Promise<MeasuredRun> {
  const outputDir = path.join(options.dir, `run-${Date.now()}-${Math.floor(Math.random() * 1e6)}`);
  const { config, secrets } = toRunConfig(parseRunFlags([...options.args, '--output-file', outputDir]), { OPENAI_API_KEY: 'bench' });
  const problems = await loadProblems(config.problems.inputFile);
  const quiet = { stdout: () => {}, stderr: () => {} };
  // As `tmas run` does, so that the peak RSS measured is the command's.
  collectGarbageEagerly(RUN_HEAP_GROWTH);
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 100);
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    const outcome = await runEvaluation(config, secrets, problems, quiet, options.observe ? { observe: options.observe } : {});
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    return { outcome, wallMs, cpuMs: (used.user + used.system) / 1000, peakRss };
  } finally {
    clearInterval(sampler);
  }
}

/** Bytes as MB with one decimal. */
export function mb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(0)} MB`;
}
