/**
 * `tmas bench`: declared by the bench itself, which stands above the CLI (its
 * benchmarks run `tmas` and its commands), and added to the program by the
 * executable's entry (src/main.ts), so the CLI never imports the bench. The
 * benchmarks load only when the command runs.
 */
import type { Command } from 'commander';
import type { CliIo } from '../src/cli/common/cli-io.ts';
import { BENCHMARK_NAMES } from './benchmark-names.ts';

/** Adds `tmas bench` to the program. */
export function defineBenchCommand(program: Command, io: CliIo): void {
  program
    .command('bench')
    .description('run the benchmark suite against the simulated model (as a separate process); prints a table, writes it as JSON under the temp directory and merges its rows into bench/results.json')
    .option('--quick', 'smaller sizes, for development', false)
    .option('--full', "the issue's full sizes even where they exceed the 10-minute budget (memory: 100 problems)", false)
    .option('--only <names>', `comma-separated: ${BENCHMARK_NAMES.join(',')}`, '')
    .option('--keep', 'keep the run directories', false)
    .exitOverride()
    .action(async (flags: { quick: boolean; full: boolean; only: string; keep: boolean }) => {
      const { runBenchmarks } = await import('./runner.ts');
      await runBenchmarks({ quick: flags.quick, full: flags.full, keep: flags.keep, only: flags.only.split(',').filter((name) => name !== '') }, io);
    });
}
