/**
 * Benchmark: how close `tmas plan` comes to a run. A TMAS run against the
 * simulator's capacity model (its defaults: one H200-like server, thinking-
 * length outputs) at time scale 20, then the plan of the same run made
 * before it (lengths drawn, 5 draws) and the what-if replay of its journal on
 * the same server. The run's makespan is the server's, in simulated seconds,
 * from its first busy moment (as the capacity benchmark measures it).
 *
 * Then the same on a pool: a TMAS run on 4 replicas of the capacity model
 * (each its own sim-server process, tmas pointed at all of them, as the
 * capacity-replicas benchmark runs them; time scale 20 too) against the
 * forecast of it made before, on 4 replicas with the run's own --routing.
 * And the six methods of Table 1 run together on that pool (`tmas table1`)
 * against `tmas plan --strategies` of the same table.
 *
 * Why time scale 20, not the capacity benchmark's 200: whatever the run
 * itself spends between calls counts time-scale times over, and on a loaded
 * machine that is what a comparison at 200 measured (8 × 2 at 200, load 30:
 * the run 2.2 times the forecast; at 20: 1.03).
 */
import { judgeCeiling } from '../../src/settings/config.ts';
import { loopSettingsOf } from '../../src/host/problem-inputs.ts';
import { strategyNamed } from '../../machines/strategies/index.ts';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import { forecastRun } from '../../src/plan/forecast.ts';
import { drawnLengths } from '../../src/plan/lengths.ts';
import { readRunJournal } from '../../src/plan/run-journal.ts';
import { replayRun } from '../../src/plan/what-if.ts';
import { CAPACITY_DEFAULTS, resolveCapacity } from '../../src/sim/capacity/options.ts';
import type { CapacityStats } from '../../src/sim/capacity/engine.ts';
import { measureVariant, runArgs } from '../capacity/capacity-measure.ts';
import { measureTable } from '../capacity/capacity-table.ts';
import { measureCommand } from '../harness/child-process.ts';
import { TABLE1_STRATEGIES } from '../../src/cli/run/table1.command.ts';
import type { TableForecast } from '../../src/plan/table-forecast.ts';
import { TMAS } from '../capacity/capacity.bench.ts';
import { writeBenchProblems } from '../harness/problems.ts';
import { startSimProcess } from '../harness/sim-process.ts';
import { measureRun } from '../harness/tmas-run.ts';
import type { Benchmark, BenchContext, BenchRow } from '../harness/types.ts';

const TIME_SCALE = 20;
/** About 3 minutes of real time a run; quick: about 1. */
const SIZE = { problems: 8, iterations: 2 };
const QUICK_SIZE = { problems: 4, iterations: 1 };
/** The pool's run: about as many problems per replica as the single server's, so that each replica is about as loaded. */
const POOL = { replicas: 4, size: { problems: 32, iterations: 2 }, quick: { problems: 16, iterations: 1 } };
/** The six-method table on the same pool, its methods run together: about 3 minutes of real time; quick: about 1. */
const TABLE = { replicas: 4, size: { problems: 6, iterations: 2 }, quick: { problems: 2, iterations: 1 } };

async function simStats(url: string): Promise<CapacityStats> {
  return (await (await fetch(new URL('/sim/stats', url))).json()) as CapacityStats;
}

const ratioRow = (figure: string, ratio: number, note: string): BenchRow => ({
  figure,
  target: 'within 10% of the run',
  measured: `${ratio.toFixed(3)}x`,
  pass: Math.abs(ratio - 1) <= 0.1,
  note,
});

/** A TMAS run on a pool of replicas beside its forecast made before it: the row of their ratio. */
async function poolRow({ quick, dir, log }: Pick<BenchContext, 'quick' | 'dir' | 'log'>): Promise<BenchRow> {
  const size = quick ? POOL.quick : POOL.size;
  const file = await writeBenchProblems(dir, size.problems);
  const urls = Array.from({ length: POOL.replicas }, (_, index) => `http://replica-${index}:8000/v1`);
  const { config } = toRunConfig(parseRunFlags([...runArgs(file, size), ...TMAS.args, '--base-url', urls.join(',')]), {});
  const { gateway } = config;
  const servers = { replicas: urls.map(() => resolveCapacity({})), concurrency: gateway.concurrency, routing: gateway.routing, replicaMaxInFlight: gateway.replicaMaxInFlight };
  const lengths = drawnLengths({ median: CAPACITY_DEFAULTS.outputTokensMedian, p99: CAPACITY_DEFAULTS.outputTokensP99, problemSpread: 0, completionLimit: config.context.window, judgeLimit: judgeCeiling(config) });
  const forecast = forecastRun({ strategy: strategyNamed(config.loop.strategy), settings: loopSettingsOf(config), judged: Array.from({ length: size.problems }, () => true), lengths, servers, draws: 5, billing: { gpusPerReplica: 1 } });
  log(`plan: forecast ${forecast.makespanSeconds.toFixed(0)} s on ${POOL.replicas} replicas; running ${size.problems} × ${size.iterations} × 8 × 8 on them`);
  const run = await measureVariant({ dir, log }, { variant: TMAS, servers: { capacity: {}, replicas: POOL.replicas, timeScale: TIME_SCALE }, size, file, label: `plan: ${POOL.replicas} replicas` });
  const figures = `forecast ${forecast.makespanSeconds.toFixed(0)} s (draws ${forecast.makespanInterval.map((s) => s.toFixed(0)).join('-')} s, pooled bound ${forecast.boundSeconds.toFixed(0)} s, --routing ${gateway.routing}); run ${run.makespan.toFixed(0)} s (its bound ${run.bound.toFixed(0)} s)`;
  const load = `load average ${run.load.start.toFixed(0)} at the start, ${run.load.end.toFixed(0)} at the end`;
  return ratioRow(`plan: forecast of a ${POOL.replicas}-replica run / run makespan`, forecast.makespanSeconds / run.makespan, `${figures}; ${size.problems} problems × ${size.iterations} iterations × 8 × 8, ${run.calls} calls, simulated at time scale ${TIME_SCALE}; ${load}`);
}

/**
 * The six methods of Table 1 run together on the pool (`tmas table1`, one
 * gateway) beside `tmas plan --strategies` of the same table made before it:
 * the row of their ratio.
 */
async function tableRow({ quick, dir, log }: Pick<BenchContext, 'quick' | 'dir' | 'log'>): Promise<BenchRow> {
  const size = quick ? TABLE.quick : TABLE.size;
  const file = await writeBenchProblems(dir, size.problems);
  const args = ['--strategies', TABLE1_STRATEGIES.join(','), ...runArgs(file, size), '--judge-passes', '0', '--replicas', String(TABLE.replicas)];
  const planned = await measureCommand(['plan', ...args, '--json']);
  if (planned.code !== 0) throw new Error(`tmas plan ${args.join(' ')} exited ${planned.code}`);
  const forecast = JSON.parse(planned.stdout) as TableForecast;
  log(`plan: the table's forecast ${forecast.makespanSeconds.toFixed(0)} s on ${TABLE.replicas} replicas; running it`);
  const run = await measureTable({ dir, log }, { servers: { capacity: {}, replicas: TABLE.replicas, timeScale: TIME_SCALE }, size, file, together: true });
  const figures = `forecast ${forecast.makespanSeconds.toFixed(0)} s (draws ${forecast.makespanInterval.map((seconds) => seconds.toFixed(0)).join('-')} s; the methods one after another ${forecast.sequentialSeconds.toFixed(0)} s); run ${run.makespan.toFixed(0)} s (its bound ${run.bound.toFixed(0)} s), ${run.calls} calls`;
  return ratioRow(`plan: forecast of the six-method table on ${TABLE.replicas} replicas / run makespan`, forecast.makespanSeconds / run.makespan, `${figures}; ${TABLE1_STRATEGIES.join(', ')}, ${size.problems} problems × ${size.iterations} iterations, N = 8, M = 8, no judge, simulated at time scale ${TIME_SCALE}; load average ${run.load.toFixed(0)} at the end`);
}

/** The plan benchmark. */
export const planBenchmark: Benchmark = {
  name: 'plan',
  async run({ quick, dir, log }) {
    const { problems, iterations } = quick ? QUICK_SIZE : SIZE;
    const file = await writeBenchProblems(dir, problems);
    const args = ['--input-file', file, '--model-name', 'tmas-sim', '--no-proof', '--max-iterations', String(iterations), '--n-candidates', '8', '--n-verifications', '8', '--concurrency', '800', '--judge-passes', '0'];
    const { config } = toRunConfig(parseRunFlags(args), {});
    const servers = { replicas: [resolveCapacity({})], concurrency: config.gateway.concurrency, routing: config.gateway.routing, replicaMaxInFlight: null };
    const strategy = strategyNamed(config.loop.strategy);
    const lengths = drawnLengths({ median: CAPACITY_DEFAULTS.outputTokensMedian, p99: CAPACITY_DEFAULTS.outputTokensP99, problemSpread: 0, completionLimit: config.context.window, judgeLimit: judgeCeiling(config) });
    const forecast = forecastRun({ strategy, settings: loopSettingsOf(config), judged: Array.from({ length: problems }, () => true), lengths, servers, draws: 5, billing: { gpusPerReplica: 1 } });
    log(`plan: forecast ${forecast.makespanSeconds.toFixed(0)} s; running ${problems} × ${iterations} × 8 × 8 on the capacity model`);
    const sim = await startSimProcess({ problems: file, capacity: { timeScale: TIME_SCALE } });
    let makespan: number;
    let outputDir: string;
    try {
      const before = await simStats(sim.url);
      const run = await measureRun({ dir, args: [...args, '--base-url', sim.url] });
      const after = await simStats(sim.url);
      const firstBusy = after.timeline.find((point) => point.busy > 0)?.t ?? before.elapsedSeconds;
      makespan = after.elapsedSeconds - Math.max(before.elapsedSeconds, firstBusy);
      outputDir = run.outcome.outputDir;
    } finally {
      await sim.stop();
    }
    const journal = await readRunJournal(outputDir);
    const replay = replayRun(journal, { strategy, servers, schedule: 'pipelined' });
    const size = `${problems} problems × ${iterations} iterations × 8 × 8, ${journal.calls.length} calls (forecast ${forecast.callsTotal}, ${forecast.callsAre}); run ${makespan.toFixed(0)} s simulated at time scale ${TIME_SCALE}`;
    return [
      ratioRow('plan: forecast makespan / run makespan', forecast.makespanSeconds / makespan, `forecast ${forecast.makespanSeconds.toFixed(0)} s (draws ${forecast.makespanInterval.map((s) => s.toFixed(0)).join('-')} s); ${size}`),
      ratioRow('plan: what-if replay of the run / run makespan', replay.makespanSeconds / makespan, `replay ${replay.makespanSeconds.toFixed(0)} s; ${size}`),
      { figure: 'plan: forecast calls = run calls', target: 'exact', measured: `${forecast.callsTotal} / ${journal.calls.length}`, pass: forecast.callsTotal === journal.calls.length },
      await poolRow({ quick, dir, log }),
      await tableRow({ quick, dir, log }),
    ];
  },
};
