/**
 * Benchmark: one TMAS run at a size users run (100 problems × 4 iterations
 * × 8 × 8, 32,800 calls, --concurrency 800) on pools of replicas of the
 * simulator's capacity model of one GPU, each replica its own
 * `tmas sim-server --capacity` process and tmas pointed at all of them
 * (`--base-url` with a comma list: one replica pool), as on a cluster: 1, 2,
 * 4 and 8 equal servers, 4 of which 2 run at half speed, and 4 of which one
 * is lost a third of the way through the run. It reports each run's makespan
 * against its bound, its throughput beside the single server's, its
 * utilization over the run and its last tenth, its prefix-cache hits beside
 * the single server's, and how evenly the pool spread the work; for the lost
 * replica, whether any call was paid twice. All figures are in simulated time.
 *
 * Each server set runs `200 / R` simulated seconds a second, so that every
 * run asks about as many calls a real second of tmas (about 100) as the
 * single server's does: tmas's own pace on a loaded machine would otherwise
 * show as idle servers in the larger pools.
 */
import { TMAS } from './capacity.bench.ts';
import { tableRows } from './capacity-table.ts';
import { measureVariant, type CapacityFigures, type RunSize, type ServerSet } from './capacity-measure.ts';
import { writeBenchProblems } from '../harness/problems.ts';
import type { Benchmark, BenchRow } from '../harness/types.ts';
import { CAPACITY_DEFAULTS, describeCapacity, resolveCapacity } from '../../src/sim/capacity/options.ts';

const SIZE: RunSize = { problems: 100, iterations: 4 };
const QUICK_SIZE: RunSize = { problems: 8, iterations: 2 };
/**
 * The six-method table's size: each problem costs the six methods about 1,000 calls under the
 * protocol (majority's pool of 256 samples among them), so 24 problems make about 24,000 calls, run twice.
 */
const TABLE = { size: { problems: 24, iterations: 4 }, replicas: 4, target: 1.05 };
const QUICK_TABLE = { size: { problems: 4, iterations: 2 }, replicas: 2, target: 1.05 };
/** Simulated seconds a real second for one server. */
const SINGLE_TIME_SCALE = 200;

/** A pool the benchmark runs on; `targets` are the issue's for it. */
interface PoolShape {
  label: string;
  replicas: number;
  /** Replicas at half speed, the first of the pool. */
  halfSpeed?: number;
  /** The last replica is lost once this share of the tokens the same pool whole decoded is decoded. */
  loseAt?: number;
  /** Most makespan over bound; the least utilization over the last tenth and the most points of prefix-cache hits under one server's, where the issue sets them. */
  targets?: { makespan: number; tail?: number; hitPoints?: number };
}

const EQUAL = { makespan: 1.03, tail: 0.7, hitPoints: 5 };
/** The single server first: the others' throughput and cache hits are read against it; a pool whole before the same pool losing a replica. */
const SHAPES: PoolShape[] = [
  { label: '1 server', replicas: 1 },
  { label: '2 servers', replicas: 2, targets: EQUAL },
  { label: '4 servers', replicas: 4, targets: EQUAL },
  { label: '8 servers', replicas: 8, targets: EQUAL },
  { label: '4 servers, 2 at half speed', replicas: 4, halfSpeed: 2, targets: { makespan: 1.05 } },
  { label: '4 servers, 1 lost at a third', replicas: 4, loseAt: 1 / 3, targets: { makespan: 1.05 } },
];
const QUICK_SHAPES: PoolShape[] = [
  { label: '1 server', replicas: 1 },
  { label: '2 servers', replicas: 2 },
  { label: '2 servers, 1 at half speed', replicas: 2, halfSpeed: 1 },
  { label: '2 servers, 1 lost at a third', replicas: 2, loseAt: 1 / 3 },
];

const D = CAPACITY_DEFAULTS.decodeTokensPerSecond;
const C = CAPACITY_DEFAULTS.sequenceTokensPerSecond;

/** The rows of one pool's run; `single` is the one-server run's figures, `whole` the same pool's without a loss. */
function replicaRows(shape: PoolShape, f: CapacityFigures, single: CapacityFigures, whole: CapacityFigures | undefined): BenchRow[] {
  const label = `capacity-replicas: ${shape.label}`;
  const ratio = f.makespan / f.bound;
  const { targets } = shape;
  const hitPoints = (single.hitRate - f.hitRate) * 100;
  const rows: BenchRow[] = [
    {
      figure: `${label}: makespan / bound`,
      target: targets === undefined ? '—' : `≤ ${targets.makespan.toFixed(2)}`,
      measured: `${ratio.toFixed(3)}x (${(f.makespan / 3600).toFixed(2)} h / ${(f.bound / 3600).toFixed(2)} h simulated)`,
      pass: targets === undefined ? null : ratio <= targets.makespan,
      note: `${f.calls} calls; ${boundText(shape)}; load average ${f.load.start.toFixed(0)} at the start, ${f.load.end.toFixed(0)} at the end; ${f.knees.join('; ')}`,
    },
    {
      figure: `${label}: throughput, utilization (run, last tenth)`,
      target: targets?.tail === undefined ? '—' : `last tenth ≥ ${(targets.tail * 100).toFixed(0)}%`,
      measured: `${f.throughput.toFixed(0)} tok/s simulated (${(f.throughput / single.throughput).toFixed(2)}x one server's, makespan ${(single.makespan / f.makespan).toFixed(2)}x shorter); ${(f.utilization * 100).toFixed(1)}%, ${(f.tail * 100).toFixed(1)}%`,
      pass: targets?.tail === undefined ? null : f.tail >= targets.tail,
      note: `each replica decoded ${(f.balance.min * 100).toFixed(0)}-${(f.balance.max * 100).toFixed(0)}% of its share (by its throughput)`,
    },
    {
      figure: `${label}: server queue, cache, waste (mean of the replicas)`,
      target: targets?.hitPoints === undefined ? '—' : `prefix hits within ${targets.hitPoints} points of one server's`,
      measured: `waiting p50 ${f.waiting.p50.toFixed(0)} p90 ${f.waiting.p90.toFixed(0)} requests; wait p50 ${f.queueWait.p50.toFixed(0)} s p90 ${f.queueWait.p90.toFixed(0)} s; prefix hits ${(f.hitRate * 100).toFixed(0)}% (one server ${(single.hitRate * 100).toFixed(0)}%); wasted ${f.wasted} tokens`,
      pass: targets?.hitPoints === undefined ? null : hitPoints <= targets.hitPoints,
    },
  ];
  if (f.lost !== null) rows.push(lossRow(label, f, whole));
  return rows;
}

/** What the bound of a pool's run is made of. */
function boundText(shape: PoolShape): string {
  const chain = `longest problem chain at ${C} tok/s`;
  if (shape.loseAt !== undefined) return `bound = max(tokens the ${shape.replicas - 1} servers left decoded / (${shape.replicas - 1} × ${D}), ${chain})`;
  if (shape.halfSpeed !== undefined) return `bound = max(decoded tokens / (${shape.replicas - shape.halfSpeed} × ${D} + ${shape.halfSpeed} × ${D / 2}), ${chain})`;
  return `bound = max(decoded tokens / (${shape.replicas} × ${D}), ${chain})`;
}

/** Whether a call was paid twice when a replica was lost: the journal against the pool whole's, and the requests the servers finished against the journal. */
function lossRow(label: string, f: CapacityFigures, whole: CapacityFigures | undefined): BenchRow {
  const lost = f.lost as NonNullable<CapacityFigures['lost']>;
  const same = whole === undefined || f.journaled === whole.journaled;
  return {
    figure: `${label}: calls paid twice`,
    target: 'none; the journal as the pool whole',
    measured: `${f.finished - f.journaled} (servers finished ${f.finished} requests, the journal holds ${f.journaled} calls${whole === undefined ? '' : `, the pool whole's ${whole.journaled}`})`,
    pass: f.finished <= f.journaled && same,
    note: `the lost replica had decoded ${lost.decoded} tokens and held ${lost.held} requests when it went; their tokens count as lost, not paid twice (each call is journaled once, from the replica that finished it)`,
  };
}

/** The servers of one pool's run; `whole` is the same pool's run without a loss, whose tokens place the loss. */
function serverSet(shape: PoolShape, whole: CapacityFigures | undefined): ServerSet {
  return {
    capacity: {},
    replicas: shape.replicas,
    timeScale: SINGLE_TIME_SCALE / shape.replicas,
    ...(shape.halfSpeed === undefined ? {} : { slower: { replicas: shape.halfSpeed, factor: 0.5 } }),
    ...(shape.loseAt === undefined || whole === undefined ? {} : { loseAtTokens: shape.loseAt * whole.decoded }),
  };
}

/** The same TMAS run on one server and on pools of replicas. */
export const capacityReplicasBenchmark: Benchmark = {
  name: 'capacity-replicas',
  async run(context) {
    const size = context.quick ? QUICK_SIZE : SIZE;
    const file = await writeBenchProblems(context.dir, size.problems);
    const runs: Array<{ shape: PoolShape; figures: CapacityFigures; whole: CapacityFigures | undefined }> = [];
    for (const shape of context.quick ? QUICK_SHAPES : SHAPES) {
      const whole = runs.find((run) => run.shape.replicas === shape.replicas && run.shape.loseAt === undefined && run.shape.halfSpeed === undefined)?.figures;
      const servers = serverSet(shape, whole);
      runs.push({ shape, whole, figures: await measureVariant(context, { variant: TMAS, servers, size, file, label: `capacity-replicas: ${shape.label}` }) });
    }
    const single = (runs[0] as (typeof runs)[number]).figures;
    const table = context.quick ? QUICK_TABLE : TABLE;
    const tableFile = await writeBenchProblems(context.dir, table.size.problems);
    const tables = await tableRows(context, { ...table, file: tableFile, timeScale: SINGLE_TIME_SCALE / table.replicas });
    return [
      ...runs.flatMap((run) => replicaRows(run.shape, run.figures, single, run.whole)),
      {
        figure: 'capacity-replicas: each server',
        target: '—',
        measured: `simulated: ${describeCapacity(resolveCapacity({}))}; half speed: D and the per-sequence ceiling halved`,
        pass: null,
        note: `${size.problems} problems × ${size.iterations} iterations × 8 × 8 with ${TMAS.name}; time scale ${SINGLE_TIME_SCALE} / replicas; every figure above is simulated time`,
      },
      ...tables,
    ];
  },
};
