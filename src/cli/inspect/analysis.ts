/**
 * The commands that read a run directory: `tmas log`, `tmas calls`,
 * `tmas show`, `tmas view` and `tmas export` (none of them writes to the run
 * directory), `tmas replay`, and `tmas repair`, which mends a damaged store.
 * Each command imports its implementation when it runs (see main.ts).
 */
import type { Command, Option } from 'commander';
import { SETTINGS } from '../../settings/configure/index.ts';
import { flagName } from '../../settings/setting.ts';
import { toOption } from '../common/setting-option.ts';
import path from 'node:path';
import { runAgentsAt } from '../../settings/files/agents-file.ts';
import { secretsOf } from '../../settings/sections/roles.settings.ts';
import { collectGarbageEagerly, EXPORT_HEAP_GROWTH, REPLAY_HEAP_GROWTH } from '../common/eager-gc.ts';
import { decimal, integer } from '../../settings/parsers.ts';
import { SCAN_LIMITS } from '../../viewer/run-folder.ts';

/** Where the commands write their lines; `stream` takes those of a whole store, and resolves once the reader can take more. */
type Io = { stdout(line: string): void; stderr(line: string): void; stream(line: string): Promise<void> | void };

/** Adds log, calls, view, replay, repair, show and export to the program, in that order (the order of `tmas --help`). */
export function defineAnalysisCommands(program: Command, io: Io): void {
  defineLog(program, io);
  defineCalls(program, io);
  defineView(program, io);
  defineReplay(program, io);
  defineRepair(program, io);
  defineShow(program, io);
  defineExport(program, io);
}

function defineLog(program: Command, io: Io): void {
  program
    .command('log')
    .description('stream the message log of a run as JSONL (for jq or pandas)')
    .argument('<dir>', 'the run directory (--output-file of the run)')
    .option('--problem <id>', 'only messages about this problem')
    .option('--iteration <t>', 'only messages of this iteration', integer(-1))
    .option('--role <role>', 'only messages to or from this role (solution, verification, …)')
    .option('--type <type>', 'only this message type, or a prefix ending in "." (e.g. bank.)')
    .exitOverride()
    .action(async (dir: string, filters: { problem?: string; iteration?: number; role?: string; type?: string }) => {
      collectGarbageEagerly();
      const { runLogCommand } = await import('./log.command.ts');
      await runLogCommand(dir, filters, io.stream);
    });
}

function defineCalls(program: Command, io: Io): void {
  program
    .command('calls')
    .description('stream the journaled LLM calls of a run as JSONL: prompt as sent, response, usage, latency, attempts')
    .argument('<dir>', 'the run directory (--output-file of the run)')
    .option('--problem <id>', 'only calls about this problem')
    .option('--iteration <t>', 'only calls of this iteration', integer(0))
    .option('--role <role>', 'only calls of this role (solution, verification, summary, …)')
    .option('--with-reasoning', "include the reasoning text of reasoning models (left out by default: it is often most of the bytes)", false)
    .exitOverride()
    .action(async (dir: string, options: { problem?: string; iteration?: number; role?: string; withReasoning: boolean }) => {
      collectGarbageEagerly();
      const { runCallsCommand } = await import('./calls.command.ts');
      await runCallsCommand(dir, options, io.stream);
    });
}

function defineView(program: Command, io: Io): void {
  program
    .command('view')
    .description('serve a read-only web viewer of runs on loopback: the runs of a folder, their curves overlaid, a sortable problem list, candidates, verifications, banks and every call')
    .argument('<dirs...>', `run directories, or folders holding runs (found up to ${SCAN_LIMITS.maxDepth} levels down, ${SCAN_LIMITS.maxRuns} at most); a run another process is writing is shown live`)
    .option('--port <n>', 'port (0: any free port)', integer(0, 65_535), 8765)
    .option('--open', 'open the page in the desktop browser', false)
    .exitOverride()
    .action(async (dirs: string[], options: { port: number; open: boolean }) => {
      const { runViewCommand, openInBrowser } = await import('./view.command.ts');
      const viewer = await runViewCommand(dirs, { port: options.port });
      io.stdout(`tmas view: ${viewer.url} (read-only; Ctrl-C to stop)`);
      if (options.open) openInBrowser(viewer.url);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      await viewer.close();
    });
}

/** The options of `tmas replay`. */
interface ReplayOptions {
  jaccardThreshold?: number;
  agents?: string;
  live: boolean;
  tokenizerPath?: string;
  /** --timeout: the idle limit of the replay's calls and of an --agents module's own machines; left out, the run's own. */
  timeout?: number;
}

function defineReplay(program: Command, io: Io): void {
  program
    .command('replay')
    .description('re-run the actors with every completion served from the journal (no network) and compare with the message log')
    .argument('<dir>', 'the run directory')
    .option('--jaccard-threshold <x>', 'replay with another bank deduplication threshold', decimal(0, 1))
    .option('--agents <file>', 'replay with a module of agent overrides (docs/extending/agents-module.md), or the run\'s own module where it lies now')
    .option('--live', 'send the calls the journal cannot answer to the endpoint instead of listing them', false)
    .option('--tokenizer-path <dir|file>', "where the run's own tokenizer lies now, when the run or the tokenizer was moved (the same tokenizer.json)")
    .addOption(replayTimeoutOption())
    .exitOverride()
    .action((dir: string, options: ReplayOptions) => replay(dir, options, io));
}

/**
 * `--timeout` as `tmas fork` takes it (the same parser, bounds and error; left out, the run's own): a machine of an
 * --agents module that never answers stopped a fork after it, and hung a replay for ever, which had no way to bound it.
 */
function replayTimeoutOption(): Option {
  const setting = SETTINGS.find((candidate) => flagName(candidate) === '--timeout');
  if (setting === undefined) throw new Error('the --timeout setting is not declared');
  const help = `${setting.help}; in a replay, it also bounds how long an --agents module's own machine may leave a request unanswered (TMAS_AGENTS)`;
  return toOption({ ...setting, help, default: undefined, defaultText: "the run's own" });
}

/** `tmas replay`: exit 0 when the replayed run's messages are those of its log, 1 when they diverge. */
async function replay(dir: string, options: ReplayOptions, io: Io): Promise<void> {
  collectGarbageEagerly(REPLAY_HEAP_GROWTH);
  // The keys a run without key flags has: a live replay sends its calls with them.
  const secrets = secretsOf({}, process.env);
  const changes = {
    ...(options.jaccardThreshold === undefined ? {} : { jaccardThreshold: options.jaccardThreshold }),
    ...(options.agents === undefined ? {} : runAgentsAt(options.agents)),
  };
  // The whole runtime: loaded only when a replay runs.
  const [{ replayRun }, { formatReplayReport }] = await Promise.all([import('../../analysis/replay.ts'), import('../../analysis/replay-report.ts')]);
  const report = await replayRun(dir, {
    changes,
    live: options.live,
    secrets,
    ...(options.tokenizerPath === undefined ? {} : { tokenizerPath: options.tokenizerPath }),
    ...(options.timeout === undefined ? {} : { timeoutSeconds: options.timeout }),
  });
  for (const line of formatReplayReport(report)) io.stdout(line);
  process.exitCode = report.identical ? 0 : 1;
}

function defineRepair(program: Command, io: Io): void {
  program
    .command('repair')
    .description("let LevelDB repair a run's damaged store (a copy of it is kept first) and report what the journal holds")
    .argument('<dir>', 'the run directory')
    .exitOverride()
    .action((dir: string) => repair(dir, io));
}

/** `tmas repair`: repairs the store and says what it holds and how to go on. */
async function repair(dir: string, io: Io): Promise<void> {
  const { repairStore } = await import('../../store/repair/repair.ts');
  const report = await repairStore(path.resolve(dir));
  io.stdout(`Repaired ${path.resolve(dir)}/store; the store as it was is kept in ${report.kept}.`);
  io.stdout(
    `It holds ${report.manifest ? 'the run manifest' : 'NO manifest'}, ${report.problems} problems, ${report.calls} journaled calls, ` +
      `${report.iterations} completed iterations and ${report.messages} logged messages.`,
  );
  if (report.unreadable.length > 0) io.stdout(`Blocks that failed their checksums were dropped, with the records they held: ${report.unreadable.join(', ')}.`);
  if (report.dropped.length > 0) io.stdout(`${report.dropped.length} records could not be read back (a text they referred to was lost, or they were not records tmas writes) and were dropped (the first: ${report.dropped[0]}).`);
  if (report.messageGaps.length > 0) {
    const lost = report.messageGaps.reduce((sum, [first, last]) => sum + last - first + 1, 0);
    const ranges = report.messageGaps.slice(0, 5).map(([first, last]) => (first === last ? `${first}` : `${first}-${last}`)).join(', ');
    io.stdout(`Its message log lost ${lost} ${lost === 1 ? 'message' : 'messages'} (${ranges}${report.messageGaps.length > 5 ? ', …' : ''}): noted as lost, so its readers read on past them; what they said (an iteration's completion among them) is in no log now, and a figure made from the log counts without it.`);
  }
  if (report.callsLost > 0) {
    io.stdout(
      `Its message log holds the replies of ${report.callsLost} ${report.callsLost === 1 ? 'call' : 'calls'} its journal lost, which no repair brings back: noted as lost, so tmas calls, export, plan, replay and fork read the run without them; a resume or a fork sends again (and pays for) those of them it needs.`,
    );
  }
  if (!report.manifest) io.stdout('Without its manifest the run cannot be resumed: start it again in a new directory.');
  else if (report.unresumable !== null) io.stdout(`A resume would refuse it: ${report.unresumable}. Restore the run directory from a copy, or start the run again in a new directory.`);
  else if (report.iterationGaps.length > 0) {
    const named = report.iterationGaps.slice(0, 5).join(', ') + (report.iterationGaps.length > 5 ? `, … (${report.iterationGaps.length} in all)` : '');
    io.stdout(
      `${report.iterationGaps.length} ${report.iterationGaps.length === 1 ? 'problem' : 'problems'} lost an iteration before its last one: ${named}. ` +
        'A resume goes on after each problem\'s last iteration and does not redo those, and the figures at them count without the problem. ' +
        `For whole figures, run it again with: tmas fork ${dir} --output-file NEW (every call its journal still holds is answered from it; only the others are sent).`,
    );
  } else io.stdout(`Continue with: tmas run --resume ${dir} (only calls the journal lost are issued again).`);
}

function defineShow(program: Command, io: Io): void {
  program
    .command('show')
    .description("print a problem's candidates, scores, summaries and both banks at the end of an iteration")
    .argument('<dir>', 'the run directory')
    .requiredOption('--problem <id>', 'the problem id')
    .option('--iteration <t>', 'the iteration (default: the last completed)', integer(0))
    .exitOverride()
    .action(async (dir: string, options: { problem: string; iteration?: number }) => {
      const { runShowCommand } = await import('./show.command.ts');
      for (const line of await runShowCommand(dir, options)) io.stdout(line);
    });
}

function defineExport(program: Command, io: Io): void {
  program
    .command('export')
    .description('export every generation of a run as RL training records (JSONL and Parquet with nested columns)')
    .argument('<dir>', 'the run directory')
    .option('--format <format>', 'the record format', 'rl')
    .option('--out <path>', 'where to write: PATH.jsonl and PATH.parquet for a PATH without an extension (default: <dir>/export-rl); a PATH ending in .jsonl or .parquet writes that file alone')
    .exitOverride()
    .action(async (dir: string, options: { format: string; out?: string }) => {
      collectGarbageEagerly(EXPORT_HEAP_GROWTH);
      const { runExportCommand } = await import('./export.command.ts');
      const result = await runExportCommand(dir, options);
      const kinds = Object.entries(result.bySource).map(([source, count]) => `${count} ${source}`).join(', ');
      io.stdout(`${result.records} records (one per generation: ${kinds}): ${[result.jsonl, result.parquet].filter((file) => file !== undefined).join(', ')}`);
    });
}
