/**
 * Every field of the configuration, listed once in a form the compiler checks
 * against `RunConfig` (a field added to the type and not here, or here and not
 * in the type, fails the build), so that a configuration can be checked at
 * run time: one the settings built, or one read from a stored manifest.
 */
import { ENDPOINT_SLOTS } from '../kernel/slots.ts';
import type { ConfigSection, RoleEndpoint, RunConfig, SlotSampling } from './config.ts';

/** The keys of each section, each marked present. */
type Keys<T> = { [K in keyof T]-?: true };

const SECTION_KEYS: { [S in ConfigSection]: Keys<RunConfig[S]> } = {
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
  judge: { passes: true, maxTokens: true, when: true },
  gateway: {
    concurrency: true,
    replicaMaxInFlight: true,
    timeoutSeconds: true,
    totalTimeoutSeconds: true,
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
  sim: { latencyMedianMs: true, latencyP99Ms: true, outputTokens: true, breakFormats: true },
};

const ENDPOINT_KEYS: Keys<Omit<RoleEndpoint, 'sampling'>> = { baseUrl: true, model: true };
const SAMPLING_KEYS: Keys<SlotSampling> = { temperature: true, topP: true, topK: true, minP: true, extraBody: true };

/** The sections and their field names, in the order the reference lists them. */
export const CONFIG_FIELDS: ReadonlyArray<readonly [ConfigSection, readonly string[]]> = Object.entries(SECTION_KEYS).map(([section, keys]) => [section as ConfigSection, Object.keys(keys)]);

/** The names of the fields a configuration leaves undefined (`loop.seed`, `roles.endpoints.judge.sampling.topP`); empty when it is whole. */
export function unfilledFields(config: unknown): string[] {
  const at = (object: unknown, key: string): unknown => (typeof object === 'object' && object !== null ? (object as Record<string, unknown>)[key] : undefined);
  const missing: string[] = [];
  for (const [section, keys] of CONFIG_FIELDS) {
    for (const key of keys) if (at(at(config, section), key) === undefined) missing.push(`${section}.${key}`);
  }
  const endpoints = at(at(config, 'roles'), 'endpoints');
  for (const slot of ENDPOINT_SLOTS) {
    const endpoint = at(endpoints, slot);
    for (const key of Object.keys(ENDPOINT_KEYS)) if (at(endpoint, key) === undefined) missing.push(`roles.endpoints.${slot}.${key}`);
    for (const key of Object.keys(SAMPLING_KEYS)) if (at(at(endpoint, 'sampling'), key) === undefined) missing.push(`roles.endpoints.${slot}.sampling.${key}`);
  }
  return missing;
}
