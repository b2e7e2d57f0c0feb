/**
 * The help of every tmas command: commander's, with what a reader needs that
 * commander leaves out. A command whose options are declared late is listed as
 * taking options; an option the command cannot run without says "(required)",
 * since commander's help shows it like any other and the first a reader hears
 * of it is the error.
 */
import { Help, type Command, type Option } from 'commander';
import { lateOptions } from '../late-options.ts';

/** Marks a required option whose description does not already say it is. */
export function requiredNote(description: string): string {
  return /\brequired\b/.test(description) ? description : `${description} (required)`;
}

export class TmasHelp extends Help {
  /** The commands' list in `tmas --help` marks a command whose options are not declared yet as taking options, as it will. */
  override subcommandTerm(command: Command): string {
    const term = super.subcommandTerm(command);
    return lateOptions.has(command) && command.options.length === 0 ? term.replace(command.name(), `${command.name()} [options]`) : term;
  }

  override optionDescription(option: Option): string {
    const description = super.optionDescription(option);
    return option.mandatory ? requiredNote(description) : description;
  }
}
