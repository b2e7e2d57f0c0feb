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

/** Declares the options of `tmas run` on a command; `refused`: flags the command declares only to refuse them with a message, left out of its help. */
export function defineRunOptions(command: Command, refused: ReadonlySet<string> = new Set()): Command {
  for (const setting of SETTINGS) {
    const option = toOption(setting);
    command.addOption(refused.has(flagName(setting)) ? option.hideHelp() : option);
  }
  defineStrategyFlags(command);
  return command;
}
