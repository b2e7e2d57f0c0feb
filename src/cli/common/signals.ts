import { TmasError } from '../../kernel/errors.ts';
import type { DrainingRun, RunDrain } from '../../host/run/run-drain.ts';

/**
 * How long a stop may go without progress once its calls in flight are
 * aborted (SIGTERM, the second Ctrl-C), and how much longer than a call's
 * idle limit a drain (the first Ctrl-C) may go with none finishing. Every
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

/** A stop's deadline, once started: `onStuck` runs when the stop has gone its patience without progress. */
export interface StopDeadline {
  /** Starts the deadline, or gives it another patience (`ms`, by default the one it was made with), counted from now. */
  start(ms?: number): void;
  /** The stop made progress: the deadline counts from now. */
  progressed(): void;
  /** The stop is over: the deadline never fires. */
  cancel(): void;
}

/** Creates a stop's deadline (not yet started: progress before the stop counts for nothing). */
export function createStopDeadline(ms: number, onStuck: () => void): StopDeadline {
  let last = 0;
  let patience = ms;
  let state: 'idle' | 'started' | 'over' = 'idle';
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const idle = performance.now() - last;
    if (idle >= patience) return onStuck();
    timer = setTimeout(check, patience - idle).unref();
  };
  return {
    start(within = ms) {
      if (state === 'over') return;
      state = 'started';
      patience = within;
      last = performance.now();
      clearTimeout(timer);
      timer = setTimeout(check, patience).unref();
    },
    progressed() {
      last = performance.now();
    },
    cancel() {
      state = 'over';
      clearTimeout(timer);
    },
  };
}

/** A run's stop: its signal, its drain, and where the run tells of the progress its stop makes (the deadline counts from the last). */
export interface Stop {
  /** Aborts the calls in flight: the second Ctrl-C, SIGTERM, or a drain that went its deadline without progress. */
  signal: AbortSignal;
  /** The first Ctrl-C: no new call is sent; the calls in flight finish and are journaled, then the run stops. */
  drain: RunDrain;
  progressed(): void;
  /**
   * The run is over: its handlers come off the process and its deadline is
   * cancelled, so that a later run in the same process (a script that runs
   * two) is the only one a signal stops, and the first's deadline, which
   * no longer hears of progress, cannot end the process under the second.
   */
  dispose(): void;
}

/** `1 call`, `3 calls`. */
function calls(count: number): string {
  return `${count} call${count === 1 ? '' : 's'}`;
}

/**
 * Ctrl-C handling for a run. The first SIGINT drains it: no new call is
 * sent, the calls in flight finish and are journaled (a hosted API bills the
 * tokens of a call aborted midway, and the resume would send it again), then
 * the journal is flushed, the outputs written, the store closed and the way
 * to resume printed. The second aborts the calls still in flight and stops
 * the same way; a third exits at once, which still leaves a resumable run
 * because every completed call is already on disk. SIGTERM (a batch
 * scheduler's kill, with SIGKILL after its grace period) aborts at once, as
 * the second Ctrl-C does. A drain that goes a call's idle limit (--timeout,
 * after which the gateway gives the call up) and the deadline more without
 * progress aborts what is left; an abort that goes the deadline without
 * progress exits.
 */
export function interruptOnSignals(io: { stderr(line: string): void }, options: { outputDir?: string } = {}): Stop {
  const resume = options.outputDir === undefined ? 'with --resume' : `with: tmas run --resume ${options.outputDir}`;
  // A new run: an earlier run's stop in this process is not this one's.
  received = null;
  const controller = new AbortController();
  const draining = new AbortController();
  const runs: DrainingRun[] = [];
  const inFlight = () => runs.reduce((sum, run) => sum + run.inFlight(), 0);
  const exitNow = (line: string) => {
    io.stderr(`${line} The run is still resumable ${resume}`);
    process.exit(130);
  };
  const abort = (signal: NodeJS.Signals, line: string) => {
    io.stderr(line);
    deadline.start(STOP_DEADLINE_MS);
    controller.abort(new TmasError('TMAS_INTERRUPTED', `received ${signal}`));
  };
  const deadline = createStopDeadline(STOP_DEADLINE_MS, () => {
    const left = inFlight();
    if (draining.signal.aborted && !controller.signal.aborted && left > 0) {
      return abort('SIGINT', `tmas: no call in flight finished or streamed for a while: aborting the ${calls(left)} still in flight (sent again on resume); writing the outputs.`);
    }
    io.stderr(`tmas: [TMAS_INTERRUPTED] the stop took over ${STOP_DEADLINE_MS / 1000} s without progress: exiting now. Every completed call is journaled; the run is resumable ${resume}`);
    process.exit(130);
  });
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return exitNow(`tmas: ${signal} again: exiting now.`);
    received ??= signal;
    if (signal === 'SIGINT' && !draining.signal.aborted) return drainOn(signal);
    const left = inFlight();
    // Drained already (the run writes its outputs): nothing is left to abort, and the Ctrl-C asks to be out.
    if (signal === 'SIGINT' && draining.signal.aborted && left === 0) return exitNow(`tmas: ${signal} again: exiting now.`);
    const what = left > 0 && draining.signal.aborted ? `aborting the ${calls(left)} in flight (sent again on resume); flushing the journal, writing the outputs` : 'stopping (no new calls; flushing the journal, writing the outputs)';
    abort(signal, `tmas: ${signal}: ${what}. Press Ctrl-C again to exit at once.`);
  };
  const drainOn = (signal: NodeJS.Signals) => {
    draining.abort(new TmasError('TMAS_INTERRUPTED', `received ${signal}`));
    // Each call in flight is given up by the gateway after its idle limit: the drain waits that long for the slowest.
    deadline.start(Math.max(0, ...runs.map((run) => run.idleLimitMs)) + STOP_DEADLINE_MS);
    // Told once the calls the gateway held have left the count (they are not sent).
    setImmediate(() => {
      const left = inFlight();
      if (controller.signal.aborted) return;
      if (left === 0) io.stderr(`tmas: ${signal}: stopping (no new calls; flushing the journal, writing the outputs). Press Ctrl-C again to exit at once.`);
      else {
        const [finish, them] = left === 1 ? ['finishes and is', 'it: it is'] : ['finish and are', 'them: they are'];
        io.stderr(
          `tmas: ${signal}: stopping: no new calls; the ${calls(left)} in flight ${finish} journaled, then the outputs are written. ` +
            `Press Ctrl-C again to abort ${them} sent again on resume (and billed again on a hosted API).`,
        );
      }
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const dispose = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    deadline.cancel();
  };
  const drain: RunDrain = { signal: draining.signal, watch: (run) => runs.push(run) };
  return { signal: controller.signal, drain, progressed: deadline.progressed, dispose };
}
