/**
 * The commander option of a setting, from its declaration: `tmas run`'s,
 * `tmas plan`'s and `tmas sim-server`'s options are all made here.
 */
import { Option } from 'commander';
import { UserError } from '../../kernel/errors.ts';
import { flagName, SECTIONS, type AnySetting, type FlagsContext } from '../../settings/setting.ts';

/** A parser that accepts only the setting's choices, and says which they are. */
function choiceParser<C, X extends FlagsContext>(setting: AnySetting<C, X>): (value: string) => string {
  const choices = setting.choices ?? [];
  return (value) => {
    if (choices.includes(value)) return value;
    throw new UserError('TMAS_USAGE', `${flagName(setting)} must be ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}, got "${value}".`);
  };
}

/** What the help says of a default that is not a plain value given to commander. */
function defaultNote<C, X extends FlagsContext>(setting: AnySetting<C, X>): string {
  if (setting.defaultText !== undefined) return ` (default: ${setting.defaultText})`;
  if (setting.demo !== undefined && setting.default !== undefined) return ` (default: ${String(setting.default)}; --demo: ${String(setting.demo)})`;
  if (setting.tunes !== undefined && setting.default !== undefined) return ` (default: ${String(setting.default)})`;
  return '';
}

/**
 * The commander option of a setting. Settings with a --demo value, or that
 * tune a switch, get no commander default: a flag left out is told apart
 * from one given, and the configuration's filling applies the default.
 */
export function toOption<C, X extends FlagsContext>(setting: AnySetting<C, X>): Option {
  const tuning = setting.tunes === undefined ? '' : `with ${setting.tunes}: `;
  const option = new Option(setting.flags, `${tuning}${setting.help}${defaultNote(setting)}`);
  if (setting.choices) option.argParser(choiceParser(setting));
  else if (setting.parse) option.argParser(setting.parse);
  // A negated switch (--no-proof) defaults to true by itself.
  const negated = flagName(setting).startsWith('--no-');
  if (setting.default !== undefined && setting.demo === undefined && setting.tunes === undefined && !negated) option.default(setting.default);
  if (setting.mandatory) option.makeOptionMandatory();
  if (setting.hidden) option.hideHelp();
  return option.helpGroup(`${SECTIONS[setting.section]}:`);
}
