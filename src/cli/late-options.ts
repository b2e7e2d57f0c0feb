/**
 * Options declared just before a command parses. The options of `run` and
 * `table1` include every strategy's own flags, so they are declared from the
 * strategy registry (the machines, XState, zod: a third of a second) only
 * when one of those two commands, or its help, is about to parse.
 */
import { Help, type Command, type Option } from 'commander';
import { requiredNote } from './common/required-note.ts';

/** Declares the options of a late command (`run`, `plan`, `table1`, `sim-server`) on it, once. */
export type OptionsLoader = (command: Command) => Promise<void>;

/** Commands whose options are declared just before they parse, by the loader given. */
export const lateOptions = new WeakMap<Command, OptionsLoader>();

/**
 * The help of every tmas command: commander's, with a command whose options are not declared yet listed as taking
 * options, as it will, and an option the command cannot run without marked "(required)".
 */
export class TmasHelp extends Help {
  override subcommandTerm(command: Command): string {
    const term = super.subcommandTerm(command);
    return lateOptions.has(command) && command.options.length === 0 ? term.replace(command.name(), `${command.name()} [options]`) : term;
  }

  override optionDescription(option: Option): string {
    const description = super.optionDescription(option);
    return option.mandatory ? requiredNote(description) : description;
  }
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

