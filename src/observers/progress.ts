/**
 * Progress output: a bus subscriber that counts what happens and shows it on
 * stderr (so stdout stays clean for results).
 *
 * - On a terminal (`terminal` given and a TTY): a live multi-line display drawn
 *   with cli-progress: the run's share of problem-iterations with elapsed time,
 *   ETA and current Pass@1; one bar per phase (role) against the calls the run
 *   will make; the lowest unfinished iteration's problems; and a line with
 *   requests in flight and queued, tokens per second, retries and errors.
 * - Otherwise (CI, a log file): one plain line every few seconds.
 */
import cliProgress, { type Bar } from 'cli-progress';
import type { Observable } from 'rxjs';
import type { Envelope } from '../kernel/protocol.ts';
import { countFaults, createFaultCounts, type FaultCounts } from './fault-counts.ts';
import { paidCall } from './paid-call.ts';

/** Live figures the runtime adds to the display. */
export interface ProgressProbe {
  inFlight(): number;
  queued(): number;
  retries(): number;
  /** Retries by cause (`429`, `503`, `timeout`, …), when the gateway keeps them. */
  retriesByCause?(): Record<string, number>;
  /** Endpoints whose adaptive in-flight limit is below `--concurrency`, e.g. `host:8000 96`. */
  limits?(): string[];
  /** Tokens per second being generated in the open streams now (an estimate from streamed characters); null when not streaming. */
  streamRate?(): number | null;
  /** Per-replica figures when a role has several (`host:port 12/64 calls 340 errors 2`). */
  replicas?(): string[];
  /** Pass@1 of the latest iteration that every active problem finished, if any. */
  pass1(): { iteration: number; value: number | null } | null;
}

/** A running progress display. */
export interface Progress {
  /** Prints a last line (or the final state of the bars) and stops. */
  stop(): void;
}

/** What `showProgress` needs. */
export interface ProgressOptions {
  totalProblems: number;
  totalIterations: number;
  probe: ProgressProbe;
  /** Where plain lines go. */
  write: (line: string) => void;
  /** A terminal stream for the live display; plain lines when absent or not a TTY. */
  terminal?: NodeJS.WriteStream | undefined;
  /**
   * Calls each role will complete for each problem, by problem id, when known:
   * the phase bars' totals. A problem that ends counts what it carried: a
   * reply cut at its limit is not checked, so it may carry fewer.
   */
  expectedCalls?: ReadonlyMap<string, Readonly<Record<string, number>>>;
  /** Whether the run goes to the simulated model (said on the display). */
  simulated?: boolean;
  intervalMs?: number;
}

/** Counts of what the bus carried so far. */
interface Tally {
  completed: Record<string, number>;
  /** Calls completed, by problem and role. */
  completedBy: Map<string, Record<string, number>>;
  /** Problems that ended in this process. */
  ended: Set<string>;
  problemsDone: number;
  /** Problem-iterations completed by this process. */
  iterationsDone: number;
  /** Problem-iterations an earlier process completed (a resumed run's `problem.started` says how many). */
  iterationsBefore: number;
  /** Each problem's iterations counted so far: a resume announces again an iteration a stop cut off, already counted as before it. */
  counted: Map<string, Set<number>>;
  /** Problems done per iteration. */
  byIteration: Map<number, number>;
  failures: number;
  tokens: number;
  /** Truncated, empty and unusable answers, context-length errors. */
  faults: FaultCounts;
}

function tally(envelopes$: Observable<Envelope>): { tally: Tally; unsubscribe(): void } {
  const state: Tally = { completed: {}, completedBy: new Map(), ended: new Set(), problemsDone: 0, iterationsDone: 0, iterationsBefore: 0, counted: new Map(), byIteration: new Map(), failures: 0, tokens: 0, faults: createFaultCounts() };
  // Whether the problem's iteration is counted now for the first time.
  const countOnce = (problem: string, iteration: number): boolean => {
    const counted = state.counted.get(problem) ?? new Set<number>();
    state.counted.set(problem, counted);
    if (counted.has(iteration)) return false;
    counted.add(iteration);
    state.byIteration.set(iteration, (state.byIteration.get(iteration) ?? 0) + 1);
    return true;
  };
  const subscription = envelopes$.subscribe(({ message }) => {
    countFaults(state.faults, message);
    if (message.type === 'problem.started') {
      for (let iteration = 0; iteration < message.fromIteration; iteration++) if (countOnce(message.problem, iteration)) state.iterationsBefore++;
    } else if (message.type === 'problem.completed') {
      state.problemsDone++;
      state.ended.add(message.problem);
    }
    else if (message.type === 'iteration.completed') {
      if (countOnce(message.problem, message.iteration)) state.iterationsDone++;
    } else if (message.type === 'llm.failed') state.failures++;
    const paid = paidCall(message);
    if (paid === null) return;
    state.tokens += paid.call.usage.completionTokens;
    // Replies complete a role's work; an attempt asked again does not.
    if (message.type === 'output.invalid') return;
    state.completed[paid.role] = (state.completed[paid.role] ?? 0) + 1;
    const ofProblem = state.completedBy.get(message.problem) ?? {};
    state.completedBy.set(message.problem, ofProblem);
    ofProblem[paid.role] = (ofProblem[paid.role] ?? 0) + 1;
  });
  return { tally: state, unsubscribe: () => subscription.unsubscribe() };
}

/** Each role's calls over the run: what the problems that ended carried, and what the others will. */
function expectedTotals(state: Tally, expected: ProgressOptions['expectedCalls']): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const [problem, calls] of expected ?? []) {
    const ended = state.ended.has(problem) ? (state.completedBy.get(problem) ?? {}) : null;
    for (const [role, count] of Object.entries(calls)) totals[role] = (totals[role] ?? 0) + (ended === null ? count : (ended[role] ?? 0));
  }
  return totals;
}

/** The figures both displays show. */
function figures(state: Tally, options: ProgressOptions, started: number) {
  const seconds = (performance.now() - started) / 1000;
  const total = options.totalProblems * options.totalIterations;
  const done = state.iterationsBefore + state.iterationsDone;
  const share = total === 0 ? 1 : done / total;
  // At this process's pace: what an earlier process completed took none of these seconds.
  const eta = state.iterationsDone > 0 && done < total ? Math.round((seconds / state.iterationsDone) * (total - done)) : null;
  const pass1 = options.probe.pass1();
  const accuracy = pass1 && pass1.value !== null ? `Pass@1 it${pass1.iteration} ${(pass1.value * 100).toFixed(1)}%` : 'Pass@1 -';
  const causes = Object.entries(options.probe.retriesByCause?.() ?? {})
    .filter(([, n]) => n > 0)
    .map(([cause, n]) => `${cause}: ${n}`)
    .join(', ');
  const retries = `retries ${options.probe.retries()}${causes ? ` (${causes})` : ''}`;
  const streaming = options.probe.streamRate?.() ?? null;
  const rate = `${Math.round(state.tokens / Math.max(seconds, 0.001))}${streaming === null ? '' : ` (generating ~${Math.round(streaming)})`}`;
  const limited = options.probe.limits?.() ?? [];
  const replicas = options.probe.replicas?.() ?? [];
  const limits = (limited.length > 0 ? ` | limit ${limited.join(', ')}` : '') + (replicas.length > 0 ? ` | replicas ${replicas.join(', ')}` : '');
  return { seconds, total, done, share, eta, accuracy, retries, rate, limits, damaged: damagedAnswers(state.faults) };
}

/** ` | answers: truncated 2, empty 1, …` when the model's answers were damaged, else ''. */
function damagedAnswers(faults: FaultCounts): string {
  const parts = (
    [
      [faults.truncated, 'truncated'],
      [faults.filtered, 'filtered'],
      [faults.emptyAnswers, 'empty'],
      [faults.contextErrors, 'context-length'],
      [faults.parseRetries, 'asked again'],
      [faults.invalidOutputs, 'unusable'],
    ] as const
  ).flatMap(([count, label]) => (count > 0 ? [`${label} ${count}`] : []));
  return parts.length > 0 ? ` | answers: ${parts.join(', ')}` : '';
}

/** Subscribes the progress display to the bus. */
export function showProgress(envelopes$: Observable<Envelope>, options: ProgressOptions): Progress {
  return options.terminal?.isTTY ? showLive(envelopes$, options, options.terminal) : showLines(envelopes$, options);
}

function showLines(envelopes$: Observable<Envelope>, options: ProgressOptions): Progress {
  const started = performance.now();
  const { tally: state, unsubscribe } = tally(envelopes$);

  function line(): string {
    const { probe } = options;
    const f = figures(state, options, started);
    const calls = Object.entries(state.completed).map(([role, n]) => `${role} ${n}`).join(', ');
    return (
      `[${f.seconds.toFixed(1)}s] problem-iterations ${f.done}/${f.total} (${(f.share * 100).toFixed(0)}%)${f.eta === null ? '' : ` eta ${f.eta}s`} | ` +
      `problems done ${state.problemsDone}/${options.totalProblems} | in flight ${probe.inFlight()} queued ${probe.queued()} | ` +
      `${f.rate} tok/s | ${f.retries} failed ${state.failures}${f.limits}${f.damaged} | ${f.accuracy}` +
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
      unsubscribe();
      options.write(line());
    },
  };
}

function duration(seconds: number | null): string {
  if (seconds === null) return '-';
  const s = Math.round(seconds);
  return s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

const LABEL_WIDTH = 14;

function showLive(envelopes$: Observable<Envelope>, options: ProgressOptions, terminal: NodeJS.WriteStream): Progress {
  const started = performance.now();
  const { tally: state, unsubscribe } = tally(envelopes$);
  const multibar = new cliProgress.MultiBar({
    stream: terminal,
    format: ' {label} {bar} {value}/{total} {note}',
    barsize: 28,
    hideCursor: true,
    clearOnComplete: false,
    stopOnComplete: false,
    gracefulExit: false,
    emptyOnZero: true,
    linewrap: false,
    fps: 5,
  });
  const label = (text: string) => text.padEnd(LABEL_WIDTH);
  const f0 = figures(state, options, started);
  const run = multibar.create(Math.max(1, f0.total), 0, { label: label(options.simulated ? 'run (sim)' : 'run'), note: 'problem-iterations' });
  const timing = multibar.create(1, 0, { line: '' }, { format: ' {line}' });
  const phases = new Map<string, Bar>();
  const phaseBar = (role: string) => {
    let bar = phases.get(role);
    if (!bar) {
      bar = multibar.create(1, 0, { label: label(role), note: 'calls' });
      phases.set(role, bar);
    }
    return bar;
  };
  for (const role of Object.keys(expectedTotals(state, options.expectedCalls))) phaseBar(role);
  const iteration = multibar.create(Math.max(1, options.totalProblems), 0, { label: label('iteration 0'), note: 'problems' });
  const stats = multibar.create(1, 0, { line: '' }, { format: ' {line}' });

  function redraw(): void {
    const f = figures(state, options, started);
    run.update(f.done);
    timing.update(0, { line: `elapsed ${duration(f.seconds)} | eta ${duration(f.eta)} | ${f.accuracy}${options.simulated ? ' (simulated model)' : ''}` });
    const totals = expectedTotals(state, options.expectedCalls);
    for (const role of new Set([...Object.keys(totals), ...Object.keys(state.completed)])) {
      const n = state.completed[role] ?? 0;
      const bar = phaseBar(role);
      bar.setTotal(Math.max(1, totals[role] ?? n));
      bar.update(n);
    }
    // The lowest iteration that not every problem has finished.
    let current = 0;
    while (current < options.totalIterations - 1 && (state.byIteration.get(current) ?? 0) >= options.totalProblems) current++;
    iteration.update(state.byIteration.get(current) ?? 0, { label: label(`iteration ${current}`) });
    stats.update(0, {
      line: `requests: ${options.probe.inFlight()} in flight, ${options.probe.queued()} queued | ${f.rate} tok/s | ${f.retries} | errors ${state.failures}${f.limits}${f.damaged}`,
    });
  }

  redraw();
  const timer = setInterval(redraw, options.intervalMs === undefined ? 250 : Math.min(options.intervalMs, 1000));
  timer.unref();
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      redraw();
      unsubscribe();
      multibar.stop();
    },
  };
}
