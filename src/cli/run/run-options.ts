/**
 * The options of `tmas run` (and `tmas table1`), declared on a commander
 * command from the settings' declarations (src/settings/) and the
 * strategies' own flags.
 */
import type { Command } from 'commander';
import { SETTINGS } from '../../settings/configure/index.ts';
import { flagName, type Setting } from '../../settings/setting.ts';
import { defineStrategyFlags } from '../../settings/strategy-flags.ts';
import { requiredNote } from '../common/required-note.ts';
import { toOption } from '../common/setting-option.ts';

/**
 * What a flag does in another command than a run: its help there, or, for a flag that command cannot run
 * without (a run's default is then no default), its help and `required`.
 */
export type FlagHelp = string | { help: string; required: true };

/** A run's setting as a command that says `help` of it declares it. */
function declaredAs(setting: Setting, help: FlagHelp | undefined): Setting {
  if (help === undefined) return setting;
  if (typeof help === 'string') return { ...setting, help };
  return { ...setting, help: requiredNote(help.help), default: undefined, defaultText: undefined, demo: undefined };
}

/**
 * Declares the options of `tmas run` on a command; `refused`: flags the command declares only to
 * refuse them with a message, left out of its help; `helpOf`: what a flag does in this command
 * where that is not what it does in a run.
 */
export function defineRunOptions(command: Command, refused: ReadonlySet<string> = new Set(), helpOf: Readonly<Record<string, FlagHelp>> = {}): Command {
  for (const setting of SETTINGS) {
    const option = toOption(declaredAs(setting, helpOf[flagName(setting)]));
    command.addOption(refused.has(flagName(setting)) ? option.hideHelp() : option);
  }
  defineStrategyFlags(command);
  return command;
}
