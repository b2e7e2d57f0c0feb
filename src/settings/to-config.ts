/** The run's configuration and keys from the parsed flags, as the settings' declarations say. */
import type { RunConfig, Secrets } from '../host/config.ts';
import { strategyNamed } from '../host/plugins.ts';
import { SETTINGS, secretsOf } from './index.ts';
import { optionName, setValueAt, type Flags, type Setting, type SettingContext } from './setting.ts';

/** The value a setting starts from: its flag, else the demo's value under --demo, else its default. */
function givenOrDefault(setting: Setting, context: SettingContext): unknown {
  const given = context.flags[optionName(setting)];
  if (given !== undefined) return given;
  return context.demo && setting.demo !== undefined ? setting.demo : setting.default;
}

/** Turns the flags (commander's, by option name) into a run configuration and the API keys. */
export function toRunConfig(flags: Flags, env: NodeJS.ProcessEnv, now = new Date()): { config: RunConfig; secrets: Secrets } {
  const context: SettingContext = { flags, demo: flags.demo === true, strategy: strategyNamed(flags.strategy as string | undefined), now };
  const config: Record<string, unknown> = {};
  for (const setting of SETTINGS) {
    const value = givenOrDefault(setting, context);
    if (setting.toConfig) Object.assign(config, setting.toConfig(value, context));
    if (setting.config === undefined) continue;
    const resolved = setting.resolve ? setting.resolve(value, context) : value;
    if (resolved === undefined || resolved === setting.omitWhen) continue;
    setValueAt(config, setting.config, resolved);
  }
  return { config: config as unknown as RunConfig, secrets: secretsOf(flags, env) };
}
