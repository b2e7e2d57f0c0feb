/**
 * The options of `tmas fork`: `tmas run`'s settings, as a fork takes them. A flag left out keeps
 * the forked run's value, so the help shows no default; `--resume` and `--demo`, which a fork
 * refuses (with a message saying why), are left out of it; `--output-file`, `--force`,
 * `--input-file` and `--max-iterations` say what they do for a fork.
 */
import type { Command } from 'commander';
import { SETTINGS } from '../../settings/configure/index.ts';
import { flagName, type Setting } from '../../settings/setting.ts';
import { defineStrategyFlags } from '../../settings/strategy-flags.ts';
import { toOption } from '../common/setting-option.ts';

/** What a fork does with these flags, which is not what a run does. */
const FORK_HELP: Record<string, string> = {
  '--output-file': "the new run's directory (required): a new or empty directory outside DIR",
  '--force': "accept an --agents module or a tokenizer of DIR's that changed in place since DIR ran (the calls it changes are issued anew)",
  '--input-file': "DIR's own problems, checked to be the same (a fork runs the problems DIR keeps in its store)",
  '--max-iterations': 'iterations per problem, T (a fork starts from iteration 0)',
};

/** Flags a fork refuses: declared, so that the refusal says why, but not offered. */
const REFUSED = new Set(['--resume', '--demo']);

/** A run's help without the default it ends with: in a fork, a setting left out is DIR's. */
function withoutDefault(help: string): string {
  const at = help.lastIndexOf(' (default');
  return at !== -1 && help.endsWith(')') ? help.slice(0, at) : help;
}

/** A setting as `tmas fork` offers it: no default where the forked run's value is what a flag left out keeps. */
function asForkSetting(setting: Setting): Setting {
  const flag = flagName(setting);
  const recorded = setting.shapesCalls !== undefined || setting.namesTheRun === true;
  if (!recorded && FORK_HELP[flag] === undefined) return setting;
  return { ...setting, help: FORK_HELP[flag] ?? withoutDefault(setting.help), default: undefined, defaultText: undefined, demo: undefined };
}

/** Declares the options of `tmas fork` on a command. */
export function defineForkOptions(command: Command): Command {
  for (const setting of SETTINGS) {
    const option = toOption(asForkSetting(setting));
    command.addOption(REFUSED.has(flagName(setting)) ? option.hideHelp() : option);
  }
  defineStrategyFlags(command, { defaults: false });
  return command;
}
