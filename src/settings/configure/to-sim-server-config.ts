/**
 * `tmas sim-server`'s configuration from its flags, as its settings declare
 * (the same filling as `tmas run`'s, fill.ts), and the checks of flags that
 * contradict each other.
 */
import { UserError } from '../../kernel/errors.ts';
import { fillConfig } from './fill.ts';
import { flagName, optionName, type Flags } from '../setting.ts';
import { emptySimServerConfig, unfilledSimServerFields, type SimServerConfig } from '../sim-server.config.ts';
import { SIM_SERVER_SETTINGS } from '../sections/sim-server.settings.ts';

/** A flag that tunes a switch, given without it: a usage error naming it (the capacity model's flags without --capacity). */
function checkTuned(flags: Flags): void {
  for (const setting of SIM_SERVER_SETTINGS) {
    if (setting.tunes === undefined || flags[optionName(setting)] === undefined || flags[optionName({ flags: setting.tunes })] === true) continue;
    const flag = flagName(setting);
    throw new UserError('TMAS_USAGE', `${flag} tunes the capacity model: add ${setting.tunes}, or drop ${flag}.`);
  }
}

/** Settings that cannot go together: the capacity model decides when replies come, so it takes no latency or stream pace. */
function checkCombined({ pace, capacity }: SimServerConfig): void {
  if (!capacity.on) return;
  if (pace.latencyMedianMs > 0) throw new UserError('TMAS_USAGE', '--latency-median-ms cannot be combined with --capacity: the capacity model decides when each reply comes. Drop one of them.');
  if (pace.streamTokensPerSecond > 0) throw new UserError('TMAS_USAGE', '--stream-tokens-per-second cannot be combined with --capacity: the capacity model paces streams. Drop one of them.');
  if (capacity.outputTokensP99 < capacity.outputTokensMedian) {
    throw new UserError('TMAS_USAGE', `--output-tokens-p99 (${capacity.outputTokensP99}) must be at least --output-tokens-median (${capacity.outputTokensMedian}).`);
  }
}

/**
 * The configuration of `tmas sim-server` from its flags (commander's, by
 * option name; a flag left out takes its declared default). Throws UserError
 * TMAS_USAGE for a bad value or flags that contradict each other.
 */
export function toSimServerConfig(flags: Flags): SimServerConfig {
  checkTuned(flags);
  const config = fillConfig(SIM_SERVER_SETTINGS, emptySimServerConfig(), { flags }, unfilledSimServerFields);
  checkCombined(config);
  return config;
}
