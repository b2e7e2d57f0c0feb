/**
 * The `tmas` program: its commands and their options. Each command loads its
 * implementation when it runs: the runtime, the grader (mathjs) and the
 * simulator cost memory and start-up time that `tmas log` or `tmas --help`
 * should not pay. The options of `run`, `fork`,
 * `table1`, `plan` and `sim-server` are declared late (late-options.ts).
 */
import { once } from 'node:events';
import { Command, Option } from 'commander';
import { defineAnalysisCommands } from './inspect/analysis.ts';
import { TmasHelp, lateOptions, type OptionsLoader } from './late-options.ts';
import type { RunFlags } from './run/run.command.ts';
import type { FlagHelp } from './run/run-options.ts';
import type { Table1Flags } from './run/table1.command.ts';
import type { PlanFlags } from './tools/plan.command.ts';
import type { Flags } from '../settings/setting.ts';
import type { CliIo } from './common/cli-io.ts';
import { collectGarbageEagerly, RUN_HEAP_GROWTH } from './common/eager-gc.ts';
import { interruptOnSignals } from './common/signals.ts';
import { SuggestingCommand } from './common/flag-suggestions.ts';
import { UserError } from '../kernel/errors.ts';
import { DEFAULT_UNUSABLE_SHARE } from '../observers/role-outputs.ts';
import { decimal } from '../settings/parsers.ts';
import { VERSION } from '../kernel/version.ts';
import { printableLine } from './printable-line.ts';

/** Where the program writes: what every command writes (cli-io.ts), the terminal for progress when there is one, and the lines of a long stream. */
export interface ProgramIo extends CliIo {
  terminal?: NodeJS.WriteStream | undefined;
  /** A line of `tmas log` or `tmas calls`, which stream a whole store: resolves once the reader can take more. */
  stream(line: string): Promise<void> | void;
}

/** Writes a line to stdout, waiting when the pipe is full (e.g. `| head` or a slow `jq`). */
async function writeLine(line: string): Promise<void> {
  if (!process.stdout.write(`${line}\n`)) await once(process.stdout, 'drain');
}

/** The process's own output: what the executable writes to. */
export const io: ProgramIo = {
  stdout: (line: string) => void process.stdout.write(`${line}\n`),
  // Freed of URL passwords here too: bench/ writes here without main.ts, which frees the lines of any output (withoutPasswords).
  stderr: (line: string) => void process.stderr.write(`${printableLine(withoutUrlPasswords(line))}\n`),
  terminal: process.stderr.isTTY ? process.stderr : undefined,
  stream: writeLine,
};

/**
 * `out` with its stderr lines freed of URL passwords, as the process's own are: what tmas says, wherever it
 * says it. A base URL may carry a password (http://user:secret@host/v1, for a proxy's basic auth): messages
 * name the URL, never it. Their control characters are written as escapes (printable-line.ts).
 */
export function withoutPasswords(out: ProgramIo): ProgramIo {
  return { ...out, stderr: (line) => out.stderr(printableLine(withoutUrlPasswords(line))) };
}

/** `text` with the password of every URL in it (`scheme://user:password@`) replaced by `***`. */
export function withoutUrlPasswords(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*):[^\s/@]*@/gi, '$1:***@');
}

/**
 * A command whose options are declared late (late-options.ts): `define` adds
 * them once the command is named, `act` loads its work and runs it.
 */
function defineLateCommand<F>(program: Command, name: string, description: string, define: OptionsLoader, act: (flags: F, parsed: Command) => Promise<void>): void {
  const command = program.command(name).description(description).exitOverride();
  lateOptions.set(command, define);
  command.action(act);
}

/** `tmas run`: its options from the settings (declared late), its work in run-action.ts. */
function defineRunCommand(program: Command, io: ProgramIo): void {
  defineLateCommand<RunFlags>(
    program,
    'run',
    'run an evaluation (with no --base-url, against the embedded simulated model)',
    async (late) => {
      (await import('./run/run.command.ts')).defineRunOptions(late);
    },
    async (flags, parsed) => {
      collectGarbageEagerly(RUN_HEAP_GROWTH);
      const { runRunCommand } = await import('./run/run-action.ts');
      await runRunCommand(flags, parsed, io);
    },
  );
}

/** `tmas fork DIR`: the options of run (the settings to change) as a fork takes them, declared late as run's; its work in fork.command.ts. */
function defineForkCommand(program: Command, io: ProgramIo): void {
  const command = program
    .command('fork')
    .description(
      "an ablation of a run: a new run (--output-file NEW) of DIR's problems and settings with the settings given changed (--agents, --prompt, N, a model, …); " +
        "calls whose requests are the same as in DIR's journal are answered from it, the others are sent; DIR is never written. A setting left out keeps DIR's value",
    )
    .argument('<dir>', 'the run to fork (its output directory); only read')
    .exitOverride();
  lateOptions.set(command, async (late) => {
    (await import('./run/fork-options.ts')).defineForkOptions(late);
  });
  command.action(async (dir: string, flags: RunFlags, parsed: Command) => {
    collectGarbageEagerly(RUN_HEAP_GROWTH);
    const { runForkCommand } = await import('./run/fork.command.ts');
    await runForkCommand(dir, flags, parsed, io);
  });
}

/** `tmas plan`: the options of run that say what the run is, plus the servers and lengths (declared late, as run's). */
function definePlanCommand(program: Command, io: ProgramIo): void {
  defineLateCommand<PlanFlags>(
    program,
    'plan',
    "forecast a run before it starts: calls by role, tokens, GPU-hours (or cost) and makespan on a capacity model of the servers; --check DIR sets a finished run beside its forecast; --from DIR replays a finished run under other servers, concurrency or schedule",
    async (late) => {
      (await import('./tools/plan.command.ts')).definePlanOptions(late);
    },
    async (flags, parsed) => {
      const { runPlanCommand } = await import('./tools/plan.command.ts');
      await runPlanCommand(flags, parsed, io);
    },
  );
}

/** What these flags do in `tmas table1`, where a method whose directory holds a run is resumed by the same command. */
const TABLE1_HELP: Readonly<Record<string, FlagHelp>> = {
  '--output-file': {
    help: "the table's folder: each method runs in DIR/<strategy>, table1.md and report.html are written in DIR; the same command again goes on with the runs there",
    required: true,
  },
  '--force':
    "accept settings that change the calls of a method whose directory already holds a run (the changed calls are issued anew); on new runs: start them even when nothing can grade them (proof mode on problems with short answers and no reference solution; --no-proof on problems without answers)",
  '--max-iterations': 'iterations per problem, T (for a method whose directory already holds a run: the total target, not below the iterations done)',
};

/** `tmas table1`: the options of run, plus the strategies to compare. */
function defineTable1Command(program: Command, io: ProgramIo): void {
  defineLateCommand<Table1Flags>(
    program,
    'table1',
    "TMAS's Table 1: run several strategies at once through one gateway, with the paper's setup (N=8, M=8, T=20, MV@64, 4 judge passes; the demo's sizes with --demo), into DIR/<strategy>, then write DIR/table1.md and DIR/report.html",
    async (late) => {
      const [{ defineRunOptions }, { TABLE1_STRATEGIES }] = await Promise.all([import('./run/run.command.ts'), import('./run/table1.command.ts')]);
      late.option('--strategies <list>', 'comma-separated strategies to compare', TABLE1_STRATEGIES.join(','));
      late.addOption(
        new Option(
          '--budgets <which>',
          "shared: every method gets the same completion limit (--completion-max-tokens, else what the window leaves); upstream: each method its upstream budget where it has one (rse 38912), as tmas run gives it",
        )
          .choices(['shared', 'upstream'])
          .default('shared'),
      );
      // A table resumes by the same command, and names its methods with --strategies, and tmas view DIR watches it: --resume, --strategy and --view are declared so that their refusals say so.
      defineRunOptions(late, new Set(['--resume', '--strategy', '--view']), TABLE1_HELP);
    },
    async (flags, parsed) => {
      collectGarbageEagerly(RUN_HEAP_GROWTH);
      const { runTable1Command } = await import('./run/table1.command.ts');
      const stop = interruptOnSignals(io);
      try {
        await runTable1Command(flags, parsed, io, stop.signal, { onOutputProgress: stop.progressed, drain: stop.drain });
      } finally {
        stop.dispose();
      }
    },
  );
}

/** `tmas sim-server`: its options from its settings (declared late, as run's), served until Ctrl-C. */
function defineSimServerCommand(program: Command, io: ProgramIo): void {
  defineLateCommand<Flags>(
    program,
    'sim-server',
    'serve the simulated model on its own (an OpenAI-compatible HTTP server; not a real LLM)',
    async (late) => {
      (await import('./tools/sim-server.options.ts')).defineSimServerOptions(late);
    },
    async (flags) => {
      const { serveSimServer } = await import('./tools/sim-server.command.ts');
      await serveSimServer(flags, io);
    },
  );
}

/** `tmas grade`: one pair, or a file of pairs. */
function defineGradeCommand(program: Command, io: ProgramIo): void {
  program
    .command('prompts')
    .description("print the built-in user-message template (Jinja) of each role of a strategy, with its variables: where a --prompt ROLE=FILE starts")
    .option('--strategy <name>', 'the strategy whose roles to print', 'tmas')
    .option('--role <role>', 'only this role (its section, saved as a file, renders the built-in prompt)')
    .exitOverride()
    .action(async (flags: { strategy: string; role?: string }) => {
      const { runPromptsCommand } = await import('./tools/prompts.command.ts');
      runPromptsCommand(flags, io);
    });

  program
    .command('grade')
    .description(
      'grade answers: --gold G --pred P prints equal, not equal or unsure and exits 0, 1 or 2 (2 is also a usage error); ' +
        '--jsonl FILE grades its {gold, pred} lines, one JSON line each with its verdict (equal, different or unsure), and exits 0',
    )
    .option('--gold <answer>', 'the reference answer')
    .option('--pred <answer>', 'the predicted answer (or a whole response: its last \\boxed{} is used)')
    .option('--jsonl <file>', 'grade every {gold, pred} line of a file; prints agreement when lines carry `equal`')
    .option('--units <policy>', 'ignore or strict: whether "5 cm" equals "5"', 'ignore')
    .exitOverride()
    .action(async (flags: { gold?: string; pred?: string; jsonl?: string; units: string }) => {
      if (flags.units !== 'ignore' && flags.units !== 'strict') throw new UserError('TMAS_USAGE', `--units must be ignore or strict, got ${flags.units}.`);
      if (flags.jsonl === undefined && (flags.gold === undefined || flags.pred === undefined)) {
        throw new UserError('TMAS_USAGE', 'tmas grade needs --gold and --pred, or --jsonl FILE.');
      }
      const { runGradeCommand } = await import('./tools/grade.command.ts');
      process.exitCode = await runGradeCommand({ ...flags, units: flags.units }, io);
    });
}

/** `tmas report`: one HTML (or Markdown) report of several runs. */
function defineReportCommand(program: Command, io: ProgramIo): void {
  program
    .command('report')
    .description(
      'write one self-contained HTML report (or Markdown) comparing the runs in the given output directories; runs that do not compare (graded otherwise, by another judge, over other problems or T, with other models) are grouped apart, ' +
        'and a run is given its paired difference (from TMAS, or from the run it was forked from) only where both were graded alike over the same problems (a fork that changes N, a model or T keeps it: that is its ablation): the report says at its top which runs it did not pair, and why',
    )
    .argument('<dirs...>', 'run output directories (each holding metrics.json), or folders of runs (a tmas table1 output): the finished runs under them')
    .option('--out <file>', 'where to write the report (default: report.html; Markdown goes to stdout unless given)')
    .option('--unusable-warn-share <share>', "mark ⚠ a run in which more than this share of a role's outputs in an iteration could not be used", decimal(0, 1), DEFAULT_UNUSABLE_SHARE)
    .option('--format <format>', 'html or md (default: md for an --out ending in .md, else html)')
    .exitOverride()
    .action(async (dirs: string[], flags: { out?: string; format?: string; unusableWarnShare: number }) => {
      const [{ runReportCommand }, { notAResultReportError }] = await Promise.all([import('./inspect/report.command.ts'), import('./run/report-not-a-result.ts')]);
      // Written, the report ends at 3 when a run in it is not a result, as tmas run and tmas table1 do for that run.
      const ended = (runs: Parameters<typeof notAResultReportError>[0], file: string | null) => {
        const error = notAResultReportError(runs, file);
        if (error !== null) throw error;
      };
      await runReportCommand(dirs, flags, io, { unusableShare: flags.unusableWarnShare }, ended);
    });
}

/**
 * An error of commander's parser (an unknown option or command, a missing or
 * invalid argument) as tmas prints its own usage errors: `tmas: <what> [TMAS_USAGE]`.
 */
export function usageError(message: string): string {
  return `tmas: ${withoutUrlPasswords(message.replace(/^error: /, '').trimEnd())} [TMAS_USAGE]\n`;
}

/** The program with every command declared (`run`'s and `table1`'s options only once declareLateOptions has run), writing to `out`. */
export function createProgram(out: ProgramIo = io): Command {
  // Its commands are made by it (createCommand): each suggests the flags that hold the words of an unknown one.
  const program = new SuggestingCommand('tmas')
    .description('Test-time-scaling evaluations of language models on math benchmarks, as an actor runtime (TMAS and baselines).')
    .version(VERSION)
    // Set before the commands are declared: each command takes it over. Help and version go where the commands write;
    // a flag commander refuses reads as ours do.
    .configureOutput({
      writeOut: (text) => out.stdout(text.replace(/\n$/, '')),
      writeErr: (text) => out.stderr(text.replace(/\n$/, '')),
      outputError: (message, write) => write(usageError(message)),
    })
    .showHelpAfterError('(run with --help for the options)')
    .exitOverride();
  defineRunCommand(program, out);
  defineForkCommand(program, out);
  defineTable1Command(program, out);
  definePlanCommand(program, out);
  defineSimServerCommand(program, out);
  defineGradeCommand(program, out);
  defineReportCommand(program, out);
  defineAnalysisCommands(program, out);
  // Every command's help is ours, not only the program's list of commands: a command's required options say so.
  for (const command of [program, ...program.commands]) command.createHelp = () => Object.assign(new TmasHelp(), command.configureHelp());
  return program;
}

export { declareAllLateOptions, declareLateOptions } from './late-options.ts';
