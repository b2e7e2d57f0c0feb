/**
 * Benchmark: a run whose bound is its longest chain, not its work. At 30
 * problems × 3 iterations × 8 × 8 on four replicas of the capacity model
 * (--concurrency 800), the servers could decode every token in about three
 * quarters of the time the longest problem's chain of dependent calls takes
 * at one sequence's speed, so the makespan is set by how soon each problem's
 * critical calls run, not by how busy the servers are. Four pools: four equal
 * replicas, and four of which two run at half speed, each with output lengths
 * independent of the problem (the capacity model's default) and with lengths
 * that depend on it (problem spread 0.5: a hard problem makes every call
 * think longer, as with a real model).
 *
 * Each run is then replayed offline on the same servers (chain-replay.ts)
 * under tmas's ranking and under a clairvoyant one that knows every call's
 * length in advance, future calls included: the gap between tmas and the
 * clairvoyant replay is what knowing the future would buy; the gap between
 * tmas's live run and its replay is what the live gateway loses (finding each
 * knee, reading each replica's pace).
 */
import { TMAS } from './capacity.bench.ts';
import { replayChains } from './chain-replay.ts';
import { measureVariant, replicaCapacity, type RunSize, type ServerSet } from './capacity-measure.ts';
import { writeBenchProblems } from '../harness/problems.ts';
import type { Benchmark, BenchRow } from '../harness/types.ts';
import { resolveCapacity } from '../../src/sim/capacity/options.ts';

const SIZE: RunSize = { problems: 30, iterations: 3 };
const QUICK_SIZE: RunSize = { problems: 6, iterations: 2 };
const REPLICAS = 4;
/** Simulated seconds a real second: 200 / replicas, as in capacity-replicas. */
const TIME_SCALE = 50;

/** One pool: whether half its replicas run at half speed, how much lengths depend on the problem, the most makespan over bound. */
interface ChainShape {
  label: string;
  halfSpeed: boolean;
  spread: number;
  target: number;
}

const SHAPES: ChainShape[] = [
  { label: '4 equal servers, lengths independent of the problem', halfSpeed: false, spread: 0, target: 1.1 },
  { label: '4 servers, 2 at half speed, lengths independent of the problem', halfSpeed: true, spread: 0, target: 1.2 },
  { label: '4 equal servers, problem spread 0.5', halfSpeed: false, spread: 0.5, target: 1.1 },
  { label: '4 servers, 2 at half speed, problem spread 0.5', halfSpeed: true, spread: 0.5, target: 1.2 },
];

/** The servers of one shape. */
function serverSet(shape: ChainShape): ServerSet {
  return {
    capacity: { outputTokensProblemSpread: shape.spread },
    replicas: REPLICAS,
    timeScale: TIME_SCALE,
    ...(shape.halfSpeed ? { slower: { replicas: REPLICAS / 2, factor: 0.5 } } : {}),
  };
}

/** One shape's run, live and replayed. */
async function shapeRows(context: Parameters<Benchmark['run']>[0], shape: ChainShape, size: RunSize, file: string): Promise<BenchRow[]> {
  const label = `capacity-chains: ${shape.label}`;
  const servers = serverSet(shape);
  const f = await measureVariant(context, { variant: TMAS, servers, size, file, label });
  const replicas = Array.from({ length: REPLICAS }, (_, index) => resolveCapacity(replicaCapacity(servers, index)));
  const replayed = await replayChains(f.outputDir, replicas);
  const ratio = f.makespan / f.bound;
  const work = f.decoded / replicas.reduce((sum, capacity) => sum + capacity.decodeTokensPerSecond, 0);
  return [
    {
      figure: `${label}: makespan / bound`,
      target: `≤ ${shape.target.toFixed(2)}`,
      measured: `${ratio.toFixed(3)}x (${(f.makespan / 3600).toFixed(2)} h / ${(f.bound / 3600).toFixed(2)} h simulated)`,
      pass: ratio <= shape.target,
      note: `${f.calls} calls; the bound is the longest chain at 100 tok/s, the work alone ${(work / 3600).toFixed(2)} h; utilization ${(f.utilization * 100).toFixed(1)}%, last tenth ${(f.tail * 100).toFixed(1)}%; load average ${f.load.start.toFixed(0)} at the start, ${f.load.end.toFixed(0)} at the end`,
    },
    {
      figure: `${label}: the same calls replayed offline, tmas's ranking / clairvoyant`,
      target: '—',
      measured: `${replayed.ranked.toFixed(3)}x / ${replayed.clairvoyant.toFixed(3)}x`,
      pass: null,
      note: 'replayed through the capacity model with the true knees; clairvoyant: each call ranked by the true longest chain from it to its problem’s end, the lengths of calls not yet sent included',
    },
  ];
}

/** TMAS runs whose bound is their longest chain, on four replicas. */
export const capacityChainsBenchmark: Benchmark = {
  name: 'capacity-chains',
  async run(context) {
    const size = context.quick ? QUICK_SIZE : SIZE;
    const file = await writeBenchProblems(context.dir, size.problems);
    const rows: BenchRow[] = [];
    for (const shape of context.quick ? SHAPES.slice(0, 2) : SHAPES) rows.push(...(await shapeRows(context, shape, size, file)));
    rows.push({
      figure: 'capacity-chains: the runs',
      target: '—',
      measured: `${size.problems} problems × ${size.iterations} iterations × 8 × 8 with ${TMAS.name}, --concurrency 800`,
      pass: null,
      note: `each server the capacity model's defaults (half speed: D and the per-sequence ceiling halved); time scale ${TIME_SCALE}; every figure is simulated time`,
    });
    return rows;
  },
};
