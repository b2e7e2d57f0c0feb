/** Settings of the embedded simulated model, used when no --base-url is given (`tmas sim-server` has its own flags). */
import { decimal, integer } from './parsers.ts';
import { field } from './field.ts';
import { setting } from './setting.ts';

/** `--sim-latency-ms`, `--sim-p99-ms`, `--sim-output-tokens`. */
export const SIM_SETTINGS = [
  setting<number>({ flags: '--sim-latency-ms <ms>', section: 'sim', help: 'simulated model: median latency (0: none)', parse: decimal(0, 600_000), default: 0, field: field('sim', 'latencyMedianMs') }),
  setting<number>({
    flags: '--sim-p99-ms <ms>',
    section: 'sim',
    help: 'simulated model: 99th percentile latency (at least the median)',
    parse: decimal(0, 600_000),
    default: 0,
    field: field('sim', 'latencyP99Ms'),
    resolve: (p99, { flags }) => Math.max(p99 ?? 0, (flags.simLatencyMs as number | undefined) ?? 0),
  }),
  setting<number>({
    flags: '--sim-break-formats <rate>',
    section: 'sim',
    help: "simulated model: share of replies, 0..1, that break their role's format (missing sections, no box or several, JSON with other keys, prose, cut off)",
    parse: decimal(0, 1),
    default: 0,
    field: field('sim', 'breakFormats'),
    before: 0,
  }),
  setting<number>({ flags: '--sim-output-tokens <n>', section: 'sim', help: 'simulated model: approximate tokens of a solution', parse: integer(1), default: 250, field: field('sim', 'outputTokens') }),
];
