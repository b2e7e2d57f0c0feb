/**
 * One TMAS run of the capacity benchmarks (capacity.bench.ts,
 * capacity-replicas.bench.ts) against fresh capacity models of one or more
 * GPU servers, each its own `tmas sim-server --capacity` process, measured
 * from the servers' own figures (GET /sim/stats). Every figure is in
 * simulated time.
 *
 * Lower bound of the makespan: max(total decoded tokens / (R × D), the
 * longest problem's chain of dependent calls decoded at the per-sequence
 * ceiling c), R replicas of D tokens/s each (the sum of their D when some
 * are slower; with a replica lost, the tokens the others decoded over their
 * own D: what the servers left had to do).
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { criticalPathMs } from '../harness/critical-path.ts';
import { loseReplicaAt } from './replica-loss.ts';
import { startSimProcess, type SimProcess } from '../harness/sim-process.ts';
import { measureRun } from '../harness/tmas-run.ts';
import type { BenchContext } from '../harness/types.ts';
import type { EndpointStats } from '../../src/gateway/gateway.ts';
import { Store } from '../../src/store/store.ts';
import type { CapacityStats } from '../../src/sim/capacity/engine.ts';
import { resolveCapacity, type CapacityOptions } from '../../src/sim/capacity/options.ts';
import type { SimMetrics } from '../../src/sim/server.ts';

/** One run's figures, in simulated seconds and fractions; sums and means over the replicas. */
export interface CapacityFigures {
  replicas: number;
  makespan: number;
  bound: number;
  /** Decoded tokens ÷ (R × D × makespan). */
  utilization: number;
  /** Decoded tokens per simulated second, all replicas together. */
  throughput: number;
  /** Mean busy fraction of the replicas over the run's last tenth. */
  tail: number;
  wasted: number;
  hitRate: number;
  /** Means over the replicas. */
  waiting: { p50: number; p90: number };
  queueWait: { p50: number; p90: number };
  /** The least and the most a replica decoded, as shares of an even split (1 = even). */
  balance: { min: number; max: number };
  calls: number;
  /** Each server's knee as the gateway read it at the end: `knee 79 (counter), limit 87`. */
  knees: string[];
  /** The machine's 1-minute load average when the run started and ended: a loaded machine starves the client, which shows as idle servers. */
  load: { start: number; end: number };
  /** Tokens the servers decoded, all together. */
  decoded: number;
  /** Calls in the run's journal, and requests the servers finished (more would mean a call decoded twice). */
  journaled: number;
  finished: number;
  /** The replica lost mid-run: what it had decoded and held (running and waiting) when it went; null when none was. */
  lost: { decoded: number; held: number } | null;
  /** The run's directory, for what is read from its journal afterwards. */
  outputDir: string;
}

/**
 * One run of a benchmark: its name, the `tmas run` flags it adds, what the
 * server's /metrics expose (vllm when absent), whether its streams honour
 * `continuous_usage_stats` (true when absent), and how many characters of
 * text it streams per token (the model's setting when absent).
 */
export interface Variant {
  name: string;
  args: string[];
  metrics?: SimMetrics;
  continuousUsage?: false;
  textCharsPerToken?: number;
}

/** The size of one TMAS run (× 8 candidates × 8 verifications). */
export interface RunSize {
  problems: number;
  iterations: number;
}

/** The servers of a run: how many replicas of which capacity, how many simulated seconds a real second. */
export interface ServerSet {
  capacity: CapacityOptions;
  replicas: number;
  timeScale: number;
  /** The first `replicas` decode at `factor` of the others' pace, per sequence and in all (an older GPU). */
  slower?: { replicas: number; factor: number };
  /** The last replica is stopped once the servers have decoded this many tokens. */
  loseAtTokens?: number;
}

/** The capacity of replica `index` of the set. */
export function replicaCapacity(servers: ServerSet, index: number): CapacityOptions {
  const { slower } = servers;
  if (slower === undefined || index >= slower.replicas) return servers.capacity;
  const { decodeTokensPerSecond: D, sequenceTokensPerSecond: c } = resolveCapacity(servers.capacity);
  return { ...servers.capacity, decodeTokensPerSecond: D * slower.factor, sequenceTokensPerSecond: c * slower.factor };
}

/** Calls in a run's journal. */
async function journaledCalls(outputDir: string): Promise<number> {
  const store = await Store.open(outputDir);
  try {
    let count = 0;
    for await (const _ of store.calls().keys()) count++;
    return count;
  } finally {
    await store.close();
  }
}

async function simStats(url: string): Promise<CapacityStats> {
  const response = await fetch(new URL('/sim/stats', url));
  return (await response.json()) as CapacityStats;
}

/** Mean busy fraction over [from, to) of the timeline (buckets weighted by their overlap). */
function busyBetween(stats: CapacityStats, from: number, to: number): number {
  const points = stats.timeline;
  let covered = 0;
  let busy = 0;
  points.forEach((point, index) => {
    const end = points[index + 1]?.t ?? stats.elapsedSeconds;
    const overlap = Math.min(end, to) - Math.max(point.t, from);
    if (overlap <= 0) return;
    covered += overlap;
    busy += point.busy * overlap;
  });
  return covered === 0 ? 0 : busy / covered;
}

/** What the run's metrics.json says of each server's knee and final limit, so that an outlier can be traced after the fact. */
async function kneesOf(outputDir: string): Promise<string[]> {
  const metrics = JSON.parse(await readFile(path.join(outputDir, 'metrics.json'), 'utf8')) as { gateway?: { endpoints?: EndpointStats[] } };
  return (metrics.gateway?.endpoints ?? []).map((e) => {
    const knee = e.knee === null ? `no knee, limit ${e.limit}` : `knee ${e.knee.toFixed(0)} (${e.kneeSource}), limit ${e.limit}`;
    // The calls each replica answered, and of those how many the router sent where their prompt's prefix was (absent before --routing).
    return `${knee}, ${e.calls} calls${e.prefixHits === undefined ? '' : ` (${e.prefixHits} to their prefix)`}${e.drained ? ', drained' : ''}`;
  });
}

const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

/** The `tmas run` flags of a benchmark run of `size` at --concurrency 800, before the endpoint and the variant's own. */
export function runArgs(file: string, size: RunSize): string[] {
  return ['--input-file', file, '--model-name', 'tmas-sim', '--no-proof', '--max-iterations', String(size.iterations), '--n-candidates', '8', '--n-verifications', '8', '--concurrency', '800'];
}

/**
 * One TMAS run of `variant` against fresh capacity models (so that their
 * queues, caches and timelines are this run's alone), tmas pointed at all of
 * them as one replica pool (`--base-url` with a comma list).
 */
export async function measureVariant(
  { dir, log }: Pick<BenchContext, 'dir' | 'log'>,
  { variant, servers, size, file, label }: { variant: Variant; servers: ServerSet; size: RunSize; file: string; label: string },
): Promise<CapacityFigures> {
  const sims: SimProcess[] = [];
  try {
    for (let replica = 0; replica < servers.replicas; replica++) {
      sims.push(
        await startSimProcess({
          problems: file,
          capacity: { ...replicaCapacity(servers, replica), timeScale: servers.timeScale, ...(variant.textCharsPerToken === undefined ? {} : { textCharsPerToken: variant.textCharsPerToken }) },
          ...(variant.metrics === undefined ? {} : { metrics: variant.metrics }),
          ...(variant.continuousUsage === undefined ? {} : { continuousUsage: variant.continuousUsage }),
        }),
      );
    }
    log(`${label}: ${variant.name}, ${servers.replicas} server(s), ${size.problems} problems × ${size.iterations} iterations × 8 × 8`);
    const before = await Promise.all(sims.map((sim) => simStats(sim.url)));
    const loadAtStart = os.loadavg()[0] ?? 0;
    const victim = sims[sims.length - 1] as SimProcess;
    const loss = servers.loseAtTokens === undefined ? null : loseReplicaAt(sims, victim, servers.loseAtTokens, before, simStats);
    // With tmas's defaults: the servers run `timeScale` times faster than real time, and tmas reads their load as often as its pace asks (poll-period.ts).
    const run = await measureRun({ dir, args: [...runArgs(file, size), '--base-url', sims.map((sim) => sim.url).join(','), ...variant.args] }).finally(() => loss?.stop());
    const lost = loss === null ? null : await loss.lost;
    const after = await Promise.all(sims.map((sim) => (lost !== null && sim === victim ? lost : simStats(sim.url))));
    const load = { start: loadAtStart, end: os.loadavg()[0] ?? 0 };
    const figures = await figuresOf(before, after, { servers, outputDir: run.outcome.outputDir, calls: run.outcome.calls.issued, load, lost: lost !== null });
    log(`${label}: ${variant.name}: makespan ${figures.makespan.toFixed(0)} s, bound ${figures.bound.toFixed(0)} s, ${figures.calls} calls in ${(run.wallMs / 1000).toFixed(0)} s real`);
    return figures;
  } finally {
    await Promise.all(sims.map((sim) => sim.stop()));
  }
}

/** The run's figures from each server's stats before and after it; with `lost`, the last server's are from just before it went. */
async function figuresOf(
  before: CapacityStats[],
  after: CapacityStats[],
  { servers, outputDir, calls, load, lost }: { servers: ServerSet; outputDir: string; calls: number; load: CapacityFigures['load']; lost: boolean },
): Promise<CapacityFigures> {
  const capacities = after.map((_, index) => resolveCapacity(replicaCapacity(servers, index)));
  // The servers that ran to the end: all but a lost one.
  const kept = after.map((_, index) => !lost || index < after.length - 1);
  const D = capacities.reduce((sum, capacity, index) => sum + (kept[index] ? capacity.decodeTokensPerSecond : 0), 0);
  const C = Math.max(...capacities.map((capacity) => capacity.sequenceTokensPerSecond));
  // Each server's clock started with its process: each is measured from its own first busy moment, since tmas's own
  // start-up (a second of real time) would count `timeScale` times over; the run's makespan is the longest of them.
  const starts = after.map((stats, index) => {
    const from = before[index]?.elapsedSeconds ?? 0;
    return Math.max(from, stats.timeline.find((point) => point.busy > 0)?.t ?? from);
  });
  const keptOf = <T>(values: T[]): T[] => values.filter((_, index) => kept[index]);
  const makespan = Math.max(...keptOf(after.map((stats, index) => stats.elapsedSeconds - (starts[index] ?? 0))));
  const decodedEach = after.map((stats) => stats.tokens.decoded);
  const decoded = decodedEach.reduce((sum, tokens) => sum + tokens, 0);
  const keptDecoded = keptOf(decodedEach).reduce((sum, tokens) => sum + tokens, 0);
  const chain = (await criticalPathMs(outputDir, (call) => call.usage.completionTokens)) / C;
  const prompt = after.reduce((sum, stats) => sum + stats.tokens.prompt, 0);
  const evenShare = (tokens: number, index: number) => (tokens * D) / ((capacities[index]?.decodeTokensPerSecond ?? 1) * keptDecoded);
  const last = after[after.length - 1] as CapacityStats;
  return {
    replicas: servers.replicas,
    makespan,
    bound: Math.max(keptDecoded / D, chain),
    utilization: keptDecoded / (D * makespan),
    throughput: decoded / makespan,
    tail: mean(keptOf(after.map((stats, index) => busyBetween(stats, (starts[index] ?? 0) + 0.9 * makespan, (starts[index] ?? 0) + makespan)))),
    wasted: after.reduce((sum, stats) => sum + stats.tokens.wasted, 0),
    hitRate: prompt > 0 ? after.reduce((sum, stats) => sum + stats.tokens.cachedPrompt, 0) / prompt : 0,
    waiting: { p50: mean(after.map((stats) => stats.waiting.p50)), p90: mean(after.map((stats) => stats.waiting.p90)) },
    queueWait: { p50: mean(after.map((stats) => stats.queueWaitSeconds.p50)), p90: mean(after.map((stats) => stats.queueWaitSeconds.p90)) },
    // Each replica's share against what its D would give it of the pool's tokens.
    balance: { min: Math.min(...keptOf(decodedEach.map(evenShare))), max: Math.max(...keptOf(decodedEach.map(evenShare))) },
    calls,
    knees: await kneesOf(outputDir),
    load,
    decoded,
    journaled: await journaledCalls(outputDir),
    finished: after.reduce((sum, stats, index) => sum + stats.requests.finished - (before[index]?.requests.finished ?? 0), 0),
    lost: lost ? { decoded: last.tokens.decoded, held: last.requests.running + last.requests.waiting } : null,
    outputDir,
  };
}
