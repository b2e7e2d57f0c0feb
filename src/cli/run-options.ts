/**
 * The options of `tmas run` (and `tmas table1`), declared on a commander
 * command from the settings' declarations (src/settings/) and the
 * strategies' own flags.
 */
import { Option, type Command } from 'commander';
import { UserError } from '../kernel/errors.ts';
import { SECTIONS, SETTINGS, type Setting } from '../settings/index.ts';
import { flagName } from '../settings/setting.ts';
import { defineStrategyFlags } from '../settings/strategy-flags.ts';

/** A parser that accepts only the setting's choices, and says which they are. */
function choiceParser(setting: Setting): (value: string) => string {
  const choices = setting.choices ?? [];
  return (value) => {
    if (choices.includes(value)) return value;
    throw new UserError('TMAS_USAGE', `${flagName(setting)} must be ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}, got "${value}".`);
  };
}

/** What the help says of a default that is not a plain value given to commander. */
function defaultNote(setting: Setting): string {
  if (setting.defaultText !== undefined) return ` (default: ${setting.defaultText})`;
  if (setting.demo !== undefined && setting.default !== undefined) return ` (default: ${String(setting.default)}; --demo: ${String(setting.demo)})`;
  return '';
}

/** The commander option of a setting. Settings with a --demo value get no commander default: a flag left out is told apart from one given. */
export function toOption(setting: Setting): Option {
  const option = new Option(setting.flags, `${setting.help}${defaultNote(setting)}`);
  if (setting.choices) option.argParser(choiceParser(setting));
  else if (setting.parse) option.argParser(setting.parse);
  // A negated switch (--no-proof) defaults to true by itself.
  const negated = flagName(setting).startsWith('--no-');
  if (setting.default !== undefined && setting.demo === undefined && !negated) option.default(setting.default);
  if (setting.hidden) option.hideHelp();
  return option.helpGroup(`${SECTIONS[setting.section]}:`);
}

/** Declares the options of `tmas run` on a command. */
export function defineRunOptions(command: Command): Command {
  for (const setting of SETTINGS) command.addOption(toOption(setting));
  defineStrategyFlags(command);
  return command;
}
