/**
 * Benchmark: one TMAS run at a size users run (100 problems × 4 iterations
 * × 8 × 8, 32,800 calls, --concurrency 800) on 1, 2 and 4 replicas of the
 * simulator's capacity model of one GPU, each replica its own
 * `tmas sim-server --capacity` process and tmas pointed at all of them
 * (`--base-url` with a comma list: one replica pool). It reports each run's
 * makespan against its bound, its throughput beside the single server's, its
 * utilization, and how evenly the pool spread the work. All figures are in
 * simulated time.
 *
 * Each server set runs `200 / R` simulated seconds a second, so that every
 * run asks about as many calls a real second of tmas (about 100) as the
 * single server's does: tmas's own pace on a loaded machine would otherwise
 * show as idle servers in the larger pools.
 */
import { TMAS } from './capacity.bench.ts';
import { measureVariant, type CapacityFigures, type RunSize } from './capacity-measure.ts';
import { writeBenchProblems } from './problems.ts';
import type { Benchmark, BenchRow } from './types.ts';
import { CAPACITY_DEFAULTS, describeCapacity, resolveCapacity } from '../sim/capacity/options.ts';

const SIZE: RunSize = { problems: 100, iterations: 4 };
const QUICK_SIZE: RunSize = { problems: 8, iterations: 2 };
/** Replica counts, the single server first: the others' throughput is read against it. */
const REPLICAS = [1, 2, 4];
const QUICK_REPLICAS = [1, 2];
/** Simulated seconds a real second for one server. */
const SINGLE_TIME_SCALE = 200;

const D = CAPACITY_DEFAULTS.decodeTokensPerSecond;
const C = CAPACITY_DEFAULTS.sequenceTokensPerSecond;

/** The rows of one server set's run; `single` is the one-server run's figures. */
function replicaRows(f: CapacityFigures, single: CapacityFigures): BenchRow[] {
  const label = `capacity-replicas: ${f.replicas} server${f.replicas === 1 ? '' : 's'}`;
  return [
    {
      figure: `${label}: makespan / bound`,
      target: '—',
      measured: `${(f.makespan / f.bound).toFixed(3)}x (${(f.makespan / 3600).toFixed(2)} h / ${(f.bound / 3600).toFixed(2)} h simulated)`,
      pass: null,
      note: `${f.calls} calls; bound = max(decoded tokens / (${f.replicas} × ${D}), longest problem chain at ${C} tok/s); load average ${f.load.start.toFixed(0)} at the start, ${f.load.end.toFixed(0)} at the end; ${f.knees.join('; ')}`,
    },
    {
      figure: `${label}: throughput, utilization (run, last tenth)`,
      target: '—',
      measured: `${f.throughput.toFixed(0)} tok/s simulated (${(f.throughput / single.throughput).toFixed(2)}x one server's, makespan ${(single.makespan / f.makespan).toFixed(2)}x shorter); ${(f.utilization * 100).toFixed(1)}%, ${(f.tail * 100).toFixed(1)}%`,
      pass: null,
      note: `each replica decoded ${(f.balance.min * 100).toFixed(0)}-${(f.balance.max * 100).toFixed(0)}% of an even share`,
    },
    {
      figure: `${label}: server queue, cache, waste (mean of the replicas)`,
      target: '—',
      measured: `waiting p50 ${f.waiting.p50.toFixed(0)} p90 ${f.waiting.p90.toFixed(0)} requests; wait p50 ${f.queueWait.p50.toFixed(0)} s p90 ${f.queueWait.p90.toFixed(0)} s; prefix hits ${(f.hitRate * 100).toFixed(0)}%; wasted ${f.wasted} tokens`,
      pass: null,
    },
  ];
}

/** The same TMAS run on one server and on pools of replicas. */
export const capacityReplicasBenchmark: Benchmark = {
  name: 'capacity-replicas',
  async run(context) {
    const size = context.quick ? QUICK_SIZE : SIZE;
    const file = await writeBenchProblems(context.dir, size.problems);
    const runs: CapacityFigures[] = [];
    for (const replicas of context.quick ? QUICK_REPLICAS : REPLICAS) {
      const servers = { capacity: {}, replicas, timeScale: SINGLE_TIME_SCALE / replicas };
      runs.push(await measureVariant(context, { variant: TMAS, servers, size, file, label: 'capacity-replicas' }));
    }
    const single = runs[0] as CapacityFigures;
    return [
      ...runs.flatMap((f) => replicaRows(f, single)),
      {
        figure: 'capacity-replicas: each server',
        target: '—',
        measured: `simulated: ${describeCapacity(resolveCapacity({}))}`,
        pass: null,
        note: `${size.problems} problems × ${size.iterations} iterations × 8 × 8 with ${TMAS.name}; time scale ${SINGLE_TIME_SCALE} / replicas; every figure above is simulated time`,
      },
    ];
  },
};
