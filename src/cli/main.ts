/**
 * The `tmas` command line. Each subcommand parses its flags, validates
 * everything it can before touching the disk, and hands over to the runtime.
 * A user mistake prints one paragraph and exits 2; anything else is a bug and
 * prints its stack. The commands themselves are in program.ts.
 */
import { CommanderError } from 'commander';
import { kebabCaseFlags } from '../settings/parsers.ts';
import { createProgram, declareLateOptions, io as processIo, withoutPasswords, type ProgramIo } from './program.ts';
import { interruptedBy } from './common/signals.ts';
import { warnRepeatedFlags } from './common/repeated-flags.ts';
import { isUserError, TmasError } from '../kernel/errors.ts';
import { describeNonError, isErrorSafely, thrownText } from '../kernel/thrown-text.ts';

/** An internal error's stack, or its text where its stack cannot be read. */
function stackText(error: Error): string {
  try {
    return typeof error.stack === 'string' ? error.stack : thrownText(error);
  } catch {
    return thrownText(error);
  }
}

/**
 * The line and exit code of a thrown value that is not an Error (a library's or a module's string, number or object):
 * what it is and holds, bounded. Wrapped in an Error here, it printed as `Error: 42` (a string or a number?), `Error:
 * undefined`, an object's keys without their values, and a stack of this file, where it was caught, not thrown.
 */
function nonErrorThrown(thrown: unknown, io: ProgramIo): number {
  const what = `a value that is not an Error was thrown, ${describeNonError(thrown)} (it carries no stack trace)`;
  const stoppedBy = interruptedBy();
  if (stoppedBy !== null) {
    io.stderr(`tmas: [TMAS_INTERRUPTED] stopped by ${stoppedBy}: ${what}. The run is resumable with --resume.`);
    return 130;
  }
  io.stderr(`tmas: internal error (please report it): ${what}`);
  return 1;
}

/**
 * Runs the CLI on `argv` (without the node and script paths), writing to `out`, and returns the exit code;
 * src/bin.mjs exits with it. It may run again in the same process (the tests run commands so): the exit
 * code a command sets (replay's, grade's) is this call's, and the caller's own is left as it was.
 */
export async function main(argv: string[], out: ProgramIo = processIo): Promise<number> {
  const callersExitCode = process.exitCode;
  process.exitCode = undefined;
  try {
    return await exitCodeOf(argv, withoutPasswords(out));
  } finally {
    process.exitCode = callersExitCode;
  }
}

/** The exit code of the command `argv` names: its own, or the one its error stands for. */
async function exitCodeOf(argv: string[], io: ProgramIo): Promise<number> {
  const program = createProgram(io);
  try {
    await declareLateOptions(program, argv);
    warnRepeatedFlags(program, io.stderr);
    await program.parseAsync(kebabCaseFlags(argv), { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (thrown) {
    // Whatever reached here is read once, safely: a value from outside (a Proxy whose traps throw) must not crash the report of it.
    if (!isErrorSafely(thrown)) return nonErrorThrown(thrown, io);
    const error = thrown;
    if (error instanceof CommanderError) {
      // Help and version exit 0; a flag error has already been printed by commander.
      return error.exitCode === 0 ? 0 : 2;
    }
    // Every message names its code: docs/reference/errors.md says what each means.
    if (isUserError(error)) {
      io.stderr(`tmas: ${error.message} [${error.code}]`);
      // A run that ended with failed calls, or a run, table or report whose figures are not a result, did run: 3 tells it from a mistake that stopped it before it started.
      return error.code === 'TMAS_RUN_INCOMPLETE' || error.code === 'TMAS_RUN_UNGRADED' || error.code === 'TMAS_TABLE_UNGRADED' || error.code === 'TMAS_REPORT_UNGRADED' ? 3 : 2;
    }
    if (error instanceof TmasError && error.code === 'TMAS_INTERRUPTED') {
      io.stderr(`tmas: ${error.message} [${error.code}]`);
      return 130;
    }
    if (interruptedBy() !== null) {
      // Whatever failed while stopping (a store close that timed out, an aborted stream) is part of the stop, not a bug.
      io.stderr(`tmas: [TMAS_INTERRUPTED] stopped by ${interruptedBy()}: ${thrownText(error)}. The run is resumable with --resume.`);
      return 130;
    }
    if (error instanceof TmasError) {
      io.stderr(`tmas: internal error (please report it) [${error.code}]: ${error.stack ?? error.message}`);
      return 1;
    }
    io.stderr(`tmas: internal error (please report it): ${stackText(error)}`);
    return 1;
  }
}
