/**
 * A stored configuration in today's shape. tmas wrote the configuration flat
 * (one object of 42 fields, those at their default often left out) until it
 * was sectioned; a sectioned one may lack fields added since it was written.
 * Each missing field of a setting added since takes what runs made before it
 * existed did (the setting's `before`), so every reader of a run (resume, replay, the
 * viewer, reports) reads a whole configuration and decides no default itself.
 */
import { toOptionName } from '../../../machines/contract.ts';
import { DEFAULT_PARSE_RETRIES } from '../../../machines/role.machine.ts';
import { STRATEGIES } from '../../../machines/strategies/index.ts';
import { UserError } from '../../kernel/errors.ts';
import { VERSION } from '../../kernel/version.ts';
import { ENDPOINT_SLOTS } from '../../kernel/slots.ts';
import type { RoleEndpoint, RunConfig, SlotSampling } from '../config.ts';
import { SETTINGS } from './index.ts';
import { flagName, type Setting } from '../setting.ts';
import { unfilledFields, unknownFields } from '../unfilled.ts';

type Stored = Record<string, unknown>;

/** A stored endpoint in today's shape: one base URL a list (before replica pools), every sampling field present. */
function upgradeEndpoint(stored: unknown): RoleEndpoint {
  const endpoint = (stored ?? {}) as { baseUrl?: string[] | string | null; model?: string; sampling?: Partial<SlotSampling> };
  const baseUrl = typeof endpoint.baseUrl === 'string' ? [endpoint.baseUrl] : (endpoint.baseUrl ?? null);
  const { temperature = null, topP = null, topK = null, minP = null, extraBody = null } = endpoint.sampling ?? {};
  return { baseUrl, model: endpoint.model ?? '', sampling: { temperature, topP, topK, minP, extraBody } };
}

/** The sections of a flat configuration, as tmas wrote it before sections (fields left out stay out, filled after). */
function sectionsOfFlat(flat: Stored): Stored {
  const { samples, columns, ...f } = flat as Stored & { samples?: number; columns?: Record<string, string> };
  const strategy = f.strategy ?? 'tmas';
  // Runs made before strategies declared their own flags kept majority's --samples at the top level.
  const options = { ...(strategy === 'majority' && samples !== undefined ? { samples } : {}), ...(f.strategyOptions as object | undefined) };
  return {
    problems: { inputFile: f.inputFile, idColumn: named(columns?.id, 'Problem ID'), questionColumn: named(columns?.question, 'Problem'), answerColumn: named(columns?.answer, 'Short Answer') },
    outputs: { dir: f.outputDir },
    loop: {
      ...pick(f, ['nCandidates', 'nVerifications', 'maxIterations', 'epsilon', 'proof', 'seed', 'jaccardThreshold', 'jaccardShingle', 'bankMaxRecords', 'activeProblems', 'schedule']),
      strategy,
      strategyOptions: options,
      agents: f.agents ?? null,
      agentsDigest: f.agentsDigest ?? null,
      prompts: f.prompts ?? {},
    },
    context: { tokenizer: f.tokenizer, tokenizerDigest: f.tokenizerDigest ?? null, window: f.maxTokens, completionMaxTokens: f.completionMaxTokens ?? null },
    roles: { endpoints: f.endpoints, temperature: f.temperature, parseRetries: f.parseRetries ?? DEFAULT_PARSE_RETRIES },
    judge: { passes: f.judgePasses, maxTokens: f.judgeMaxTokens, when: f.judgeWhen },
    gateway: pick(f, ['concurrency', 'replicaMaxInFlight', 'timeoutSeconds', 'totalTimeoutSeconds', 'keepAliveTimeoutSeconds', 'stream', 'dialect', 'maxRetries', 'retryBaseMs', 'loadPollMs', 'serverQueue', 'dispatchOrder', 'batchCap']),
    sim: f.sim,
  };
}

/** A CSV column as flat manifests kept it: tmas then wrote the default name for a column the user did not name. */
function named(column: string | undefined, formerDefault: string): string | null | undefined {
  return column === formerDefault ? null : column;
}

function pick(object: Stored, keys: readonly string[]): Stored {
  return Object.fromEntries(keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]));
}

/**
 * Today's configuration from a stored one (flat or sectioned). Throws
 * TMAS_STORE_DAMAGED naming the fields when one that every tmas wrote is
 * missing: the manifest is damaged, not old.
 */
export function upgradeConfig(stored: unknown, where: string): RunConfig {
  const object = (typeof stored === 'object' && stored !== null ? stored : {}) as Stored;
  const sections = 'loop' in object ? structuredClone(object) : sectionsOfFlat(object);
  // Filled below and checked whole before it is returned.
  const config = sections as Partial<RunConfig> as RunConfig;
  for (const section of ['problems', 'outputs', 'loop', 'context', 'roles', 'judge', 'gateway', 'sim'] as const) config[section] ??= {} as never;
  const strategy = typeof config.loop.strategy === 'string' ? STRATEGIES[config.loop.strategy] : undefined;
  if (strategy === undefined) throw damagedManifest(where, `loop.strategy is ${JSON.stringify(config.loop.strategy)}, which names no strategy of tmas's`);
  // A strategy flag added since: runs made before it ran as its default does.
  const flags = strategy.flags ?? [];
  config.loop.strategyOptions = { ...Object.fromEntries(flags.map((flag) => [toOptionName(flag.name), flag.default])), ...config.loop.strategyOptions };
  const storedEndpoints = config.roles.endpoints as unknown;
  if (storedEndpoints !== undefined && (typeof storedEndpoints !== 'object' || storedEndpoints === null || Array.isArray(storedEndpoints))) {
    throw damagedManifest(where, `roles.endpoints is ${JSON.stringify(storedEndpoints)}, not the endpoints of the run's roles`);
  }
  const endpoints: Partial<Record<string, unknown>> = config.roles.endpoints === undefined ? {} : config.roles.endpoints;
  // A run made before the judge existed has no judge endpoint: its judge is the solution agent's.
  endpoints.judge ??= endpoints.solution;
  config.roles.endpoints = Object.fromEntries(ENDPOINT_SLOTS.map((slot) => [slot, upgradeEndpoint(endpoints[slot])])) as RunConfig['roles']['endpoints'];
  // Only a setting added after the first manifests declares `before`; a field every tmas wrote, missing, is damage.
  for (const setting of SETTINGS) {
    if (setting.field !== undefined && 'before' in setting && setting.field.get(config) === undefined) setting.field.set(config, setting.before);
  }
  const missing = unfilledFields(config);
  if (missing.length > 0) {
    throw new UserError('TMAS_STORE_DAMAGED', `The run manifest in ${where} lacks ${missing.join(', ')}: it is damaged, not from an older tmas. Restore the run directory from a copy.`);
  }
  const wrong = wrongFields(config);
  if (wrong.length > 0) throw damagedManifest(where, wrong.join('; '));
  return config;
}

/**
 * A stored manifest's configuration in today's shape (upgradeConfig). The configuration is what resume, fork
 * and replay run, and its configHash is checked (store/repair/manifest-check.ts); the manifest's own `strategy`
 * is a copy of the configuration's, which readers print and no hash covers. One that disagrees was edited:
 * it is refused, not printed over the settings of another strategy. Absent in manifests written before it was kept.
 */
export function manifestConfig(manifest: { config?: unknown; strategy?: unknown; tmasVersion?: unknown }, where: string): RunConfig {
  refuseUnknownSettings(manifest, where);
  const config = upgradeConfig(manifest.config, where);
  if (manifest.strategy !== undefined && manifest.strategy !== config.loop.strategy) {
    throw damagedManifest(where, `its strategy is ${JSON.stringify(manifest.strategy)} and its configuration's ${JSON.stringify(config.loop.strategy)}: one of them was changed in the store after the run wrote them`);
  }
  return config;
}

/**
 * Refuses a configuration holding settings this tmas does not know (TMAS_STORE_FORMAT, naming them and the tmas that
 * wrote it): a newer tmas's, whose journal version may be this one's. Read here, they were dropped without a word, and a
 * resume, a fork or a replay ran the run without them. A flat configuration (tmas's first) is read field by field.
 */
function refuseUnknownSettings(manifest: { config?: unknown; tmasVersion?: unknown }, where: string): void {
  const stored = manifest.config;
  if (typeof stored !== 'object' || stored === null || !('loop' in stored)) return;
  const unknown = unknownFields(stored);
  if (unknown.length === 0) return;
  const writer = typeof manifest.tmasVersion === 'string' ? `tmas ${manifest.tmasVersion}` : 'a tmas that did not say its version';
  throw new UserError(
    'TMAS_STORE_FORMAT',
    `The run in ${where} was made with settings this tmas ${VERSION} does not know (${unknown.slice(0, 6).join(', ')}${unknown.length > 6 ? ', …' : ''}), by ${writer}: ` +
      'read here, they would be dropped, and a resume, fork or replay would run without them. Nothing was changed. Read or resume it with the tmas that wrote it, or a newer one.',
  );
}

/** The refusal of a manifest whose configuration no tmas wrote. */
function damagedManifest(where: string, what: string): UserError {
  return new UserError('TMAS_STORE_DAMAGED', `The run manifest in ${where} is damaged: ${what}. Restore the run directory from a copy.`);
}

/**
 * The fields whose stored values their flags would not take (`loop.nCandidates
 * is "eight", which --n-candidates does not take: …`): a number where a count
 * or a seed belongs, checked by the flag's own parser, and a word among its
 * choices. A run read on would otherwise ask for calls no flag could have made.
 */
function wrongFields(config: RunConfig): string[] {
  const wrong: string[] = [];
  for (const setting of SETTINGS) {
    // A field set from other values (resolve, write) has no flag's text to check against.
    if (setting.field === undefined || setting.resolve !== undefined || setting.write !== undefined) continue;
    const value: unknown = setting.field.get(config);
    if (value === null || value === undefined) continue;
    const expected = setting.default ?? setting.before;
    const numeric = typeof expected === 'number' || (expected === undefined && typeof value === 'number');
    const refusal = numeric ? numberRefusal(setting, value) : setting.choices !== undefined && !setting.choices.includes(value as string) ? `not one of ${setting.choices.join(', ')}` : null;
    if (refusal !== null) wrong.push(`${setting.field.name} is ${JSON.stringify(value)}, which ${flagName(setting)} does not take (${refusal})`);
  }
  return wrong;
}

/** Why a stored number is not one the setting's flag takes, or null when it is. */
function numberRefusal(setting: Setting, value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'not a number';
  try {
    setting.parse?.(String(value), undefined);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
