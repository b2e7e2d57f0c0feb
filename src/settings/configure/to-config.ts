/**
 * The run's configuration and keys from the parsed flags, as the settings'
 * declarations say: every field is filled here, once, so no consumer decides
 * a default of its own.
 */
import { strategyNamed } from '../../../machines/strategies/index.ts';
import type { ConfigSection, RoleEndpoint, RolesConfig, RunConfig, Secrets } from '../config.ts';
import { fillConfig } from './fill.ts';
import { SETTINGS, secretsOf } from './index.ts';
import type { Flags, SettingContext } from '../setting.ts';
import { unfilledFields } from '../unfilled.ts';
import { ENDPOINT_SLOTS } from '../../kernel/slots.ts';

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

/** Turns the flags (commander's, by option name) into a run configuration and the API keys. */
export function toRunConfig(flags: Flags, env: NodeJS.ProcessEnv, now = new Date()): { config: RunConfig; secrets: Secrets } {
  const context: SettingContext = { flags, demo: flags.demo === true, strategy: strategyNamed(flags.strategy as string | undefined), now };
  const config = fillConfig(SETTINGS, emptyConfig(), context, unfilledFields);
  return { config, secrets: secretsOf(flags, env) };
}
