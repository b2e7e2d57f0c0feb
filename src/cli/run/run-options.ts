/**
 * The options of `tmas run` (and `tmas table1`), declared on a commander
 * command from the settings' declarations (src/settings/) and the
 * strategies' own flags.
 */
import type { Command } from 'commander';
import { SETTINGS } from '../../settings/configure/index.ts';
import { defineStrategyFlags } from '../../settings/strategy-flags.ts';
import { toOption } from '../common/setting-option.ts';

/** Declares the options of `tmas run` on a command. */
export function defineRunOptions(command: Command): Command {
  for (const setting of SETTINGS) command.addOption(toOption(setting));
  defineStrategyFlags(command);
  return command;
}
