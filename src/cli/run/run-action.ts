/**
 * What `tmas run` does once its flags are parsed: prepare the run (new or
 * resumed), run it, print its table and where its outputs are, and keep the
 * live viewer up after it when `--view` asked for one. Loaded when the command
 * runs: it imports the runtime.
 */
import type { Command } from 'commander';
import { incompleteRunError } from '../../host/calls/call-failures.ts';
import { notAResultRunError, ungradedRunError } from './run-ungraded.ts';
import type { RunConfig } from '../../settings/config.ts';
import { settingsLine } from '../../settings/settings-line.ts';
import { resolveStrategy } from '../../host/strategy/plugins.ts';
import { runEvaluation, type RunOutcome } from '../../host/run/run-evaluation.ts';
import type { CallCounts } from '../../host/calls/llm-call.ts';
import { unusableOutputWarnings } from '../../observers/role-outputs.ts';
import { formatIterationTable } from '../../observers/table.ts';
import { prepareRun, type PreparedRun } from './prepare-run.ts';
import { openJournalSource, type JournalSource } from '../../host/calls/journal-source.ts';
import type { ForkedFrom } from '../../store/store.ts';
import type { Strategy } from '../../../machines/strategies/index.ts';
import type { CliIo } from '../common/cli-io.ts';
import type { RunFlags } from './run.command.ts';
import { interruptOnSignals, type Stop } from '../common/signals.ts';
import { checkListenable } from '../../kernel/listen-error.ts';

/** The warning an API key given as a flag deserves before the run starts. */
function warnBeforeStart(flags: RunFlags, io: CliIo): void {
  if (flags.apiKey !== undefined || Object.keys(flags).some((name) => name.endsWith('ApiKey'))) {
    io.stderr('tmas: warning: an API key given as a flag is visible in the process list and shell history; prefer the OPENAI_API_KEY or API_KEY environment variable.');
  }
}

/** What the run's calls came to: those issued (sent and journaled), failed for good when any did, and answered from the journal. */
export function callsLine(calls: CallCounts): string {
  const failed = calls.failed > 0 ? ` and answered, ${calls.failed} failed for good` : '';
  return `${calls.issued} calls issued${failed}, ${calls.reused} answered from the journal`;
}

/** `1 problem`, `3 problems`. */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** The final table and the counts of a finished run, on stdout, and the lines `more` adds. */
function printOutcome(outcome: RunOutcome, config: RunConfig, problemCount: number, wide: boolean, io: CliIo, more: string[]): void {
  io.stdout('');
  io.stdout(formatIterationTable(outcome.iterations, { simulated: outcome.simulated, wide }));
  io.stdout('');
  // The settings the strategy read (majority's samples, not an N it never read), as the report and the viewer show them.
  io.stdout(`${plural(problemCount, 'problem')} × ${plural(config.loop.maxIterations, 'iteration')}, ${config.loop.strategy} ${settingsLine(config, config.loop.strategy)}:`);
  io.stdout(`${callsLine(outcome.calls)}, in ${outcome.wallSeconds.toFixed(1)} s.`);
  for (const line of more) io.stdout(line);
  io.stdout(`Outputs: ${outcome.outputDir}/results.jsonl, metrics.json, store/`);
}

/** What a command that runs a prepared run adds to it (tmas fork): the run's origin and source journal, its strategy, lines after the counts. */
export interface RunExtras {
  forkedFrom?: ForkedFrom;
  source?: JournalSource | null;
  strategy?: Strategy;
  summary?: (outcome: RunOutcome) => string[];
}

/** What a run prints to: the terminal, where there is one, for its progress line. */
type RunIo = CliIo & { terminal?: NodeJS.WriteStream | undefined };

/** Runs `tmas run` with its parsed flags. */
export async function runRunCommand(flags: RunFlags, command: Command, io: RunIo): Promise<void> {
  const prepared = await prepareRun(flags, command, process.env);
  // A resumed fork still reads through to the journal of the run it came from, while that run is where it was.
  const source = prepared.forkedFrom === undefined ? null : await openJournalSource(prepared.forkedFrom, io.stderr);
  try {
    const summary = (): string[] => (source === null || source.answered === 0 ? [] : [`${source.answered} of them answered from the journal of ${source.dir}, the run this one was forked from.`]);
    await runPrepared(prepared, flags, io, { source, summary });
  } finally {
    await source?.close();
  }
}

/** Runs a prepared run (new, resumed or forked): prints its table and where its outputs are, and keeps the live viewer up after it when `--view` asked for one. */
export async function runPrepared(prepared: PreparedRun, flags: RunFlags, io: RunIo, extras: RunExtras = {}): Promise<void> {
  warnBeforeStart(flags, io);
  if (prepared.callsLost !== undefined) {
    const calls = `${prepared.callsLost} ${prepared.callsLost === 1 ? 'call' : 'calls'}`;
    io.stderr(`tmas: warning: the journal of ${prepared.config.outputs.dir} lost ${calls} (noted by tmas repair): this resume sends again, and pays for, those of them the run still needs.`);
  }
  const stop = interruptOnSignals(io, { outputDir: prepared.config.outputs.dir });
  try {
    await runUntilStopped(prepared, flags, io, extras, stop);
  } finally {
    stop.dispose();
  }
}

/** The run itself, which `stop` drains on the first Ctrl-C and aborts on the second. */
async function runUntilStopped(prepared: PreparedRun, flags: RunFlags, io: RunIo, extras: RunExtras, stop: Stop): Promise<void> {
  const { config, secrets, problems, resume } = prepared;
  const strategy = extras.strategy ?? (await resolveStrategy(config.loop));
  const viewing = flags.view === undefined ? null : await import('../inspect/view.command.ts');
  let viewPort = typeof flags.view === 'number' ? flags.view : 0;
  // A port that cannot be had is said before the run writes anything: found once the store existed, it left a run that the same command refused to start again.
  if (viewing) await checkListenable({ host: '127.0.0.1', port: viewPort, portFlag: '--view' });
  const view = viewing?.serveLiveRun({ port: viewPort, dir: config.outputs.dir, say: io.stderr, listening: (port) => (viewPort = port) });
  const fork = { ...(extras.forkedFrom ? { forkedFrom: extras.forkedFrom } : {}), source: extras.source ?? null };
  const outcome = await runEvaluation(config, secrets, problems, io, { signal: stop.signal, drain: stop.drain, onOutputProgress: stop.progressed, resume, strategy, ...fork, ...(view ? { view } : {}) });
  printOutcome(outcome, config, problems.length, flags.wide === true, io, extras.summary?.(outcome) ?? []);
  // Last, so that it does not scroll away: a role that never gave a usable output changed what the method was.
  for (const warning of unusableOutputWarnings(outcome.iterations, outcome.outputDir, config.outputs.unusableWarnShare)) io.stderr(warning);
  if (viewing) {
    // The page the user has open keeps working: the finished run is served on the same port until Ctrl-C.
    const viewer = await viewing.runViewCommand([outcome.outputDir], { port: viewPort, portFlag: viewing.VIEW_FLAG });
    io.stderr(`tmas: the run is done; still viewing it at ${viewer.url} (Ctrl-C to stop)`);
    // The first Ctrl-C (a drain: no call is in flight now) or a SIGTERM.
    await new Promise((resolve) => [stop.signal, stop.drain.signal].forEach((signal) => signal.addEventListener('abort', resolve, { once: true })));
    await viewer.close();
  }
  if (outcome.stopped.length > 0) throw incompleteRunError(outcome.stopped, outcome.outputDir);
  const ungraded = ungradedRunError(outcome.iterations, outcome.outputDir);
  if (ungraded !== null) throw ungraded;
  const hollow = await notAResultRunError(outcome.iterations, outcome.outputDir);
  if (hollow !== null) throw hollow;
}
