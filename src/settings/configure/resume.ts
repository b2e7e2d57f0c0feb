/**
 * Which settings a resume may change, read from their declarations: one that
 * shapes calls (N, M, models, prompts, seed, ε, tokenizer, …) is refused when
 * it differs from the manifest, unless `--force`: then the calls it changes
 * are issued anew and the unchanged ones are still answered from the
 * journal, since the journal is keyed by the request itself.
 */
import { toOptionName } from '../../../machines/contract.ts';
import { STRATEGIES } from '../../../machines/strategies/index.ts';
import type { RunConfig } from '../config.ts';
import { UserError } from '../../kernel/errors.ts';
import { SETTINGS } from './index.ts';
import { flagName, optionName, type ResumeAccess, type Setting } from '../setting.ts';

/** A setting as a resume compares it: its flag, the options that give it, and how to read and copy it. */
interface Comparison extends ResumeAccess {
  flag: string;
  options: string[];
  shapesCalls: boolean;
}

/** The comparisons of one declared setting: its own access, or its field of the configuration. */
function comparisonsOf(setting: Setting): Comparison[] {
  if (setting.shapesCalls === undefined) return [];
  const base = { flag: flagName(setting), options: [optionName(setting), ...(setting.givenAlsoBy ?? [])], shapesCalls: setting.shapesCalls };
  if (setting.resume) return setting.resume.map((access) => ({ ...base, ...access, shapesCalls: access.shapesCalls ?? setting.shapesCalls ?? false }));
  const field = setting.field;
  if (field === undefined) throw new TypeError(`${base.flag} shapes calls but declares neither a configuration field nor a resume access`);
  return [{ ...base, read: (c) => field.get(c), write: (t, s) => field.set(t, structuredClone(field.get(s))) }];
}

/** The strategies' own flags: the value in the run's options, the declared default where absent. */
function strategyComparisons(): Comparison[] {
  return Object.values(STRATEGIES).flatMap((strategy) =>
    (strategy.flags ?? []).map((flag) => {
      const option = toOptionName(flag.name);
      return {
        flag: `--${flag.name}`,
        options: [option],
        shapesCalls: flag.shapesCalls,
        read: (c: RunConfig) => c.loop.strategyOptions[option] ?? flag.default,
        write: (t: RunConfig, s: RunConfig) => void (t.loop.strategyOptions = { ...t.loop.strategyOptions, [option]: s.loop.strategyOptions[option] ?? flag.default }),
      };
    }),
  );
}

/** Every comparison a resume makes: the declared settings', then the strategies' own flags. */
function comparisons(): Comparison[] {
  return [...SETTINGS.flatMap(comparisonsOf), ...strategyComparisons()];
}

/** A setting whose value differs between a stored run's configuration and another. */
export interface SettingChange {
  flag: string;
  shapesCalls: boolean;
}

/**
 * The settings whose values differ between `stored` and `now`, each flag once,
 * in the order of `tmas run --help`: what a fork records as changed.
 */
export function changedSettings(stored: RunConfig, now: RunConfig): SettingChange[] {
  const changes = new Map<string, SettingChange>();
  for (const setting of comparisons()) {
    if (JSON.stringify(setting.read(stored)) === JSON.stringify(setting.read(now))) continue;
    const known = changes.get(setting.flag);
    changes.set(setting.flag, { flag: setting.flag, shapesCalls: setting.shapesCalls || known?.shapesCalls === true });
  }
  return [...changes.values()];
}

/**
 * The configuration of a resumed run: the manifest's, with the settings the
 * user gave on this command line. Throws TMAS_RESUME_CONFLICT listing every
 * call-shaping difference unless `force`.
 */
export function resumeConfig(stored: RunConfig, requested: RunConfig, given: ReadonlySet<string>, options: { force: boolean; runDir: string }): RunConfig {
  const merged: RunConfig = structuredClone(stored);
  const conflicts: string[] = [];
  for (const setting of comparisons()) {
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
  merged.outputs.dir = options.runDir;
  return merged;
}
