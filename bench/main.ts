/**
 * `npm run bench`: the benchmark suite, a program of its own. The bench stands
 * above the CLI (its benchmarks run tmas and its commands), and no product
 * code imports it: `tmas` itself has no bench command. package.json starts
 * this file through tsx with V8's young generation capped as the bin caps it
 * for runs (`--max-semi-space-size=4`), since the benchmarks run tmas in this
 * process. The benchmarks load only when they run, so `--help` is quick.
 */
import { Command, CommanderError } from 'commander';
import { io } from '../src/cli/program.ts';
import { isUserError } from '../src/kernel/errors.ts';
import { BENCHMARK_NAMES, checkBenchmarkNames } from './benchmark-names.ts';

/** The bench's options, parsed from `argv` (without the node and script paths); runs the chosen benchmarks and returns the exit code. */
async function benchMain(argv: string[]): Promise<number> {
  const program = new Command('npm run bench --')
    .description('run the benchmark suite against the simulated model (as a separate process); prints a table, writes it as JSON under the temp directory and merges its rows into bench/results.json')
    .option('--quick', 'smaller sizes, for development', false)
    .option('--full', "the issue's full sizes even where they exceed the 10-minute budget (memory: 100 problems)", false)
    .option('--only <names>', `comma-separated: ${BENCHMARK_NAMES.join(',')}`, '')
    .option('--keep', 'keep the run directories', false)
    .exitOverride()
    .action(async (flags: { quick: boolean; full: boolean; only: string; keep: boolean }) => {
      const only = flags.only.split(',').filter((name) => name !== '');
      checkBenchmarkNames(only);
      const { runBenchmarks } = await import('./runner.ts');
      await runBenchmarks({ quick: flags.quick, full: flags.full, keep: flags.keep, only }, io);
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // Help exits 0; a flag error has already been printed by commander.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (isUserError(error)) {
      io.stderr(`bench: ${error.message} [${error.code}]`);
      return 2;
    }
    throw error;
  }
}

// Exit explicitly, as tmas does: a stray handle of a benchmark's run must not keep the suite alive.
process.exit(await benchMain(process.argv.slice(2)));
