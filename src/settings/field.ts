/**
 * Where a setting lands in the run's configuration, as a typed accessor: the
 * compiler checks that the section and key exist and that the setting's value
 * has the field's type, so a renamed or retyped field breaks the build, not a
 * run. A field's name (`loop.nCandidates`) is for messages and the reference.
 */
import type { ConfigSection, RunConfig, SlotSampling } from './config.ts';
import type { EndpointSlot } from '../kernel/slots.ts';

/** One field of a configuration (the run's, unless C says another), read and written through typed functions. */
export interface Field<T, C = RunConfig> {
  /** `section.key` (`gateway.concurrency`, `roles.endpoints.judge.model`), for messages and the reference. */
  readonly name: string;
  get(config: C): T;
  set(config: C, value: T): void;
}

/** The accessor of `section.key` in a configuration of sections C: the factory of `field` for another command's configuration. */
export function sectionFields<C>() {
  return <S extends keyof C & string, K extends keyof C[S] & string>(section: S, key: K): Field<C[S][K], C> => ({
    name: `${section}.${key}`,
    get: (config) => config[section][key],
    set: (config, value) => void (config[section][key] = value),
  });
}

/** The field `key` of `section` of the run's configuration. */
export const field: <S extends ConfigSection, K extends keyof RunConfig[S] & string>(section: S, key: K) => Field<RunConfig[S][K]> = sectionFields<RunConfig>();

/** A slot's endpoint field (`baseUrl`, `model`). */
export function endpointField<K extends 'baseUrl' | 'model'>(slot: EndpointSlot, key: K): Field<RunConfig['roles']['endpoints'][EndpointSlot][K]> {
  return {
    name: `roles.endpoints.${slot}.${key}`,
    get: (config) => config.roles.endpoints[slot][key],
    set: (config, value) => void (config.roles.endpoints[slot][key] = value),
  };
}

/** A slot's sampling field (`topP`, `extraBody`, …). */
export function samplingField<K extends keyof SlotSampling>(slot: EndpointSlot, key: K): Field<SlotSampling[K]> {
  return {
    name: `roles.endpoints.${slot}.sampling.${key}`,
    get: (config) => config.roles.endpoints[slot].sampling[key],
    set: (config, value) => void (config.roles.endpoints[slot].sampling[key] = value),
  };
}
