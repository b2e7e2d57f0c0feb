import { TmasError } from '../../kernel/errors.ts';

/**
 * How long a stop may take after the first signal. Every journaled call is
 * already durable (LevelDB's log), so exiting then still leaves a resumable
 * run; it bounds a stop that waits on something stuck (a store close behind
 * a huge write, a socket that ignores the abort).
 */
export const STOP_DEADLINE_MS = 5_000;

let received: NodeJS.Signals | null = null;

/** The signal that stopped this process's run, or null. */
export function interruptedBy(): NodeJS.Signals | null {
  return received;
}

/**
 * Ctrl-C handling for a run: the first SIGINT or SIGTERM aborts the run
 * cleanly (no new calls, in-flight ones aborted, the journal flushed, the
 * store closed, the way to resume printed); a second one exits at once, which
 * still leaves a resumable run because every completed call is already on disk.
 */
export function interruptOnSignals(io: { stderr(line: string): void }, options: { outputDir?: string } = {}): AbortController {
  const resume = options.outputDir === undefined ? 'with --resume' : `with: tmas run --resume ${options.outputDir}`;
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      io.stderr(`tmas: ${signal} again: exiting now. The run is still resumable ${resume}`);
      process.exit(130);
    }
    received = signal;
    io.stderr(`tmas: ${signal}: stopping (no new calls; flushing the journal). Press Ctrl-C again to exit at once.`);
    controller.abort(new TmasError('TMAS_INTERRUPTED', `received ${signal}`));
    setTimeout(() => {
      io.stderr(`tmas: [TMAS_INTERRUPTED] the stop took over ${STOP_DEADLINE_MS / 1000} s: exiting now. Every completed call is journaled; the run is resumable ${resume}`);
      process.exit(130);
    }, STOP_DEADLINE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return controller;
}
