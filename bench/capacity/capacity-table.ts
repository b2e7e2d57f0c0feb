/**
 * The six-method table of the capacity-replicas benchmark: `tmas table1`
 * (the six methods of Table 1 with its protocol, N = 8, M = 8, MV@64) on a
 * pool of replicas of the capacity model, its methods run together through
 * one gateway, and the same table run as before, one method after another.
 * Each makespan is read against the bound of all six methods' work pooled:
 * max(every token the servers decoded / (R × D), the longest dependent chain
 * of any method at c). The chain is TMAS's critical path (critical-path.ts)
 * or, for the other methods, their longest single call, which only lowers
 * the bound: it stays a bound. All figures are in simulated time.
 */
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { criticalPathMs } from '../harness/critical-path.ts';
import { runArgs, type RunSize, type ServerSet } from './capacity-measure.ts';
import { startSimProcess, type SimProcess } from '../harness/sim-process.ts';
import type { BenchContext, BenchRow } from '../harness/types.ts';
import { parseRunFlags } from '../../src/cli/run/run.command.ts';
import { runTable1Command, TABLE1_STRATEGIES } from '../../src/cli/run/table1.command.ts';
import type { CapacityStats } from '../../src/sim/capacity/engine.ts';
import { resolveCapacity } from '../../src/sim/capacity/options.ts';
import { Store } from '../../src/store/store.ts';

/** One table's figures, in simulated seconds. */
export interface TableFigures {
  makespan: number;
  bound: number;
  decoded: number;
  /** The longest chain at c, and the method it is in. */
  chain: { seconds: number; method: string };
  calls: number;
  /** The servers' mean busy fraction by tenth of the run. */
  tenths: number[];
  /** The machine's 1-minute load average at the end: a loaded machine starves the client, which shows as idle servers. */
  load: number;
}

async function simStats(url: string): Promise<CapacityStats> {
  return (await (await fetch(new URL('/sim/stats', url))).json()) as CapacityStats;
}

/** A server's busy span: from its first busy bucket to the end of its last (the table's report, written after, is not counted). */
function busySpan(stats: CapacityStats): number {
  const points = stats.timeline;
  const first = points.findIndex((point) => point.busy > 0);
  if (first < 0) return 0;
  let last = points.length - 1;
  while ((points[last]?.busy ?? 0) === 0) last--;
  return (points[last + 1]?.t ?? stats.elapsedSeconds) - (points[first] as (typeof points)[number]).t;
}

/** The servers' mean busy fraction in each tenth of their busy span: where the idle time was (a ramp, a starved client, a tail). */
function busyByTenth(stats: CapacityStats[]): number[] {
  const tenths = Array.from({ length: 10 }, () => 0);
  for (const one of stats) {
    const points = one.timeline;
    const first = points.findIndex((point) => point.busy > 0);
    if (first < 0) continue;
    const start = (points[first] as (typeof points)[number]).t;
    const span = busySpan(one);
    points.forEach((point, index) => {
      const end = points[index + 1]?.t ?? one.elapsedSeconds;
      for (let tenth = 0; tenth < 10; tenth++) {
        const overlap = Math.min(end, start + ((tenth + 1) * span) / 10) - Math.max(point.t, start + (tenth * span) / 10);
        if (overlap > 0) tenths[tenth] = (tenths[tenth] as number) + (point.busy * overlap) / (span / 10) / stats.length;
      }
    });
  }
  return tenths;
}

/** A method's longest chain in decoded tokens, and its calls: TMAS's critical path, else its longest call. */
async function chainOf(runDir: string, method: string): Promise<{ tokens: number; calls: number }> {
  const store = await Store.open(runDir);
  let longest = 0;
  let calls = 0;
  try {
    for await (const call of store.callRecords()) {
      calls++;
      longest = Math.max(longest, call.usage.completionTokens);
    }
  } finally {
    await store.close();
  }
  return { tokens: method === 'tmas' ? await criticalPathMs(runDir, (call) => call.usage.completionTokens) : longest, calls };
}

/** Runs the six-method table on fresh servers of `servers`, its methods together or one after another. */
export async function measureTable(
  { dir, log }: Pick<BenchContext, 'dir' | 'log'>,
  { servers, size, file, together }: { servers: ServerSet; size: RunSize; file: string; together: boolean },
): Promise<TableFigures> {
  const sims: SimProcess[] = [];
  try {
    for (let replica = 0; replica < servers.replicas; replica++) sims.push(await startSimProcess({ problems: file, capacity: { ...servers.capacity, timeScale: servers.timeScale } }));
    const how = together ? 'together' : 'one after another';
    log(`capacity-replicas: six-method table, ${how}, ${servers.replicas} server(s), ${size.problems} problems × ${size.iterations} iterations`);
    const out = path.join(dir, `table-${together ? 'together' : 'sequential'}`);
    const args = [...runArgs(file, size), '--judge-passes', '0', '--base-url', sims.map((sim) => sim.url).join(','), '--output-file', out];
    const flags = { ...parseRunFlags(args), strategies: TABLE1_STRATEGIES.join(','), budgets: 'shared' as const };
    const quiet = { stdout: () => {}, stderr: () => {} };
    // A new table: the command reads its Command only to merge flags into a resumed run.
    await runTable1Command(flags, new Command(), quiet, new AbortController().signal, { together });
    const stats = await Promise.all(sims.map((sim) => simStats(sim.url)));
    const { decodeTokensPerSecond: D, sequenceTokensPerSecond: C } = resolveCapacity(servers.capacity);
    const decoded = stats.reduce((sum, one) => sum + one.tokens.decoded, 0);
    const chains = await Promise.all(TABLE1_STRATEGIES.map(async (method) => ({ method, ...(await chainOf(path.join(out, method), method)) })));
    const longest = chains.reduce((a, b) => (b.tokens > a.tokens ? b : a));
    const chain = { seconds: longest.tokens / C, method: longest.method };
    const figures = { makespan: Math.max(...stats.map(busySpan)), bound: Math.max(decoded / (servers.replicas * D), chain.seconds), decoded, chain, calls: chains.reduce((sum, one) => sum + one.calls, 0), tenths: busyByTenth(stats), load: os.loadavg()[0] ?? 0 };
    log(`capacity-replicas: six-method table, ${how}: makespan ${figures.makespan.toFixed(0)} s, bound ${figures.bound.toFixed(0)} s, ${figures.calls} calls; busy by tenth ${figures.tenths.map((busy) => (busy * 100).toFixed(0)).join(' ')}%`);
    return figures;
  } finally {
    await Promise.all(sims.map((sim) => sim.stop()));
  }
}

/** The rows of the table run both ways on `replicas` servers: the makespan together against the pooled bound (target `target`), and one after another. */
export async function tableRows(context: Pick<BenchContext, 'dir' | 'log'>, { size, file, replicas, timeScale, target }: { size: RunSize; file: string; replicas: number; timeScale: number; target: number }): Promise<BenchRow[]> {
  const servers: ServerSet = { capacity: {}, replicas, timeScale };
  const together = await measureTable(context, { servers, size, file, together: true });
  const sequential = await measureTable(context, { servers, size, file, together: false });
  const label = `capacity-replicas: six-method table on ${replicas} servers`;
  const { decodeTokensPerSecond: D, sequenceTokensPerSecond: C } = resolveCapacity({});
  const ratio = (f: TableFigures) => `${(f.makespan / f.bound).toFixed(3)}x (${(f.makespan / 3600).toFixed(2)} h / ${(f.bound / 3600).toFixed(2)} h simulated)`;
  const tenths = (f: TableFigures) => `${f.tenths.map((busy) => (busy * 100).toFixed(0)).join(' ')}%`;
  const bound = (f: TableFigures) =>
    `bound = max(${Math.round(f.decoded)} decoded tokens / (${replicas} × ${D}), longest chain ${f.chain.method}'s at ${C} tok/s: ${(f.chain.seconds / 3600).toFixed(2)} h); ${f.calls} calls`;
  return [
    {
      figure: `${label}: makespan / pooled bound, methods together`,
      target: `≤ ${target.toFixed(2)}`,
      measured: ratio(together),
      pass: together.makespan / together.bound <= target,
      note: `${TABLE1_STRATEGIES.join(', ')}: ${size.problems} problems × ${size.iterations} iterations, N = 8, M = 8, MV@64, no judge, one gateway; ${bound(together)}; servers busy by tenth of the run ${tenths(together)}; load average ${together.load.toFixed(0)} at the end`,
    },
    {
      figure: `${label}: makespan / pooled bound, one method after another (as before)`,
      target: '—',
      measured: `${ratio(sequential)}; together is ${(sequential.makespan / together.makespan).toFixed(2)}x shorter`,
      pass: null,
      note: `each method its own gateway, in turn; ${bound(sequential)}; servers busy by tenth of the run ${tenths(sequential)}`,
    },
  ];
}
