/**
 * The \`tmas\` program: its commands and their options. Each command loads its
 * implementation when it runs: the runtime, the grader (mathjs) and the
 * simulator cost about 140 MB of memory and a second of start-up, which
 * \`tmas log\` or \`tmas --help\` should not pay. The options of \`run\` and
 * \`table1\` include every strategy's own flags, so they are declared from the
 * strategy registry (the machines, XState, zod: a third of a second) only
 * when one of those two commands, or its help, is about to parse.
 */
import { Command, Help } from 'commander';
import { decimal, integer } from '../settings/parsers.ts';
import { defineAnalysisCommands } from './analysis.ts';
import type { RunFlags } from './run.command.ts';
import type { Table1Flags } from './table1.command.ts';
import { collectGarbageEagerly, RUN_HEAP_GROWTH } from './eager-gc.ts';
import { interruptOnSignals } from './signals.ts';
import { UserError } from '../kernel/errors.ts';
import { VERSION } from '../kernel/version.ts';

/** Where commands write: stdout for results, stderr for everything said along the way. */
export interface CliIo {
  stdout(line: string): void;
  stderr(line: string): void;
}

/** Declares more commands on the program: those that stand above the CLI (`tmas bench`), added by the executable's entry, src/main.ts. */
export type DefineCommands = (program: Command, io: CliIo) => void;

/** Where the commands write: stdout, stderr, and the terminal for progress when there is one. */
export const io = {
  stdout: (line: string) => void process.stdout.write(`${line}\n`),
  stderr: (line: string) => void process.stderr.write(`${line}\n`),
  terminal: process.stderr.isTTY ? process.stderr : undefined,
};

/** Declares the options of `run` or `table1` on their command, once. */
type OptionsLoader = (command: Command) => Promise<void>;

/** Commands whose options are declared just before they parse, by the loader given. */
const lateOptions = new WeakMap<Command, OptionsLoader>();

/** The commands' list in `tmas --help` marks a command whose options are not declared yet as taking options, as it will. */
class LateOptionsHelp extends Help {
  override subcommandTerm(command: Command): string {
    const term = super.subcommandTerm(command);
    return lateOptions.has(command) && command.options.length === 0 ? term.replace(command.name(), `${command.name()} [options]`) : term;
  }
}

/** The program with every command declared (`run`'s and `table1`'s options only once declareLateOptions has run). */
export function createProgram(): Command {
  const program = new Command('tmas')
    .description('Test-time-scaling evaluations of language models on math benchmarks, as an actor runtime (TMAS and baselines).')
    .version(VERSION)
    .showHelpAfterError('(run with --help for the options)')
    .exitOverride();
  program.createHelp = () => Object.assign(new LateOptionsHelp(), program.configureHelp());

  const runCommand = program
    .command('run')
    .description('run an evaluation (with no --base-url, against the embedded simulated model)')
    .exitOverride();
  lateOptions.set(runCommand, async (command) => {
    const { defineRunOptions } = await import('./run.command.ts');
    defineRunOptions(command);
  });
  runCommand.action(async (flags: RunFlags, command: Command) => {
    collectGarbageEagerly(RUN_HEAP_GROWTH);
    const [{ prepareRun }, { resolveStrategy }, { runEvaluation }, { proofModeWarning }, { formatIterationTable }] = await Promise.all([
      import('./prepare-run.ts'),
      import('../host/plugins.ts'),
      import('../host/run-evaluation.ts'),
      import('./run.command.ts'),
      import('../observers/table.ts'),
    ]);
    const { config, secrets, problems, resume } = await prepareRun(flags, command, process.env);
    if (flags.apiKey !== undefined || Object.keys(flags).some((name) => name.endsWith('ApiKey'))) {
      io.stderr('tmas: warning: an API key given as a flag is visible in the process list and shell history; prefer the OPENAI_API_KEY or API_KEY environment variable.');
    }
    const warning = proofModeWarning(config, problems);
    if (warning !== null) io.stderr(warning);
    const controller = interruptOnSignals(io, { outputDir: config.outputDir });
    const strategy = await resolveStrategy(config);
    const viewing = flags.view === undefined ? null : await import('./view.command.ts');
    let viewPort = typeof flags.view === 'number' ? flags.view : 0;
    const view = viewing?.serveLiveRun({ port: viewPort, dir: config.outputDir, say: io.stderr, listening: (port) => (viewPort = port) });
    const outcome = await runEvaluation(config, secrets, problems, io, { signal: controller.signal, resume, strategy, ...(view ? { view } : {}) });
    io.stdout('');
    io.stdout(formatIterationTable(outcome.iterations, { simulated: outcome.simulated, wide: flags.wide === true }));
    io.stdout('');
    io.stdout(`${problems.length} problems, ${config.maxIterations} iterations, N=${config.nCandidates}, M=${config.nVerifications}:`);
    io.stdout(`${outcome.calls.issued} calls issued, ${outcome.calls.reused} answered from the journal, in ${outcome.wallSeconds.toFixed(1)} s.`);
    io.stdout(`Outputs: ${outcome.outputDir}/results.jsonl, metrics.json, store/`);
    if (viewing) {
      // The page the user has open keeps working: the finished run is served on the same port until Ctrl-C.
      const viewer = await viewing.runViewCommand([outcome.outputDir], { port: viewPort });
      io.stderr(`tmas: the run is done; still viewing it at ${viewer.url} (Ctrl-C to stop)`);
      await new Promise((resolve) => controller.signal.addEventListener('abort', resolve, { once: true }));
      await viewer.close();
    }
    if (outcome.stopped.length > 0) {
      const { incompleteRunError } = await import('../host/call-failures.ts');
      throw incompleteRunError(outcome.stopped, outcome.outputDir);
    }
  });

  const table1Command = program
    .command('table1')
    .description("TMAS's Table 1: run several strategies with the paper's protocol (N=8, M=8, T=20, MV@64, 4 judge passes) into DIR/<strategy>, then write DIR/table1.md and DIR/report.html")
    .exitOverride();
  lateOptions.set(table1Command, async (command) => {
    const [{ defineRunOptions }, { TABLE1_STRATEGIES }] = await Promise.all([import('./run.command.ts'), import('./table1.command.ts')]);
    defineRunOptions(command.option('--strategies <list>', 'comma-separated strategies to compare', TABLE1_STRATEGIES.join(',')));
  });
  table1Command.action(async (flags: Table1Flags, command: Command) => {
    collectGarbageEagerly(RUN_HEAP_GROWTH);
    const { runTable1Command } = await import('./table1.command.ts');
    const controller = interruptOnSignals(io);
    await runTable1Command(flags, command, io, controller.signal);
  });

  program
    .command('sim-server')
    .description('serve the simulated model on its own (an OpenAI-compatible HTTP server; not a real LLM)')
    .requiredOption('--problems <file>', 'the problems whose reference answers it knows (JSONL or CSV)')
    .option('--port <n>', 'port (0: any free port)', integer(0, 65_535), 8000)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--seed <n>', 'seed of its answers', integer(0), 0)
    .option('--latency-median-ms <ms>', 'median latency (0: none)', decimal(0, 600_000), 0)
    .option('--latency-p99-ms <ms>', '99th percentile latency', decimal(0, 600_000), 0)
    .option('--output-tokens <n>', 'approximate tokens of a solution', integer(1), 250)
    .option('--faults <spec>', 'fault injection rates, e.g. 429=0.05,503=0.02,reset=0.02,hang=0.01,malformed=0.02,length=0.02,empty=0.01')
    .option('--reasoning [dialect]', 'also send reasoning, as reasoning models do: reasoning_content (the default), reasoning, or think-tags (inline <think>…</think>)', false)
    .option('--model <id>', 'a model it serves (repeat for several); a request for another gets vLLM\'s 404 (default: tmas-sim, and any name accepted)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--stream-tokens-per-second <n>', 'pace of streamed replies per stream (0: as fast as possible)', decimal(0, 1_000_000), 0)
    .option('--stream-chunk-tokens <n>', 'tokens per streamed chunk', integer(1, 100_000), 8)
    .option('--openai-reasoning', "refuse max_tokens and sampling fields with a 400, as OpenAI's reasoning models do", false)
    .option('--request-log <file>', 'append one JSONL line per request')
    .option('--metrics <which>', "what GET /metrics exposes: vllm (vLLM's gauges, counters and histograms), gauges (only the request and KV-cache gauges) or none (a 404, as a server without Prometheus metrics)", 'vllm')
    .option('--no-continuous-usage', 'with --capacity: ignore stream_options.continuous_usage_stats (usage only at the end of a stream), as TGI, llama.cpp and hosted APIs do')
    .option('--capacity', 'model one GPU server under load (continuous batching, KV cache, prefill, prefix caching): replies take the time the load gives them, report drawn output lengths, and /metrics and /sim/stats report it; replaces --latency-* and --stream-tokens-per-second', false)
    .option('--decode-tokens-per-second <n>', 'with --capacity: decode throughput D shared by all sequences (default 8000)', integer(1))
    .option('--sequence-tokens-per-second <n>', 'with --capacity: decode ceiling c of one sequence (default 100)', integer(1))
    .option('--kv-tokens <n>', 'with --capacity: KV cache capacity K in tokens, prompts plus generated (default 2000000)', integer(1))
    .option('--prefill-tokens-per-second <n>', 'with --capacity: prefill throughput P (default 50000)', integer(1))
    .option('--output-tokens-median <n>', 'with --capacity: median output length drawn per request (default 12000)', integer(1))
    .option('--output-tokens-p99 <n>', 'with --capacity: 99th percentile output length (default 60000)', integer(1))
    .option('--output-tokens-problem-spread <s>', "with --capacity: how much lengths depend on the problem: a problem's calls share a factor exp(s × z), z drawn per problem (default 0: independent)", decimal(0, 3))
    .option('--text-chars-per-token <x>', "with --capacity: pad each reply's reasoning to x characters per drawn output token, as a thinking model's text grows with its tokens (default 0: the answer's text only)", decimal(0, 100))
    .option('--time-scale <k>', 'with --capacity: simulated seconds per real second (default 1; 1000 runs a day in under 2 minutes)', decimal(0.001, 1_000_000))
    .exitOverride()
    .action(async (flags) => {
      const { runSimServerCommand } = await import('./sim-server.command.ts');
      const server = await runSimServerCommand({ ...flags, latencyMedianMs: flags.latencyMedianMs, latencyP99Ms: Math.max(flags.latencyP99Ms, flags.latencyMedianMs) }, io);
      await new Promise<void>((resolve) => {
        const stop = () => void server.close().then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });

  program
    .command('prompts')
    .description("print the built-in user-message template (Jinja) of each role of a strategy, with its variables: where a --prompt ROLE=FILE starts")
    .option('--strategy <name>', 'the strategy whose roles to print', 'tmas')
    .option('--role <role>', 'only this role (its section, saved as a file, renders the built-in prompt)')
    .exitOverride()
    .action(async (flags: { strategy: string; role?: string }) => {
      const { runPromptsCommand } = await import('./prompts.command.ts');
      runPromptsCommand(flags, io);
    });

  program
    .command('grade')
    .description('grade answers: --gold G --pred P, or a JSONL file of {gold, pred} lines')
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
      const { runGradeCommand } = await import('./grade.command.ts');
      process.exitCode = await runGradeCommand({ ...flags, units: flags.units }, io);
    });

  program
    .command('report')
    .description('write one self-contained HTML report (or Markdown) comparing the runs in the given output directories')
    .argument('<dirs...>', 'run output directories (each holding metrics.json)')
    .option('--out <file>', 'where to write the report (default: report.html; Markdown goes to stdout unless given)')
    .option('--format <format>', 'html or md', 'html')
    .exitOverride()
    .action(async (dirs: string[], flags: { out?: string; format: string }) => {
      const { runReportCommand } = await import('./report.command.ts');
      await runReportCommand(dirs, flags, io);
    });

  defineAnalysisCommands(program, io);
  return program;
}

/**
 * Declares the late options of the command `argv` runs or asks help about
 * (`tmas run …`, `tmas help run`): its first word that is not a flag, since
 * the program's own options (--help, --version) take no value.
 */
export async function declareLateOptions(program: Command, argv: string[]): Promise<void> {
  const words = argv.filter((word) => !word.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  const command = program.commands.find((candidate) => candidate.name() === name);
  const declare = command === undefined ? undefined : lateOptions.get(command);
  if (command === undefined || declare === undefined) return;
  lateOptions.delete(command);
  await declare(command);
}

/** Declares the late options of every command (for the generated reference). */
export async function declareAllLateOptions(program: Command): Promise<void> {
  for (const command of program.commands) await declareLateOptions(program, [command.name()]);
}

