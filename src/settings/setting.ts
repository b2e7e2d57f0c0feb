/**
 * What one setting of `tmas run` declares, once: its flag, its help, its
 * default, whether a resume may change it, and where it lands in the run's
 * configuration. The CLI's options (cli/common/setting-option.ts), the configuration
 * (to-config.ts, upgrade.ts), resume's conflict checks (resume.ts) and the
 * generated reference (docs/reference/cli.md) are all read from these
 * declarations. `tmas sim-server`'s options are settings of the same kind,
 * filling a configuration of their own (sim-server.config.ts).
 */
import type { Strategy } from '../../machines/contract.ts';
import type { RunConfig } from './config.ts';
import type { Field } from './field.ts';

/** The part of tmas a setting configures: the reference groups settings by it. */
export type SettingSection = 'run' | 'problems' | 'outputs' | 'loop' | 'context' | 'roles' | 'judge' | 'gateway' | 'sim' | 'plan' | SimServerSection;

/** The parts of `tmas sim-server` its settings configure. */
export type SimServerSection = 'sim-server' | 'sim-replies' | 'sim-pace' | 'sim-capacity';

/** The sections in the order `--help` and the reference list them, with a title each. */
export const SECTIONS: Record<SettingSection, string> = {
  run: 'Which run',
  problems: 'Problems',
  outputs: 'Outputs',
  loop: 'The method and its loop',
  context: 'Context budget',
  roles: 'Endpoints and sampling of the roles',
  judge: 'The LLM judge',
  gateway: 'Gateway: calls in flight, time limits, retries',
  sim: 'The embedded simulated model',
  plan: 'tmas plan: the servers, the lengths, the run to check or replay',
  'sim-server': 'The server: where it listens, what it knows and serves',
  'sim-replies': 'Its replies',
  'sim-pace': 'Latency and streams',
  'sim-capacity': 'The capacity model of one GPU server',
};

/** The parsed flags of a command (`tmas run`, `tmas sim-server`), by commander's option name (`nCandidates`, `verifyModelName`, …). */
export type Flags = Readonly<Record<string, unknown>>;

/** What any command's setting may depend on besides its own flag: the command's other flags. */
export interface FlagsContext {
  flags: Flags;
  /** `--demo` (tmas run): the bundled demo set with the demo's sizes. */
  demo?: boolean;
}

/** What a setting of `tmas run` may depend on besides its own flag. */
export interface SettingContext extends FlagsContext {
  demo: boolean;
  /** The chosen strategy, whose upstream defaults some settings take. */
  strategy: Strategy;
  now: Date;
}

/** How a resume reads and copies a setting whose place in the configuration is not one field. */
export interface ResumeAccess {
  read(config: RunConfig): unknown;
  write(target: RunConfig, source: RunConfig): void;
  /** Overrides the setting's own `shapesCalls` for this part of it (where a file lies, beside which file it is). */
  shapesCalls?: boolean;
}

/**
 * One setting of `tmas run`, its flag's value of type V and its field of
 * type T. Its methods are declared as methods so that a list of settings of
 * different types is a `Setting[]`. Another command's settings fill another
 * configuration, C, from another context, X (`tmas sim-server`'s).
 */
export interface Setting<V = unknown, T = unknown, C = RunConfig, X extends FlagsContext = SettingContext> {
  /** The flag as commander reads it: `--n-candidates <n>`, `--no-proof`, `--view [port]`. */
  flags: string;
  section: SettingSection;
  help: string;
  /** Turns the text given into the value; throws commander's InvalidArgumentError with what the flag accepts. */
  parse?(value: string, previous: V | undefined): V;
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
  /** The command refuses to run without it (`tmas sim-server --problems`). */
  mandatory?: boolean;
  /**
   * The switch this setting tunes (`--capacity`): the help says so, and its
   * default is applied when the configuration is filled, not by commander,
   * so that a flag left out is told apart from one given without the switch.
   */
  tunes?: string;
  /**
   * Whether another value changes what the calls are: a resume refuses such a
   * change unless `--force` (a fork records it as its change); false: a resume
   * or a fork takes the new value and records it. Every setting that fills the
   * configuration declares it, or `namesTheRun` (checkResumeClasses): one that
   * declared neither was once dropped by a resume without a word.
   */
  shapesCalls?: boolean;
  /**
   * The setting names the run itself (its problems, its directory): a resume
   * and a fork keep the run's own and refuse another themselves, rather than
   * compare it.
   */
  namesTheRun?: true;
  /** Its field in the run's configuration; absent: not recorded (or recorded by `write`). */
  field?: Field<T, C>;
  /** The field's value from the flag's value (default applied) and the context; absent: the value itself. */
  resolve?(value: V | undefined, context: X): T;
  /** Sets the configuration's fields when they are more than one (a tokenizer file and its digest). */
  write?(config: C, value: V | undefined, context: X): void;
  /**
   * What a stored manifest without this field means: the value runs made
   * before the setting existed had. Every setting added after the first
   * manifests declares it; without it, a manifest lacking the field is damaged.
   */
  before?: T;
  /** Other options that set it too, or whose value it takes when not given: giving them on a resume gives it too. */
  givenAlsoBy?: string[];
  /** A resume's access when the setting is not one field of its own, in the order they are compared. */
  resume?: ResumeAccess[];
}

/** A setting of any command, whatever configuration it fills: what its option and its line of the reference are made from. */
export type AnySetting<C, X extends FlagsContext> = Setting<unknown, unknown, C, X>;

/** Declares a setting, its value and field typed: the compiler checks that the value (or what `resolve` makes of it) fits the field. */
export function setting<V, T = V>(declaration: Setting<V, T>): Setting {
  return declaration;
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

/** Whether a setting writes into the run's configuration (a field, a `write` or a resume's access). */
function fillsConfig(setting: Setting): boolean {
  return setting.field !== undefined || setting.write !== undefined || setting.resume !== undefined;
}

/**
 * Throws when a setting that fills the configuration does not say what a resume does with it:
 * compares it (`shapesCalls: true`), takes it (`false`), or keeps the run's own (`namesTheRun`).
 */
export function checkResumeClasses(settings: readonly Setting[]): void {
  for (const setting of settings) {
    const declared = (setting.shapesCalls === undefined ? 0 : 1) + (setting.namesTheRun === undefined ? 0 : 1);
    if (fillsConfig(setting) ? declared !== 1 : declared !== 0) {
      throw new TypeError(`${flagName(setting)} must declare ${fillsConfig(setting) ? 'exactly one of shapesCalls or namesTheRun' : 'neither shapesCalls nor namesTheRun: it fills no field'} (what a resume does with it)`);
    }
  }
}
