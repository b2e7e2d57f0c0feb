/**
 * The command-line reference: every command with its arguments and options,
 * and `tmas run`'s settings by section with their defaults and whether a
 * resume may change them, read from the program and the settings' declarations.
 */
import type { Command, Option } from 'commander';
import { strategyFlags } from '../settings/strategy-flags.ts';
import { SECTIONS, SETTINGS, type Setting, type SettingSection } from '../settings/index.ts';
import { generatedBanner, table } from './markdown.ts';

/** What a resume does with a setting given again. */
function onResume(setting: Setting): string {
  if (setting.shapesCalls === undefined) return '';
  return setting.shapesCalls ? 'refused unless --force' : 'taken';
}

function defaultOf(setting: Setting): string {
  if (setting.defaultText !== undefined) return setting.defaultText;
  // A negated switch is off until given; its help says what the run does without it.
  if (setting.flags.startsWith('--no-')) return '';
  if (setting.default === undefined) return '';
  const value = typeof setting.default === 'string' ? `\`${setting.default}\`` : String(setting.default);
  return setting.demo === undefined ? value : `${value} (--demo: ${String(setting.demo)})`;
}

function runSection(section: SettingSection): string[] {
  const settings = SETTINGS.filter((setting) => setting.section === section);
  // Sections of other commands' settings (tmas plan's) have none of run's.
  if (settings.length === 0) return [];
  const rows = settings.map((setting) => [
    `\`${setting.flags}\``,
    defaultOf(setting),
    onResume(setting),
    `${setting.help}${setting.choices ? ` (one of: ${setting.choices.join(', ')})` : ''}${setting.hidden ? ' (not in --help)' : ''}`,
  ]);
  return [[`### ${SECTIONS[section]}`, '', table(['flag', 'default', 'on --resume', 'what it sets'], rows)].join('\n'), ''];
}

function strategyFlagsSection(): string {
  const rows = strategyFlags().map(({ owner, flag }) => [`\`--${flag.name} ${flag.value}\``, owner, String(flag.default), flag.shapesCalls ? 'refused unless --force' : 'taken', flag.description]);
  return ["### The strategies' own flags", '', 'Accepted only with their `--strategy`.', '', table(['flag', 'strategy', 'default', 'on --resume', 'what it sets'], rows)].join('\n');
}

function optionDefault(option: Option): string {
  if (option.defaultValueDescription !== undefined) return option.defaultValueDescription;
  if (option.defaultValue === undefined || option.defaultValue === false) return '';
  return typeof option.defaultValue === 'string' ? `\`${option.defaultValue}\`` : JSON.stringify(option.defaultValue);
}

function commandSection(command: Command): string {
  const usage = `tmas ${command.name()} ${command.usage()}`.trim();
  const parts = [`## \`tmas ${command.name()}\``, '', command.description(), '', '```', usage, '```'];
  const args = command.registeredArguments.map((argument) => [`\`${argument.name()}${argument.variadic ? '...' : ''}\``, argument.description]);
  if (args.length > 0) parts.push('', table(['argument', 'what it is'], args));
  if (command.name() === 'fork') {
    parts.push(
      '',
      'Every option of `tmas run` (above) but `--resume` and `--demo`: the settings given change the run\'s, every one of them allowed (as a resume with `--force` takes them); ' +
        '`--output-file` is required, a new or empty directory outside DIR; `--input-file` only when it holds DIR\'s own problems; `--force` accepts an `--agents` module or tokenizer changed in place since DIR ran.',
    );
    return parts.join('\n');
  }
  if (command.name() === 'run' || command.name() === 'table1') {
    if (command.name() === 'table1') parts.push('', 'Every option of `tmas run` (below), plus:', '', table(['flag', 'default', 'what it sets'], [['`--strategies <list>`', optionDefault(command.options.find((option) => option.long === '--strategies') as Option), 'comma-separated strategies to compare']]));
    else parts.push('', ...(Object.keys(SECTIONS) as SettingSection[]).flatMap((section) => runSection(section)), strategyFlagsSection());
    return parts.join('\n');
  }
  const options = command.options.map((option) => [`\`${option.flags}\``, optionDefault(option), option.description]);
  if (options.length > 0) parts.push('', table(['flag', 'default', 'what it sets'], options));
  return parts.join('\n');
}

/** The reference page of every command, from a program whose late options are declared. */
export function renderCliReference(program: Command): string {
  return [
    generatedBanner('src/cli/program.ts, src/cli/analysis.ts and src/settings/'),
    '',
    '# Command-line reference',
    '',
    'Every command and flag of `tmas`. Flags are kebab-case; the reference implementation\'s snake_case spellings (`--input_file`) are accepted too. ' +
      'For `tmas run`, "on --resume" says what a resume does when the flag is given again with another value: *taken* (it changes how the run goes on, not what its calls are), ' +
      'or *refused unless --force* (it changes what the calls are: with `--force` the changed calls are issued anew, the others still answered from the journal).',
    '',
    ...program.commands.flatMap((command) => [commandSection(command), '']),
  ].join('\n');
}
