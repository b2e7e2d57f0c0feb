/**
 * Resuming a run: which settings may change between the first start and a
 * resume, and where each problem picks up.
 *
 * Settings that shape the calls (N, M, models, prompts, seed, ε, tokenizer, …)
 * are refused when they differ from the manifest, unless `--force`: then the
 * calls they change are issued anew and the unchanged ones are still answered
 * from the journal, since the journal is keyed by the request itself.
 */
import { toOptionName, type LoopStart } from '../../machines/contract.ts';
import { STRATEGIES } from '../../machines/strategies/index.ts';
import type { RunConfig, SlotSampling } from './config.ts';
import { UserError } from '../kernel/errors.ts';
import { ENDPOINT_SLOTS, SAMPLING_SETTINGS, slotFlag, slotOption, type EndpointSlot, type SamplingSetting, type SlotSetting } from '../kernel/slots.ts';
import { PROTOCOL_VERSION } from '../kernel/protocol.ts';
import type { Manifest, Store } from '../store/store.ts';
import { VERSION } from '../kernel/version.ts';

/** A setting a resume may give again: its flag, whether it shapes calls, and how to read it. */
interface Setting {
  flag: string;
  /** Option names (camelCase, as commander keys them) that set it. */
  options: string[];
  shapesCalls: boolean;
  read: (config: RunConfig) => unknown;
  write: (target: RunConfig, source: RunConfig) => void;
}

function field<K extends keyof RunConfig>(key: K, flag: string, shapesCalls: boolean, option: string = key): Setting {
  return { flag, options: [option], shapesCalls, read: (c) => c[key], write: (t, s) => void (t[key] = s[key]) };
}

/**
 * A file the run reads, known by its digest wherever it lies: which file it is
 * shapes calls (its digest; its path in runs made before digests), where it
 * lies now does not (a run moved to another machine).
 */
function fileSettings(
  pathKey: 'tokenizer' | 'agents',
  digestKey: 'tokenizerDigest' | 'agentsDigest',
  identity: Pick<Setting, 'flag' | 'options'>,
  location: Pick<Setting, 'flag' | 'options'>,
): Setting[] {
  const moveTo = (t: RunConfig, s: RunConfig) => void Object.assign(t, { [pathKey]: s[pathKey] });
  return [
    {
      ...identity,
      shapesCalls: true,
      read: (c) => c[digestKey] ?? c[pathKey],
      write: (t, s) => {
        moveTo(t, s);
        if (s[digestKey] === undefined) delete t[digestKey];
        else t[digestKey] = s[digestKey];
      },
    },
    { ...location, shapesCalls: false, read: (c) => c[pathKey], write: moveTo },
  ];
}

/** A slot's own flag, and the solution agent's, which every other slot follows unless given its own. */
function optionsOf(slot: EndpointSlot, setting: SlotSetting): string[] {
  return slot === 'solution' ? [slotOption(slot, setting)] : [slotOption(slot, setting), slotOption('solution', setting)];
}

const SETTINGS: Setting[] = [
  field('nCandidates', '--n-candidates', true),
  field('nVerifications', '--n-verifications', true),
  field('seed', '--seed', true),
  field('epsilon', '--epsilon', true),
  // A tokenizer file is the same one wherever it lies (its digest); a tiktoken encoding, its name.
  ...fileSettings('tokenizer', 'tokenizerDigest', { flag: '--tokenizer', options: ['tokenizer', 'tokenizerPath'] }, { flag: '--tokenizer-path', options: ['tokenizerPath'] }),
  field('temperature', '--temperature', true),
  field('maxTokens', '--max-tokens', true),
  field('jaccardThreshold', '--jaccard-threshold', true),
  field('jaccardShingle', '--jaccard-shingle', true),
  field('bankMaxRecords', '--bank-max-records', true),
  field('proof', '--no-proof', true),
  {
    // Another strategy brings its own options.
    ...field('strategy', '--strategy', true),
    write: (t, s) => {
      t.strategy = s.strategy;
      if (s.strategyOptions === undefined) delete t.strategyOptions;
      else t.strategyOptions = { ...s.strategyOptions };
    },
  },
  ...fileSettings('agents', 'agentsDigest', { flag: '--agents', options: ['agents'] }, { flag: '--agents', options: ['agents'] }),
  field('judgePasses', '--judge-passes', true),
  field('judgeMaxTokens', '--judge-max-tokens', true),
  field('completionMaxTokens', '--completion-max-tokens', true),
  field('maxIterations', '--max-iterations', false),
  field('concurrency', '--concurrency', false),
  field('timeoutSeconds', '--timeout', false, 'timeout'),
  field('totalTimeoutSeconds', '--total-timeout', false, 'totalTimeout'),
  field('replicaMaxInFlight', '--replica-max-in-flight', false),
  field('stream', '--no-stream', false),
  field('dialect', '--openai-reasoning', false, 'openaiReasoning'),
  field('maxRetries', '--max-retries', false),
  field('activeProblems', '--active-problems', false),
  field('serverQueue', '--server-queue', false),
  field('dispatchOrder', '--dispatch-order', false),
  field('batchCap', '--batch-cap', false),
  field('loadPollMs', '--load-poll-ms', false),
  ...Object.values(STRATEGIES).flatMap((strategy) =>
    (strategy.flags ?? []).map((flag) => {
      const option = toOptionName(flag.name);
      return {
        flag: `--${flag.name}`,
        options: [option],
        shapesCalls: flag.shapesCalls,
        read: (c: RunConfig) => c.strategyOptions?.[option] ?? flag.default,
        write: (t: RunConfig, s: RunConfig) => void (t.strategyOptions = { ...t.strategyOptions, [option]: s.strategyOptions?.[option] ?? flag.default }),
      };
    }),
  ),
  ...ENDPOINT_SLOTS.flatMap((slot) => [
    {
      flag: slotFlag(slot, 'model-name'),
      options: optionsOf(slot, 'model-name'),
      shapesCalls: true,
      read: (c: RunConfig) => c.endpoints[slot]?.model,
      write: (t: RunConfig, s: RunConfig) => void (t.endpoints[slot] = { ...t.endpoints[slot], model: s.endpoints[slot].model }),
    },
    ...(Object.entries(SAMPLING_SETTINGS) as Array<[SamplingSetting, keyof SlotSampling]>)
      // The solution agent's temperature is the run's --temperature, above.
      .filter(([setting]) => slot !== 'solution' || setting !== 'temperature')
      .map(([setting, key]) => ({
        flag: slotFlag(slot, setting),
        options: setting === 'temperature' ? [slotOption(slot, setting)] : optionsOf(slot, setting),
        shapesCalls: true,
        read: (c: RunConfig) => c.endpoints[slot]?.sampling?.[key],
        write: (t: RunConfig, s: RunConfig) => {
          const { sampling, ...endpoint } = t.endpoints[slot];
          const value = s.endpoints[slot].sampling?.[key];
          const next = { ...sampling, [key]: value };
          if (value === undefined) delete next[key];
          t.endpoints[slot] = Object.keys(next).length > 0 ? { ...endpoint, sampling: next } : endpoint;
        },
      })),
    {
      flag: slotFlag(slot, 'base-url'),
      options: optionsOf(slot, 'base-url'),
      shapesCalls: false,
      read: (c: RunConfig) => c.endpoints[slot]?.baseUrl?.join(',') ?? 'simulated',
      write: (t: RunConfig, s: RunConfig) => void (t.endpoints[slot] = { ...t.endpoints[slot], baseUrl: s.endpoints[slot].baseUrl }),
    },
  ]),
];

/**
 * The configuration of a resumed run: the manifest's, with the settings the
 * user gave on this command line. Throws TMAS_RESUME_CONFLICT listing every
 * call-shaping difference unless `force`.
 */
export function resumeConfig(stored: RunConfig, requested: RunConfig, given: ReadonlySet<string>, options: { force: boolean; runDir: string }): RunConfig {
  const merged: RunConfig = structuredClone(stored);
  const conflicts: string[] = [];
  for (const setting of SETTINGS) {
    if (!setting.options.some((option) => given.has(option))) continue;
    const before = setting.read(stored);
    const after = setting.read(requested);
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    if (setting.shapesCalls) conflicts.push(`${setting.flag}: the run has ${JSON.stringify(before)}, this command gives ${JSON.stringify(after)}`);
    setting.write(merged, requested);
  }
  if (conflicts.length > 0 && !options.force) {
    throw new UserError(
      'TMAS_RESUME_CONFLICT',
      `Refusing to resume ${options.runDir} with settings that change what the calls would be: ${conflicts.join('; ')}. ` +
        'Leave these flags out to continue the run as it was, or add --force to issue the changed calls anew (unchanged calls are still answered from the journal).',
    );
  }
  // Every path of a run derives from the directory the user named: a copied or moved run writes only where it is now.
  merged.outputDir = options.runDir;
  return merged;
}

/** Where each problem of a stored run picks up: after its last completed iteration, with the banks and rollouts of then. */
export async function loadStarts(store: Store, count: number): Promise<LoopStart[]> {
  const starts: LoopStart[] = [];
  for (let ordinal = 0; ordinal < count; ordinal++) {
    const last = await store.lastIteration(ordinal);
    starts.push(
      last
        ? { iteration: last.record.iteration + 1, experience: last.banks.experience, guidelines: last.banks.guidelines, rollouts: last.record.rollouts }
        : { iteration: 0, experience: [], guidelines: [], rollouts: [] },
    );
  }
  return starts;
}

/**
 * Refuses a run written under another protocol version: its journal keys would
 * not match this version's, so a resume or replay would pay for every call again.
 */
export function checkProtocol(manifest: Manifest, runDir: string): void {
  if (manifest.protocolVersion === PROTOCOL_VERSION) return;
  throw new UserError(
    'TMAS_RESUME',
    `${runDir} was written by tmas ${manifest.tmasVersion} (protocol ${manifest.protocolVersion}); this tmas ${VERSION} uses protocol ${PROTOCOL_VERSION} and cannot reuse its journal. Resume or replay it with tmas ${manifest.tmasVersion}.`,
  );
}
