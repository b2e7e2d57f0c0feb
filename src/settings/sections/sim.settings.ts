/** Settings of the embedded simulated model, used when no --base-url is given (`tmas sim-server` has its own flags, sim-server.settings.ts); their defaults are the simulator's. */
import { SIM_DEFAULTS } from '../../sim/defaults.ts';
import { UserError } from '../../kernel/errors.ts';
import { decimal, integer } from '../parsers.ts';
import { field } from '../field.ts';
import { flagName, optionName, setting, type Flags } from '../setting.ts';
import { usesSimulator, type RunConfig } from '../config.ts';

/**
 * The p99 latency of `p99Flag`, at least the median of `medianFlag` (option
 * `medianOption`): raised to it when not given, refused when given below it.
 */
export function p99AtLeastMedian(p99Flag: string, medianFlag: string, medianOption: string) {
  return (p99: number | undefined, { flags }: { flags: Flags }): number => {
    const median = flags[medianOption] as number | undefined;
    if (p99 !== undefined && median !== undefined && p99 < median) throw new UserError('TMAS_USAGE', `${p99Flag} ${p99} is below ${medianFlag} ${median}: a 99th percentile is at least the median. Give a larger ${p99Flag}, or leave it out.`);
    return Math.max(p99 ?? SIM_DEFAULTS.latency, median ?? SIM_DEFAULTS.latency);
  };
}

/** `--sim-latency-ms`, `--sim-p99-ms`, `--sim-break-formats`, `--sim-output-tokens`, `--sim-distill-tokens`. */
export const SIM_SETTINGS = [
  setting<number>({ flags: '--sim-latency-ms <ms>', section: 'sim', help: 'simulated model: median latency (0: none)', parse: decimal(0, 600_000), default: SIM_DEFAULTS.latency, shapesCalls: false, field: field('sim', 'latencyMedianMs') }),
  setting<number>({
    flags: '--sim-p99-ms <ms>',
    section: 'sim',
    help: 'simulated model: 99th percentile latency (at least the median)',
    parse: decimal(0, 600_000),
    defaultText: 'the median (--sim-latency-ms)',
    shapesCalls: false,
    field: field('sim', 'latencyP99Ms'),
    // Left out, it follows the median given.
    givenAlsoBy: ['simLatencyMs'],
    resolve: p99AtLeastMedian('--sim-p99-ms', '--sim-latency-ms', 'simLatencyMs'),
  }),
  setting<number>({
    flags: '--sim-break-formats <rate>',
    section: 'sim',
    help: "simulated model: share of replies, 0..1, that break their role's format (missing sections, no box or several, JSON with other keys, prose, cut off)",
    parse: decimal(0, 1),
    default: SIM_DEFAULTS.breakFormats,
    // The simulated replies themselves.
    shapesCalls: true,
    field: field('sim', 'breakFormats'),
    before: SIM_DEFAULTS.breakFormats,
  }),
  setting<number>({ flags: '--sim-output-tokens <n>', section: 'sim', help: 'simulated model: approximate tokens of a solution', parse: integer(1), default: SIM_DEFAULTS.outputTokens, shapesCalls: true, field: field('sim', 'outputTokens') }),
  setting<number>({
    flags: '--sim-distill-tokens <n>',
    section: 'sim',
    help: 'simulated model: approximate tokens of the records an rse distillation writes besides its marked one, so the bank grows as a real one does (0: the marked record alone)',
    parse: integer(0),
    default: SIM_DEFAULTS.distillTokens,
    shapesCalls: true,
    field: field('sim', 'distillTokens'),
    before: SIM_DEFAULTS.distillTokens,
  }),
];

/** What `tmas sim-server` calls each of these settings, for a run that talks to one. */
const SIM_SERVER_FLAGS: Readonly<Record<string, string>> = {
  '--sim-latency-ms': '--latency-median-ms',
  '--sim-p99-ms': '--latency-p99-ms',
  '--sim-break-formats': '--break-formats',
  '--sim-output-tokens': '--output-tokens',
  '--sim-distill-tokens': '--distill-tokens',
};

/**
 * Refuses a --sim-* flag given (`given`: option names) to a run that starts no embedded simulated
 * model, every role having an endpoint of its own: the flag would be recorded and shape nothing
 * (a run at --base-url of a tmas sim-server is shaped by that server's flags).
 */
export function refuseSimFlagsWithoutSim(config: Pick<RunConfig, 'roles'>, given: ReadonlySet<string>): void {
  if (usesSimulator(config)) return;
  const flags = SIM_SETTINGS.filter((declared) => given.has(optionName(declared))).map(flagName);
  if (flags.length === 0) return;
  const named = flags.join(', ');
  throw new UserError(
    'TMAS_USAGE',
    `${named} ${flags.length === 1 ? 'sets' : 'set'} the embedded simulated model, which this run does not start: --base-url names the endpoint of every role. ` +
      `Leave ${named} out; to shape the replies of a tmas sim-server, start it with ${flags.map((flag) => SIM_SERVER_FLAGS[flag] ?? flag).join(', ')}.`,
  );
}
