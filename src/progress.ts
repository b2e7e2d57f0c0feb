/**
 * Progress output: a bus subscriber that counts what happens and prints one
 * line every few seconds to stderr (so stdout stays clean for results).
 */
import type { Observable } from 'rxjs';
import type { Envelope } from './protocol.ts';

/** Live figures the runtime adds to each line. */
export interface ProgressProbe {
  inFlight(): number;
  queued(): number;
  retries(): number;
  /** Pass@1 of the latest iteration that every active problem finished, if any. */
  pass1(): { iteration: number; value: number | null } | null;
}

/** A running progress display. */
export interface Progress {
  /** Prints a last line and stops the timer. */
  stop(): void;
}

/** Subscribes the progress display to the bus. */
export function showProgress(
  envelopes$: Observable<Envelope>,
  options: { totalProblems: number; totalIterations: number; probe: ProgressProbe; write: (line: string) => void; intervalMs?: number },
): Progress {
  const started = performance.now();
  const completed: Record<string, number> = {};
  let problemsDone = 0;
  let iterationsDone = 0;
  let failures = 0;
  let tokens = 0;

  const subscription = envelopes$.subscribe(({ message }) => {
    if (message.type === 'problem.completed') problemsDone++;
    else if (message.type === 'iteration.completed') iterationsDone++;
    else if (message.type === 'llm.failed') failures++;
    else if ('call' in message) {
      const role = message.type.slice(0, message.type.indexOf('.'));
      completed[role] = (completed[role] ?? 0) + 1;
      tokens += message.call.usage.completionTokens;
    }
  });

  function line(): string {
    const seconds = (performance.now() - started) / 1000;
    const { probe } = options;
    const total = options.totalProblems * options.totalIterations;
    const share = total === 0 ? 1 : iterationsDone / total;
    const eta = share > 0 && share < 1 ? ` eta ${Math.round((seconds / share) * (1 - share))}s` : '';
    const calls = Object.entries(completed).map(([role, n]) => `${role} ${n}`).join(', ');
    const pass1 = probe.pass1();
    const accuracy = pass1 && pass1.value !== null ? ` | Pass@1 it${pass1.iteration} ${(pass1.value * 100).toFixed(1)}%` : '';
    return (
      `[${seconds.toFixed(1)}s] problem-iterations ${iterationsDone}/${total} (${(share * 100).toFixed(0)}%)${eta} | ` +
      `problems done ${problemsDone}/${options.totalProblems} | in flight ${probe.inFlight()} queued ${probe.queued()} | ` +
      `${Math.round(tokens / Math.max(seconds, 0.001))} tok/s | retries ${probe.retries()} failed ${failures}${accuracy}` +
      (calls ? ` | ${calls}` : '')
    );
  }

  const timer = setInterval(() => options.write(line()), options.intervalMs ?? 2000);
  timer.unref();
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      subscription.unsubscribe();
      options.write(line());
    },
  };
}
