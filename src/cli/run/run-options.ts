/**
 * The options of `tmas run` (and `tmas table1`), declared on a commander
 * command from the settings' declarations (src/settings/) and the
 * strategies' own flags.
 */
import type { Command } from 'commander';
import { SETTINGS } from '../../settings/configure/index.ts';
import { flagName } from '../../settings/setting.ts';
import { defineStrategyFlags } from '../../settings/strategy-flags.ts';
import { toOption } from '../common/setting-option.ts';

/**
 * Declares the options of `tmas run` on a command; `refused`: flags the command declares only to
 * refuse them with a message, left out of its help; `helpOf`: what a flag does in this command
 * where that is not what it does in a run.
 */
export function defineRunOptions(command: Command, refused: ReadonlySet<string> = new Set(), helpOf: Readonly<Record<string, string>> = {}): Command {
  for (const setting of SETTINGS) {
    const help = helpOf[flagName(setting)];
    const option = toOption(help === undefined ? setting : { ...setting, help });
    command.addOption(refused.has(flagName(setting)) ? option.hideHelp() : option);
  }
  defineStrategyFlags(command);
  return command;
}
