/**
 * Every field of the configuration, listed once in a form the compiler checks
 * against `RunConfig` (a field added to the type and not here, or here and not
 * in the type, fails the build), so that a configuration can be checked at
 * run time: one the settings built, or one read from a stored manifest. The
 * same check serves any configuration of sections (`tmas sim-server`'s).
 */
import { ENDPOINT_SLOTS } from '../kernel/slots.ts';
import type { ConfigSection, RoleEndpoint, RunConfig, SlotSampling } from './config.ts';

/** The keys of each section, each marked present. */
type Keys<T> = { [K in keyof T]-?: true };

/** Every key of every section of a configuration of sections C, in a form the compiler checks against C. */
export type SectionKeys<C> = { [S in keyof C]-?: Keys<C[S]> };

/** The sections and their field names, from their keys. */
export function fieldsOf<C>(keys: SectionKeys<C>): ReadonlyArray<readonly [keyof C & string, readonly string[]]> {
  return Object.entries(keys).map(([section, fields]) => [section as keyof C & string, Object.keys(fields as object)]);
}

function at(object: unknown, key: string): unknown {
  return typeof object === 'object' && object !== null ? (object as Record<string, unknown>)[key] : undefined;
}

/** The names of the fields (`section.key`) that a configuration leaves undefined. */
export function unsetFields(config: unknown, fields: ReadonlyArray<readonly [string, readonly string[]]>): string[] {
  return fields.flatMap(([section, keys]) => keys.filter((key) => at(at(config, section), key) === undefined).map((key) => `${section}.${key}`));
}

const SECTION_KEYS: SectionKeys<RunConfig> = {
  problems: { inputFile: true, idColumn: true, questionColumn: true, answerColumn: true },
  outputs: { dir: true, unusableWarnShare: true },
  loop: {
    strategy: true,
    strategyOptions: true,
    agents: true,
    agentsDigest: true,
    prompts: true,
    nCandidates: true,
    nVerifications: true,
    maxIterations: true,
    epsilon: true,
    proof: true,
    seed: true,
    jaccardThreshold: true,
    jaccardShingle: true,
    bankMaxRecords: true,
    activeProblems: true,
    schedule: true,
  },
  context: { tokenizer: true, tokenizerDigest: true, window: true, completionMaxTokens: true },
  roles: { endpoints: true, temperature: true, parseRetries: true },
  judge: { passes: true, maxTokens: true, when: true, audit: true },
  gateway: {
    concurrency: true,
    replicaMaxInFlight: true,
    timeoutSeconds: true,
    totalTimeoutSeconds: true,
    keepAliveTimeoutSeconds: true,
    startWaitSeconds: true,
    stream: true,
    dialect: true,
    maxRetries: true,
    retryBaseMs: true,
    loadPollMs: true,
    serverQueue: true,
    dispatchOrder: true,
    batchCap: true,
    routing: true,
  },
  sim: { latencyMedianMs: true, latencyP99Ms: true, outputTokens: true, breakFormats: true, distillTokens: true },
};

const ENDPOINT_KEYS: Keys<Omit<RoleEndpoint, 'sampling'>> = { baseUrl: true, model: true };
const SAMPLING_KEYS: Keys<SlotSampling> = { temperature: true, topP: true, topK: true, minP: true, extraBody: true };

/** The sections and their field names, in the order the reference lists them. */
export const CONFIG_FIELDS: ReadonlyArray<readonly [ConfigSection, readonly string[]]> = fieldsOf(SECTION_KEYS);

/** The names of the fields a configuration leaves undefined (`loop.seed`, `roles.endpoints.judge.sampling.topP`); empty when it is whole. */
export function unfilledFields(config: unknown): string[] {
  const missing = unsetFields(config, CONFIG_FIELDS);
  const endpoints = at(at(config, 'roles'), 'endpoints');
  for (const slot of ENDPOINT_SLOTS) {
    const endpoint = at(endpoints, slot);
    for (const key of Object.keys(ENDPOINT_KEYS)) if (at(endpoint, key) === undefined) missing.push(`roles.endpoints.${slot}.${key}`);
    for (const key of Object.keys(SAMPLING_KEYS)) if (at(at(endpoint, 'sampling'), key) === undefined) missing.push(`roles.endpoints.${slot}.sampling.${key}`);
  }
  return missing;
}

/**
 * The names of the fields a stored configuration of sections holds that this tmas has no setting for
 * (`loop.speculative`, `roles.endpoints.judge.sampling.typicalP`): a newer tmas's settings, which a
 * configuration read here would drop. Empty when it holds none.
 */
export function unknownFields(config: unknown): string[] {
  const known = new Map<string, readonly string[]>(CONFIG_FIELDS);
  const unknown: string[] = [];
  const keysOf = (value: unknown) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : []);
  for (const section of keysOf(config)) {
    const fields = known.get(section);
    if (fields === undefined) unknown.push(section);
    else for (const key of keysOf(at(config, section))) if (!fields.includes(key)) unknown.push(`${section}.${key}`);
  }
  const endpoints = at(at(config, 'roles'), 'endpoints');
  for (const slot of keysOf(endpoints)) {
    const endpoint = at(endpoints, slot);
    for (const key of keysOf(endpoint)) if (key !== 'sampling' && !(key in ENDPOINT_KEYS)) unknown.push(`roles.endpoints.${slot}.${key}`);
    for (const key of keysOf(at(endpoint, 'sampling'))) if (!(key in SAMPLING_KEYS)) unknown.push(`roles.endpoints.${slot}.sampling.${key}`);
  }
  return unknown;
}
