/**
 * The run's configuration and keys from the parsed flags, as the settings'
 * declarations say: every field is filled here, once, so no consumer decides
 * a default of its own.
 */
import { strategyNamed } from '../../machines/strategies/index.ts';
import type { ConfigSection, RoleEndpoint, RolesConfig, RunConfig, Secrets } from './config.ts';
import { SETTINGS, secretsOf } from './index.ts';
import { optionName, type Flags, type Setting, type SettingContext } from './setting.ts';
import { unfilledFields } from './unfilled.ts';
import { ENDPOINT_SLOTS } from '../kernel/slots.ts';

/** The value a setting starts from: its flag, else the demo's value under --demo, else its default. */
function givenOrDefault(setting: Setting, context: SettingContext): unknown {
  const given = context.flags[optionName(setting)];
  if (given !== undefined) return given;
  return context.demo && setting.demo !== undefined ? setting.demo : setting.default;
}

/** A configuration whose sections are empty, for the settings to fill. */
function emptyConfig(): RunConfig {
  // Empty objects of each section's type, filled field by field below and checked whole before they are returned.
  const endpoints = Object.fromEntries(ENDPOINT_SLOTS.map((slot) => [slot, { sampling: {} } as RoleEndpoint])) as RolesConfig['endpoints'];
  // The solution agent has no temperature of its own: the run's --temperature is every role's.
  endpoints.solution.sampling.temperature = null;
  const empty = <S extends ConfigSection>() => ({}) as RunConfig[S];
  return {
    problems: empty<'problems'>(),
    outputs: empty<'outputs'>(),
    loop: empty<'loop'>(),
    context: empty<'context'>(),
    roles: { ...empty<'roles'>(), endpoints },
    judge: empty<'judge'>(),
    gateway: empty<'gateway'>(),
    sim: empty<'sim'>(),
  };
}

/** Writes one setting's value into the configuration. */
function apply(config: RunConfig, setting: Setting, context: SettingContext): void {
  const value = givenOrDefault(setting, context);
  setting.write?.(config, value, context);
  if (setting.field === undefined) return;
  const resolved = setting.resolve ? setting.resolve(value, context) : value;
  // A declaration without a default or a resolve that makes one is a bug of tmas, not of the user.
  if (resolved === undefined) throw new TypeError(`${setting.flags} leaves ${setting.field.name} unset: declare a default or a resolve`);
  setting.field.set(config, resolved);
}

/** Turns the flags (commander's, by option name) into a run configuration and the API keys. */
export function toRunConfig(flags: Flags, env: NodeJS.ProcessEnv, now = new Date()): { config: RunConfig; secrets: Secrets } {
  const context: SettingContext = { flags, demo: flags.demo === true, strategy: strategyNamed(flags.strategy as string | undefined), now };
  const config = emptyConfig();
  for (const setting of SETTINGS) apply(config, setting, context);
  const unfilled = unfilledFields(config);
  if (unfilled.length > 0) throw new TypeError(`The settings left ${unfilled.join(', ')} unset`);
  return { config, secrets: secretsOf(flags, env) };
}
