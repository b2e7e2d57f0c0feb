/**
 * The `tmas` executable's program (src/bin.mjs runs it): the CLI's commands
 * (src/cli/main.ts) and `tmas bench`, which stands above the CLI since its
 * benchmarks run tmas (bench/bench.command.ts). Only this entry imports
 * both, so no import runs from the CLI up to the bench.
 */
import { defineBenchCommand } from '../bench/bench.command.ts';
import { main } from './cli/main.ts';

// A reader that closed the pipe (`tmas log DIR | head`) has all it wanted: stop quietly, with no stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// Exit explicitly: every resource is closed by now, and a stray handle must not keep a finished run alive.
process.exit(await main(process.argv.slice(2), [defineBenchCommand]));
