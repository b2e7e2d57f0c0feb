/** The options of `tmas sim-server`, declared on its command from the settings' declarations (src/settings/sections/sim-server.settings.ts). */
import type { Command } from 'commander';
import { SIM_SERVER_SETTINGS } from '../../settings/sections/sim-server.settings.ts';
import { toOption } from '../common/setting-option.ts';

/** Declares the options of `tmas sim-server` on its command. */
export function defineSimServerOptions(command: Command): void {
  for (const setting of SIM_SERVER_SETTINGS) command.addOption(toOption(setting));
}
