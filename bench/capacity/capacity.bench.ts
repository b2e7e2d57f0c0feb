/**
 * Benchmark: a TMAS run on the simulator's capacity model of one GPU server
 * (src/sim/capacity/), at --concurrency 800, against the limit a server
 * of that capacity sets. All figures are in simulated time.
 *
 * Lower bound of the makespan: max(total decoded tokens / D, the longest
 * problem's chain of dependent calls decoded at the per-sequence ceiling c)
 * (capacity-measure.ts runs and measures each). `capacity` carries the
 * targets, at the size the issue names (50 problems × 8 iterations): tmas as it is (pipelined, calls held in tmas by rank,
 * each server capped a little above its throughput knee), the way a plain
 * asyncio client runs (phase barriers, everything handed to the server), and
 * tmas with the judge. `capacity-ablations` takes each part of the policy
 * away on a smaller run (24 × 4, about 80 s each), and `capacity-spread`
 * repeats the main rows where output lengths depend on the problem.
 */
import { measureVariant, type CapacityFigures, type RunSize, type Variant } from './capacity-measure.ts';
import { writeBenchProblems } from '../harness/problems.ts';
import type { Benchmark, BenchRow } from '../harness/types.ts';
import { CAPACITY_DEFAULTS, describeCapacity, resolveCapacity, type CapacityOptions } from '../../src/sim/capacity/options.ts';

// The benchmark's server is the model's defaults.
const D = CAPACITY_DEFAULTS.decodeTokensPerSecond;
const C = CAPACITY_DEFAULTS.sequenceTokensPerSecond;

/** The default run, whose figures carry the targets. */
export const TMAS: Variant = { name: 'tmas (pipelined, held in tmas by rank, capped at the knee)', args: ['--judge-passes', '0'] };
/** The way a plain asyncio client runs: phase barriers, everything handed to the server. */
const ASYNCIO: Variant = { name: 'asyncio-like (barrier, server queue)', args: ['--judge-passes', '0', '--schedule', 'barrier', '--server-queue', 'server', '--dispatch-order', 'fifo'] };
const NO_KNEE: Variant = { name: 'ablation: no cap at the knee', args: ['--judge-passes', '0', '--batch-cap', 'none'] };

const JUDGED: Variant = { name: 'tmas with --judge-passes 4', args: ['--judge-passes', '4'] };

/** The size: about 5.5 minutes a run at the time scale below. */
const TARGET_SIZE: RunSize = { problems: 50, iterations: 8 };
/** For comparisons between variants: about 80 s a run. The last problems' chains (about 1,500 simulated s) weigh four times as much in it. */
const ABLATION_SIZE: RunSize = { problems: 24, iterations: 4 };
const QUICK_SIZE: RunSize = { problems: 8, iterations: 2 };

/** The benchmark's model of a server: its label, its capacity, the run's size, and whether its rows carry the targets. */
interface ServerModel {
  label: string;
  capacity: CapacityOptions;
  size: RunSize;
  targets: boolean;
}

/** The server's time scale: 200 simulated seconds a second. */
const TIME_SCALE = 200;

/** Runs `variants` of one TMAS run against fresh capacity models, and reports each against its bound (and the targets, when `targets`). */
async function capacityRows(context: Parameters<Benchmark['run']>[0], variants: Variant[], model: ServerModel): Promise<BenchRow[]> {
  const { quick, dir } = context;
  const size = quick ? QUICK_SIZE : model.size;
  const file = await writeBenchProblems(dir, size.problems);
  const figures = new Map<string, CapacityFigures>();
  const servers = { capacity: model.capacity, replicas: 1, timeScale: TIME_SCALE };
  for (const variant of quick ? variants.slice(0, 2) : variants) figures.set(variant.name, await measureVariant(context, { variant, servers, size, file, label: model.label }));
  return [
    ...[...figures].flatMap(([name, f]) => figureRows(model, name, f, figures.get(ASYNCIO.name))),
    {
      figure: `${model.label}: the server`,
      target: '—',
      measured: `simulated: ${describeCapacity(resolveCapacity(model.capacity))}`,
      pass: null,
      note: `${size.problems} problems × ${size.iterations} iterations × 8 × 8; time scale ${TIME_SCALE}; every figure above is simulated time`,
    },
  ];
}

/** The rows of one variant's figures; the default run's carry the targets (ahead of `barrier`, the asyncio-like run, when it ran). */
function figureRows(model: ServerModel, name: string, f: CapacityFigures, barrier: CapacityFigures | undefined): BenchRow[] {
  const ratio = f.makespan / f.bound;
  const isDefault = model.targets && name === TMAS.name;
  return [
    {
      figure: `${model.label}: ${name}: makespan / bound`,
      target: isDefault ? '≤ 1.04, ahead of barrier' : '—',
      measured: `${ratio.toFixed(3)}x (${(f.makespan / 3600).toFixed(2)} h / ${(f.bound / 3600).toFixed(2)} h simulated)`,
      pass: isDefault ? ratio <= 1.04 && (barrier === undefined || f.makespan < barrier.makespan) : null,
      note: `${f.calls} calls; bound = max(decoded tokens / ${D}, longest problem chain at ${C} tok/s); ${f.knees.join('; ')}`,
    },
    {
      figure: `${model.label}: ${name}: utilization (run, last tenth)`,
      target: isDefault ? '≥ 95%, ≥ 60%' : '—',
      measured: `${(f.utilization * 100).toFixed(1)}%, ${(f.tail * 100).toFixed(1)}%`,
      pass: isDefault ? f.utilization >= 0.95 && f.tail >= 0.6 : null,
    },
    {
      figure: `${model.label}: ${name}: server queue, cache, waste`,
      target: isDefault ? '0 wasted' : '—',
      measured: `waiting p50 ${f.waiting.p50.toFixed(0)} p90 ${f.waiting.p90.toFixed(0)} requests; wait p50 ${f.queueWait.p50.toFixed(0)} s p90 ${f.queueWait.p90.toFixed(0)} s; prefix hits ${(f.hitRate * 100).toFixed(0)}%; wasted ${f.wasted} tokens`,
      pass: isDefault ? f.wasted === 0 : null,
    },
  ];
}

/** The capacity benchmark, which carries the targets: output lengths independent of their problem (the model's default). */
export const capacityBenchmark: Benchmark = {
  name: 'capacity',
  run(context) {
    return capacityRows(context, [TMAS, ASYNCIO, JUDGED], { label: 'capacity', capacity: {}, size: TARGET_SIZE, targets: true });
  },
};

/** What each part of the policy is worth: each taken away in turn, on the smaller run. */
export const capacityAblationsBenchmark: Benchmark = {
  name: 'capacity-ablations',
  run(context) {
    return capacityRows(
      context,
      [
        TMAS,
        ASYNCIO,
        JUDGED,
        NO_KNEE,
        { name: 'ablation: pipelined, server queue (before)', args: ['--judge-passes', '0', '--server-queue', 'server', '--dispatch-order', 'fifo'] },
        { name: 'ablation: held in tmas, capped, fifo', args: ['--judge-passes', '0', '--dispatch-order', 'fifo'] },
        { name: 'ablation: barrier, held in tmas by rank, capped', args: ['--judge-passes', '0', '--schedule', 'barrier'] },
        { name: 'tmas, server without a token counter (gauges only: knee from the streams)', args: ['--judge-passes', '0'], metrics: 'gauges' },
        { name: 'tmas, server without /metrics (load and knee from the streams)', args: ['--judge-passes', '0'], metrics: 'none' },
        {
          // As TGI or llama.cpp: no metrics, usage only at the end; a thinking model's text, half a character a token (a quarter of a real one's, to keep the store small).
          name: 'tmas, server without /metrics or usage in its chunks (knee from the streamed text)',
          args: ['--judge-passes', '0'],
          metrics: 'none',
          continuousUsage: false,
          textCharsPerToken: 0.5,
        },
      ],
      { label: 'capacity-ablations', capacity: {}, size: ABLATION_SIZE, targets: false },
    );
  },
};

/**
 * The same where a problem's calls share a length factor (σ 0.4 between
 * problems), as a reasoning model thinks longer on a harder problem: then
 * some problems' chains are far longer than others, and the order matters most.
 */
export const capacitySpreadBenchmark: Benchmark = {
  name: 'capacity-spread',
  run(context) {
    return capacityRows(context, [TMAS, ASYNCIO, NO_KNEE, { name: 'ablation: fifo (no rank), no cap', args: ['--judge-passes', '0', '--dispatch-order', 'fifo', '--batch-cap', 'none'] }], {
      label: 'capacity-spread',
      capacity: { outputTokensProblemSpread: 0.4 },
      size: ABLATION_SIZE,
      targets: false,
    });
  },
};
