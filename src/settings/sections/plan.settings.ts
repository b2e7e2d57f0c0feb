/**
 * The settings of `tmas plan` besides the run's own: the servers a run would
 * go to (replicas of the capacity model, src/sim/capacity/options.ts, whose
 * defaults they take; a live server's /metrics; or a metered API's price),
 * where call lengths come from, and which finished run to check or replay.
 * None is part of a run's configuration.
 */
import { InvalidArgumentError } from 'commander';
import { CAPACITY_DEFAULTS } from '../../sim/capacity/options.ts';
import { decimal, integer, url } from '../parsers.ts';
import { setting } from '../setting.ts';

/** `--price-per-million in,out`: two prices in any currency per million prompt and output tokens. */
function prices(value: string): { input: number; output: number } {
  const parts = value.split(',').map((part) => Number(part.trim()));
  if (parts.length !== 2 || parts.some((part) => !Number.isFinite(part) || part < 0)) throw new InvalidArgumentError('expected two prices per million tokens, prompt then output, such as 0.55,2.19');
  return { input: parts[0] as number, output: parts[1] as number };
}

/** `--replica-speeds 1,1,0.5,0.5`: each replica's speed against the capacity model's, one factor a replica. */
function speeds(value: string): number[] {
  const parts = value.split(',').map((part) => Number(part.trim()));
  if (parts.length === 0 || parts.some((part) => !Number.isFinite(part) || part <= 0 || part > 100)) throw new InvalidArgumentError('expected one speed factor per replica, each above 0 and at most 100, such as 1,1,0.5,0.5');
  return parts;
}

/** The servers, the lengths, and the run to check or replay. */
export const PLAN_SETTINGS = [
  setting<string>({ flags: '--check <dir>', section: 'plan', help: 'forecast a finished run from its own settings and set the forecast beside what it did (calls, tokens, makespan, utilization)' }),
  setting<string>({ flags: '--from <dir>', section: 'plan', help: "what-if: replay a finished run's journaled calls and lengths through the capacity model under the servers (--replicas: how long it would have taken on that many), --concurrency, --routing, --replica-max-in-flight and --schedule given here (the run's own where not given)" }),
  setting<string>({
    flags: '--strategies <list>',
    section: 'plan',
    help: "forecast a whole table: these strategies (comma-separated, as tmas table1 takes them) with tmas table1's protocol where the flags give none, their calls sharing the servers at once, each method's own calls and its makespan alone beside the table's",
  }),
  setting<number>({
    flags: '--replicas <n>',
    section: 'plan',
    help: "server replicas, each one capacity model, calls sent as --routing sends them; with --from, the run's own pool where not given",
    defaultText: 'the URLs of --base-url, else 1',
    parse: integer(1, 10_000),
  }),
  setting<number[]>({
    flags: '--replica-speeds <list>',
    section: 'plan',
    help: "each replica's speed against the one the flags describe (its D and c times the factor), one factor a replica: 1,1,0.5,0.5 is four replicas, two at half speed; sets the replica count",
    parse: speeds,
  }),
  setting<number>({ flags: '--gpus-per-replica <n>', section: 'plan', help: 'GPUs behind one replica, for GPU-hours', parse: integer(1, 1_024), default: 1 }),
  setting<number>({ flags: '--decode-tokens-per-second <n>', section: 'plan', help: 'a replica\'s decode throughput D, shared by its sequences', parse: integer(1), default: CAPACITY_DEFAULTS.decodeTokensPerSecond }),
  setting<number>({ flags: '--sequence-tokens-per-second <n>', section: 'plan', help: 'decode ceiling c of one sequence', parse: integer(1), default: CAPACITY_DEFAULTS.sequenceTokensPerSecond }),
  setting<number>({ flags: '--kv-tokens <n>', section: 'plan', help: "a replica's KV cache K in tokens, prompts plus generated", parse: integer(1), default: CAPACITY_DEFAULTS.kvTokens }),
  setting<number>({ flags: '--prefill-tokens-per-second <n>', section: 'plan', help: "a replica's prefill throughput P", parse: integer(1), default: CAPACITY_DEFAULTS.prefillTokensPerSecond }),
  setting<string>({
    flags: '--metrics-from <url>',
    section: 'plan',
    help: "read D, c and K from a live vLLM (or tmas sim-server) replica's Prometheus /metrics, watched for --metrics-seconds while it is busy",
    parse: (value) => url(value),
  }),
  setting<number>({ flags: '--metrics-seconds <s>', section: 'plan', help: 'how long --metrics-from watches the server', parse: decimal(1, 600), default: 10 }),
  setting<{ input: number; output: number }>({
    flags: '--price-per-million <in,out>',
    section: 'plan',
    help: 'a metered API instead of GPUs: the price per million prompt and output tokens; the cost replaces GPU-hours, and each call decodes at c with --concurrency in flight',
    parse: prices,
  }),
  setting<number>({ flags: '--output-tokens-median <n>', section: 'plan', help: 'median output length of a call (a thinking model\'s by default)', parse: integer(1), default: CAPACITY_DEFAULTS.outputTokensMedian }),
  setting<number>({ flags: '--output-tokens-p99 <n>', section: 'plan', help: '99th percentile output length', parse: integer(1), default: CAPACITY_DEFAULTS.outputTokensP99 }),
  setting<number>({ flags: '--output-tokens-problem-spread <s>', section: 'plan', help: "how much lengths depend on the problem: a problem's calls share a factor exp(s × z)", parse: decimal(0, 3), default: CAPACITY_DEFAULTS.outputTokensProblemSpread }),
  setting<string>({ flags: '--lengths-from <dir>', section: 'plan', help: "take prompt and output lengths from an earlier run's journal, role by role, instead of drawing them" }),
  setting<number>({ flags: '--draws <n>', section: 'plan', help: 'draws of the lengths, each simulated: the makespan is given as the median draw and the range of the draws', parse: integer(1, 100), default: 5 }),
  setting<number>({
    flags: '--time-scale <k>',
    section: 'plan',
    help: "simulated seconds per real second of a tmas sim-server --capacity --time-scale k: with --check or --from, the run's makespan is read in the server's seconds; with --metrics-from, its rates are",
    parse: decimal(0.001, 1_000_000),
    default: CAPACITY_DEFAULTS.timeScale,
  }),
  setting<boolean>({ flags: '--json', section: 'plan', help: 'print the plan as one JSON object' }),
];
