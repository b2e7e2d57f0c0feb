/**
 * What one setting of `tmas run` declares, once: its flag, its help, its
 * default, whether a resume may change it, and where it lands in the run's
 * configuration. The CLI's options (cli/run-options.ts), the configuration
 * (to-config.ts), resume's conflict checks (host/resume.ts) and the generated
 * reference (docs/reference/cli.md) are all read from these declarations.
 */
import type { Strategy } from '../../machines/contract.ts';
import type { RunConfig } from '../host/config.ts';

/** The part of tmas a setting configures: the reference groups settings by it. */
export type SettingSection = 'run' | 'problems' | 'outputs' | 'loop' | 'context' | 'roles' | 'judge' | 'gateway' | 'sim' | 'plan';

/** The parsed flags of `tmas run`, by commander's option name (`nCandidates`, `verifyModelName`, …). */
export type Flags = Readonly<Record<string, unknown>>;

/** What a setting's value may depend on besides its own flag. */
export interface SettingContext {
  flags: Flags;
  /** `--demo`: the bundled demo set with the demo's sizes. */
  demo: boolean;
  /** The chosen strategy, whose upstream defaults some settings take. */
  strategy: Strategy;
  now: Date;
}

/** How a resume reads and copies a setting whose place in the configuration is not one path. */
export interface ResumeAccess {
  read(config: RunConfig): unknown;
  write(target: RunConfig, source: RunConfig): void;
  /** Overrides the setting's own `shapesCalls` for this part of it (where a file lies, beside which file it is). */
  shapesCalls?: boolean;
}

/** One setting of `tmas run`. */
export interface Setting<V = unknown> {
  /** The flag as commander reads it: `--n-candidates <n>`, `--no-proof`, `--view [port]`. */
  flags: string;
  section: SettingSection;
  help: string;
  /** Turns the text given into the value; throws commander's InvalidArgumentError with what the flag accepts. */
  parse?: (value: string, previous: V | undefined) => V;
  /** The values it accepts, when they are a few words (`pipelined`, `barrier`); another is a usage error naming them. */
  choices?: readonly string[];
  /** The value when the flag is not given (and, with `demo`, the run is not the demo). */
  default?: V;
  /** A default that other settings decide, in words for the help and the reference. */
  defaultText?: string;
  /** The value under `--demo` when the flag is not given. */
  demo?: V;
  /** Left out of `--help` (settings for tests and benchmarks); still in the reference. */
  hidden?: boolean;
  /**
   * Whether another value changes what the calls are: a resume refuses such a
   * change unless `--force`. Absent: the setting is not part of a resume's
   * comparison (it chooses the run, or only how it is shown).
   */
  shapesCalls?: boolean;
  /** Its path in the run's configuration (`timeoutSeconds`, `sim.latencyMedianMs`); absent: not recorded. */
  config?: string;
  /** The configuration value from the flag's value (default applied) and the context; undefined leaves the field out. */
  resolve?: (value: V | undefined, context: SettingContext) => unknown;
  /** The configuration fields it sets when they are more than one path (a tokenizer file and its digest). */
  toConfig?: (value: V | undefined, context: SettingContext) => Partial<RunConfig>;
  /** The field is left out while it has this value, so runs made before it existed keep their manifest. */
  omitWhen?: unknown;
  /** Other options that set it too, or whose value it takes when not given: giving them on a resume gives it too. */
  givenAlsoBy?: string[];
  /** A resume's access when `config` is not a path of its own, in the order they are compared. */
  resume?: ResumeAccess[];
}

/** Declares a setting (typed by its value). */
export function setting<V>(declaration: Setting<V>): Setting {
  return declaration as Setting;
}

/** The flag's long name: `--n-candidates <n>` → `--n-candidates`. */
export function flagName(setting: Pick<Setting, 'flags'>): string {
  return setting.flags.split(' ')[0] as string;
}

/** The option name commander gives a flag: `--n-candidates` → `nCandidates`, `--no-proof` → `proof`. */
export function optionName(setting: Pick<Setting, 'flags'>): string {
  return flagName(setting)
    .replace(/^--(no-)?/, '')
    .replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** The value at a dotted path of an object; undefined where any step is missing. */
export function valueAt(object: unknown, path: string): unknown {
  let at = object;
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/**
 * Sets the value at a dotted path, making the objects on the way. Undefined
 * deletes the field, and then any object on the way that is left empty (a
 * slot's `sampling` with no field set is absent, not `{}`).
 */
export function setValueAt(object: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop() as string;
  const parents: Array<[Record<string, unknown>, string]> = [];
  let at = object;
  for (const key of keys) {
    if (typeof at[key] !== 'object' || at[key] === null) {
      if (value === undefined) return;
      at[key] = {};
    }
    parents.push([at, key]);
    at = at[key] as Record<string, unknown>;
  }
  if (value !== undefined) {
    at[last] = value;
    return;
  }
  delete at[last];
  for (const [parent, key] of parents.reverse()) {
    if (Object.keys(parent[key] as object).length > 0) return;
    delete parent[key];
  }
}
