/**
 * Judge flags given to a run whose judge makes no call (`--judge-passes 0`): refused rather than
 * recorded. The judge's endpoint was still made ready, so a `--judge-base-url` of a judge not yet
 * up held the run at its start for --wait-for-server (600 s) for calls it would never send, and a
 * `--judge-when unsure` or `--judge-temperature` was recorded beside a grading by rule alone.
 */
import type { RunConfig } from '../config.ts';
import { UserError } from '../../kernel/errors.ts';
import { flagName, optionName } from '../setting.ts';
import { SETTINGS } from './index.ts';

/** The judge's flags but the one that turns it off: its endpoint, model, key, sampling, limit, when and audit. */
const JUDGE_FLAGS = SETTINGS.filter((setting) => setting.section === 'judge' && flagName(setting) !== '--judge-passes');

/** Throws TMAS_USAGE naming the judge flags given on this command line (`given`) when the run's judge makes no call. */
export function refuseJudgeFlagsWithoutJudge(config: Pick<RunConfig, 'judge'>, given: ReadonlySet<string>): void {
  if (config.judge.passes > 0) return;
  const flags = JUDGE_FLAGS.filter((setting) => given.has(optionName(setting))).map(flagName);
  if (flags.length === 0) return;
  const named = flags.join(', ');
  throw new UserError(
    'TMAS_USAGE',
    `${named} ${flags.length === 1 ? 'sets' : 'set'} the LLM judge, which makes no call in this run (--judge-passes 0: graded by rule alone). ` +
      `Leave ${named} out, or give --judge-passes N (N ≥ 1) to grade by the judge.`,
  );
}
