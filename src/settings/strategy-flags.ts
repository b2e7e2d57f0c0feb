/**
 * The flags strategies declare for themselves (`Strategy.flags`), offered by
 * `tmas run` and turned into the chosen strategy's options: a flag of another
 * strategy is refused rather than silently ignored.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { loopSettingsRead, SHARED_LOOP_SETTINGS, toOptionName, type SharedLoopSetting, type StrategyFlag, type StrategyOptionValue } from '../../machines/contract.ts';
import { STRATEGIES, type Strategy } from '../../machines/strategies/index.ts';
import { UserError } from '../kernel/errors.ts';
import { decimal, integer } from './parsers.ts';

/** Every registered strategy's flags, with the strategy that owns each; a name declared twice is a registry bug. */
export function strategyFlags(strategies: Record<string, Strategy> = STRATEGIES): Array<{ owner: string; flag: StrategyFlag }> {
  const owners = new Map<string, string>();
  const all: Array<{ owner: string; flag: StrategyFlag }> = [];
  for (const strategy of Object.values(strategies)) {
    for (const flag of strategy.flags ?? []) {
      const owner = owners.get(flag.name);
      if (owner !== undefined) throw new TypeError(`--${flag.name} is declared by both the ${owner} and the ${strategy.name} strategy`);
      owners.set(flag.name, strategy.name);
      all.push({ owner: strategy.name, flag });
    }
  }
  return all;
}

/** A comma-separated list of integers in [min, max], normalised ("8, 8" → "8,8"). */
function integerList(min: number, max: number) {
  const one = integer(min, max);
  return (value: string): string => {
    if (value.trim() === '') return '';
    try {
      return value.split(',').map((item) => one(item.trim())).join(',');
    } catch {
      throw new InvalidArgumentError(`expected whole numbers from ${min} to ${max}, separated by commas (e.g. 8,8,4)`);
    }
  };
}

function parserOf(flag: StrategyFlag): ((value: string) => StrategyOptionValue) | undefined {
  if (flag.type === 'integer-list') return integerList(flag.min ?? 0, flag.max ?? Number.MAX_SAFE_INTEGER);
  if (flag.type === 'integer') return integer(flag.min ?? Number.MIN_SAFE_INTEGER, flag.max);
  if (flag.type === 'decimal') return decimal(flag.min ?? -Number.MAX_VALUE, flag.max ?? Number.MAX_VALUE);
  return undefined;
}

/**
 * Declares every strategy's flags on `tmas run`. No commander default: a flag given is told apart
 * from one left out. `defaults: false` (a fork, where a flag left out keeps the forked run's value)
 * leaves the defaults out of the help.
 */
export function defineStrategyFlags(command: Command, options: { defaults: boolean } = { defaults: true }): void {
  for (const { owner, flag } of strategyFlags()) {
    const help = `${owner} strategy: ${flag.description}${flag.default === '' || !options.defaults ? '' : ` (default ${flag.default})`}`;
    const option = new Option(`--${flag.name} ${flag.value}`, help).helpGroup("The strategies' own flags:");
    const parse = parserOf(flag);
    command.addOption(parse ? option.argParser(parse) : option);
  }
}

/** The chosen strategy's options from the parsed flags, defaults filled in; a flag of another strategy is a usage error. */
export function strategyOptionsOf(strategy: Strategy, flags: Record<string, unknown>): Record<string, StrategyOptionValue> {
  const options: Record<string, StrategyOptionValue> = {};
  for (const { owner, flag } of strategyFlags()) {
    const given = flags[toOptionName(flag.name)] as StrategyOptionValue | undefined;
    if (owner !== strategy.name) {
      if (given !== undefined) throw new UserError('TMAS_USAGE', `--${flag.name} belongs to the ${owner} strategy; this run uses --strategy ${strategy.name}. Leave it out, or add --strategy ${owner}.`);
      continue;
    }
    options[toOptionName(flag.name)] = given ?? flag.default;
  }
  const wrong = strategy.checkOptions?.(options) ?? null;
  if (wrong !== null) throw new UserError('TMAS_USAGE', wrong);
  return options;
}

/** The flag of a shared loop setting: `nCandidates` → `--n-candidates`. */
function loopFlag(setting: SharedLoopSetting): string {
  return `--${setting.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** The shared loop flags given on the command line (`given`: option names) that `strategy` does not read under its `options`. */
export function unreadLoopFlags(strategy: Strategy, options: Readonly<Record<string, StrategyOptionValue>>, given: ReadonlySet<string>): SharedLoopSetting[] {
  const reads = loopSettingsRead(strategy, options);
  return SHARED_LOOP_SETTINGS.filter((setting) => given.has(setting) && !reads.includes(setting));
}

/**
 * Refuses a shared loop flag given on the command line (`given`: option names) that `strategy`
 * does not read under its `options`: `--n-candidates 4` to majority, whose samples are
 * `--samples` (64), would be recorded and draw 64 samples a problem. tmas table1 gives its
 * flags to every method and does not call this.
 */
export function refuseUnreadLoopFlags(strategy: Strategy, options: Readonly<Record<string, StrategyOptionValue>>, given: ReadonlySet<string>): void {
  const unread = unreadLoopFlags(strategy, options, given);
  if (unread.length === 0) return;
  const reads = loopSettingsRead(strategy, options);
  const own = (strategy.flags ?? []).map((flag) => `--${flag.name}`);
  const names = unread.map(loopFlag);
  const flags = names.length === 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  throw new UserError(
    'TMAS_USAGE',
    `${flags}: the ${strategy.name} strategy does not read ${unread.length === 1 ? 'it' : 'them'}, so the run would not be the one asked for ` +
      `(of the shared loop flags it reads ${reads.map(loopFlag).join(', ')}${own.length > 0 ? `; its own are ${own.join(', ')}` : ''}). ` +
      `Leave ${flags} out, or choose a --strategy that reads ${unread.length === 1 ? 'it' : 'them'}.`,
  );
}
