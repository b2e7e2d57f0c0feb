/**
 * The command-line reference: every command with its arguments and options,
 * and `tmas run`'s and `tmas sim-server`'s settings by section with their
 * defaults (and, for run, whether a resume may change them), read from the
 * program and the settings' declarations.
 */
import type { Command, Option } from 'commander';
import { strategyFlags } from '../settings/strategy-flags.ts';
import { SECTIONS, SETTINGS, type SettingSection } from '../settings/configure/index.ts';
import { flagName, type AnySetting, type FlagsContext } from '../settings/setting.ts';
import { SIM_SERVER_SETTINGS } from '../settings/sections/sim-server.settings.ts';
import { generatedBanner, table } from './markdown.ts';

/** What a resume does with a setting given again. */
function onResume<C, X extends FlagsContext>(setting: AnySetting<C, X>): string {
  if (setting.namesTheRun) return "the run's own";
  if (setting.shapesCalls === undefined) return '';
  return setting.shapesCalls ? 'refused unless --force' : 'taken';
}

function defaultOf<C, X extends FlagsContext>(setting: AnySetting<C, X>): string {
  if (setting.mandatory) return 'required';
  if (setting.defaultText !== undefined) return setting.defaultText;
  // A negated switch is off until given; its help says what the run does without it. So is a switch off by default.
  if (setting.flags.startsWith('--no-') || setting.default === false) return '';
  if (setting.default === undefined) return '';
  const value = typeof setting.default === 'string' ? `\`${setting.default}\`` : String(setting.default);
  return setting.demo === undefined ? value : `${value} (--demo: ${String(setting.demo)})`;
}

/** What the reference says a setting sets: its help, its choices, whether --help shows it and what it tunes. */
function whatItSets<C, X extends FlagsContext>(setting: AnySetting<C, X>): string {
  const tuning = setting.tunes === undefined ? '' : `with ${setting.tunes}: `;
  return `${tuning}${setting.help}${setting.choices ? ` (one of: ${setting.choices.join(', ')})` : ''}${setting.hidden ? ' (not in --help)' : ''}`;
}

/** One section of a command's settings as a table; `resume` adds what a resume does with each (tmas run's). */
function settingsSection<C, X extends FlagsContext>(all: readonly AnySetting<C, X>[], section: SettingSection, resume: boolean): string[] {
  const settings = all.filter((setting) => setting.section === section);
  // Sections of other commands' settings have none of this command's.
  if (settings.length === 0) return [];
  const rows = settings.map((setting) => [`\`${setting.flags}\``, defaultOf(setting), ...(resume ? [onResume(setting)] : []), whatItSets(setting)]);
  const columns = ['flag', 'default', ...(resume ? ['on --resume'] : []), 'what it sets'];
  return [[`### ${SECTIONS[section]}`, '', table(columns, rows)].join('\n'), ''];
}

/** Every section of a command's settings, in the order of SECTIONS. */
function settingsSections<C, X extends FlagsContext>(all: readonly AnySetting<C, X>[], resume: boolean): string[] {
  return (Object.keys(SECTIONS) as SettingSection[]).flatMap((section) => settingsSection(all, section, resume));
}

function strategyFlagsSection(): string {
  const rows = strategyFlags().map(({ owner, flag }) => [`\`--${flag.name} ${flag.value}\``, owner, String(flag.default), flag.shapesCalls ? 'refused unless --force' : 'taken', flag.description]);
  return ["### The strategies' own flags", '', 'Accepted only with their `--strategy`.', '', table(['flag', 'strategy', 'default', 'on --resume', 'what it sets'], rows)].join('\n');
}

function optionDefault(option: Option): string {
  if (option.mandatory) return 'required';
  if (option.defaultValueDescription !== undefined) return option.defaultValueDescription;
  if (option.defaultValue === undefined || option.defaultValue === false) return '';
  return typeof option.defaultValue === 'string' ? `\`${option.defaultValue}\`` : JSON.stringify(option.defaultValue);
}

/** What `tmas table1` takes: a run's options, less those it refuses, with `--output-file` required, and its own. */
function table1Options(command: Command): string[] {
  const runFlags = new Set([...SETTINGS.map((setting) => flagName(setting)), ...strategyFlags().map(({ flag }) => `--${flag.name}`)]);
  const own = command.options.filter((option) => option.long !== undefined && !runFlags.has(option.long));
  return [
    "Every option of `tmas run` (above) but `--resume`, `--strategy` and `--view` (a table resumes by the same command, names its methods with `--strategies`, and is watched with `tmas view DIR`); `--output-file` is required: the table's folder, each method's run in DIR/<strategy>. Its own options:",
    '',
    table(['flag', 'default', 'what it sets'], own.map((option) => [`\`${option.flags}\``, optionDefault(option), option.description])),
  ];
}

function commandSection(command: Command): string {
  const usage = `tmas ${command.name()} ${command.usage()}`.trim();
  const parts = [`## \`tmas ${command.name()}\``, '', command.description(), '', '```', usage, '```'];
  const args = command.registeredArguments.map((argument) => [`\`${argument.name()}${argument.variadic ? '...' : ''}\``, argument.description]);
  if (args.length > 0) parts.push('', table(['argument', 'what it is'], args));
  if (command.name() === 'fork') {
    parts.push(
      '',
      'Every option of `tmas run` (above) but `--resume` and `--demo`: the settings given change the run\'s, every one of them allowed (as a resume with `--force` takes them), and one left out keeps DIR\'s value, not the default; ' +
        '`--output-file` is required, a new or empty directory outside DIR; `--input-file` (with the column flags, which read it) only when it holds DIR\'s own problems; `--force` accepts an `--agents` module or tokenizer changed in place since DIR ran.',
    );
    return parts.join('\n');
  }
  if (command.name() === 'run' || command.name() === 'table1') {
    if (command.name() === 'table1') parts.push('', ...table1Options(command));
    else parts.push('', ...settingsSections(SETTINGS, true), strategyFlagsSection());
    return parts.join('\n');
  }
  if (command.name() === 'sim-server') return [...parts, '', ...settingsSections(SIM_SERVER_SETTINGS, false)].join('\n').trimEnd();
  const options = command.options.map((option) => [`\`${option.flags}\``, optionDefault(option), option.description]);
  if (options.length > 0) parts.push('', table(['flag', 'default', 'what it sets'], options));
  return parts.join('\n');
}

/** The reference page of every command, from a program whose late options are declared. */
export function renderCliReference(program: Command): string {
  return [
    generatedBanner('src/cli/program.ts, src/cli/inspect/analysis.ts and src/settings/'),
    '',
    '# Command-line reference',
    '',
    'Every command and flag of `tmas`. Flags are kebab-case; the reference implementation\'s snake_case spellings (`--input_file`) are accepted too. A flag given twice takes the last value given, and a warning on stderr says so; a flag its help calls repeatable (`--base-url`, `--prompt`) adds each value to a list instead. ' +
      'For `tmas run`, "on --resume" says what a resume does when the flag is given again with another value: *taken* (it changes how the run goes on, not what its calls are), ' +
      'or *refused unless --force* (it changes what the calls are: with `--force` the changed calls are issued anew, the others still answered from the journal), ' +
      "or *the run's own* (it names the run: a resume keeps its problems and directory, see [Resume, replay and analysis](../guide/resume-replay.md#what-a-resume-may-change)). " +
      'A fork takes both *taken* and *refused unless --force* ones, and records those whose value it changes.',
    '',
    ...program.commands.flatMap((command) => [commandSection(command), '']),
  ].join('\n');
}
