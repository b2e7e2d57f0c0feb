import { TmasError } from '../../kernel/errors.ts';

/**
 * How long a stop may go without progress after the first signal. Every
 * journaled call is already durable (LevelDB's log), so exiting then still
 * leaves a resumable run; it bounds a stop that waits on something stuck (a
 * store close behind a huge write, a socket that ignores the abort). Writing
 * the outputs is progress (each message of the log read back, each line of
 * results written): at the sizes users run that takes longer than this (the
 * log of 100 problems × 12 iterations × 8 × 8, 199,402 messages, folds in
 * 6.7 s: the view benchmark), and a table's methods write theirs at once on
 * one thread, so a deadline counted from the signal cut every method off
 * before its outputs.
 */
export const STOP_DEADLINE_MS = 5_000;

let received: NodeJS.Signals | null = null;

/** The signal that stopped this process's run, or null. */
export function interruptedBy(): NodeJS.Signals | null {
  return received;
}

/** A stop's deadline, once started: `onStuck` runs when the stop has gone `ms` without progress. */
export interface StopDeadline {
  start(): void;
  /** The stop made progress: the deadline counts from now. */
  progressed(): void;
  /** The stop is over: the deadline never fires. */
  cancel(): void;
}

/** Creates a stop's deadline (not yet started: progress before the stop counts for nothing). */
export function createStopDeadline(ms: number, onStuck: () => void): StopDeadline {
  let last = 0;
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const idle = performance.now() - last;
    if (idle >= ms) return onStuck();
    timer = setTimeout(check, ms - idle).unref();
  };
  return {
    start() {
      if (started) return;
      started = true;
      last = performance.now();
      timer = setTimeout(check, ms).unref();
    },
    progressed() {
      last = performance.now();
    },
    cancel() {
      started = true;
      clearTimeout(timer);
    },
  };
}

/** A run's stop: its signal, and where the run tells of the progress its stop makes (the deadline counts from the last). */
export interface Stop {
  signal: AbortSignal;
  progressed(): void;
  /**
   * The run is over: its handlers come off the process and its deadline is
   * cancelled, so that a later run in the same process (a script that runs
   * two) is the only one a signal stops, and the first's deadline, which
   * no longer hears of progress, cannot end the process under the second.
   */
  dispose(): void;
}

/**
 * Ctrl-C handling for a run: the first SIGINT or SIGTERM aborts the run
 * cleanly (no new calls, in-flight ones aborted, the journal flushed, the
 * outputs written, the store closed, the way to resume printed); a second
 * one exits at once, which still leaves a resumable run because every
 * completed call is already on disk.
 */
export function interruptOnSignals(io: { stderr(line: string): void }, options: { outputDir?: string } = {}): Stop {
  const resume = options.outputDir === undefined ? 'with --resume' : `with: tmas run --resume ${options.outputDir}`;
  // A new run: an earlier run's stop in this process is not this one's.
  received = null;
  const controller = new AbortController();
  const deadline = createStopDeadline(STOP_DEADLINE_MS, () => {
    io.stderr(`tmas: [TMAS_INTERRUPTED] the stop took over ${STOP_DEADLINE_MS / 1000} s without progress: exiting now. Every completed call is journaled; the run is resumable ${resume}`);
    process.exit(130);
  });
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      io.stderr(`tmas: ${signal} again: exiting now. The run is still resumable ${resume}`);
      process.exit(130);
    }
    received = signal;
    io.stderr(`tmas: ${signal}: stopping (no new calls; flushing the journal, writing the outputs). Press Ctrl-C again to exit at once.`);
    deadline.start();
    controller.abort(new TmasError('TMAS_INTERRUPTED', `received ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const dispose = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    deadline.cancel();
  };
  return { signal: controller.signal, progressed: deadline.progressed, dispose };
}
