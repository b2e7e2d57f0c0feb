import { TmasError } from '../kernel/errors.ts';

/**
 * Ctrl-C handling for a run: the first SIGINT or SIGTERM aborts the run
 * cleanly (no new calls, in-flight ones aborted, the journal flushed, the
 * store closed, the way to resume printed); a second one exits at once, which
 * still leaves a resumable run because every completed call is already on disk.
 */
export function interruptOnSignals(io: { stderr(line: string): void }): AbortController {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      io.stderr(`tmas: ${signal} again: exiting now. The run is still resumable with --resume.`);
      process.exit(130);
    }
    io.stderr(`tmas: ${signal}: stopping (no new calls; flushing the journal). Press Ctrl-C again to exit at once.`);
    controller.abort(new TmasError('TMAS_INTERRUPTED', `received ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return controller;
}
