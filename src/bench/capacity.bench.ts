/**
 * Benchmark: a TMAS run on the simulator's capacity model of one GPU server
 * (src/sim/capacity/), at --concurrency 800, against the limit a server
 * of that capacity sets. All figures are in simulated time.
 *
 * Lower bound of the makespan: max(total decoded tokens / D, the longest
 * problem's chain of dependent calls decoded at the per-sequence ceiling c).
 * The runs: tmas as it is (pipelined, calls held in tmas by rank), the way a
 * plain asyncio client runs (phase barriers, everything handed to the
 * server), the same with the judge, and ablations of each part of the policy.
 */
import { criticalPathMs } from './critical-path.ts';
import { writeBenchProblems } from './problems.ts';
import { startSimProcess } from './sim-process.ts';
import { measureRun } from './tmas-run.ts';
import type { Benchmark, BenchRow } from './types.ts';
import type { CapacityStats } from '../sim/capacity/engine.ts';
import { CAPACITY_DEFAULTS } from '../sim/capacity/options.ts';

/** One run's figures, in simulated seconds and fractions. */
interface CapacityFigures {
  makespan: number;
  bound: number;
  utilization: number;
  tail: number;
  wasted: number;
  hitRate: number;
  waiting: { p50: number; p90: number };
  queueWait: { p50: number; p90: number };
  calls: number;
}

// The benchmark's server is the model's defaults.
const D = CAPACITY_DEFAULTS.decodeTokensPerSecond;
const C = CAPACITY_DEFAULTS.sequenceTokensPerSecond;

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

/** The capacity benchmark. */
export const capacityBenchmark: Benchmark = {
  name: 'capacity',
  async run({ quick, dir, log }) {
    const problems = quick ? 8 : 24;
    const iterations = quick ? 2 : 4;
    const timeScale = 200;
    const file = await writeBenchProblems(dir, problems);
    const base = ['--input-file', file, '--model-name', 'tmas-sim', '--no-proof', '--max-iterations', String(iterations), '--n-candidates', '8', '--n-verifications', '8', '--concurrency', '800'];
    // The simulated server runs 200 times faster than real time: its load is read every 25 ms (5 simulated s), as a real one every 500 ms would be read against calls that last minutes.
    const variants: Array<{ name: string; args: string[] }> = [
      { name: 'tmas (pipelined, held in tmas by rank)', args: ['--judge-passes', '0'] },
      { name: 'asyncio-like (barrier, server queue)', args: ['--judge-passes', '0', '--schedule', 'barrier', '--server-queue', 'server', '--dispatch-order', 'fifo'] },
      { name: 'tmas with --judge-passes 4', args: ['--judge-passes', '4'] },
      { name: 'ablation: pipelined, server queue (before)', args: ['--judge-passes', '0', '--server-queue', 'server', '--dispatch-order', 'fifo'] },
      { name: 'ablation: pipelined, held in tmas, fifo', args: ['--judge-passes', '0', '--dispatch-order', 'fifo'] },
      { name: 'ablation: barrier, held in tmas by rank', args: ['--judge-passes', '0', '--schedule', 'barrier'] },
    ];
    const figures = new Map<string, CapacityFigures>();
    for (const variant of quick ? variants.slice(0, 3) : variants) {
      // A fresh server per run, so that its queue, cache and timeline are this run's alone.
      const sim = await startSimProcess({ problems: file, capacity: { timeScale } });
      try {
        log(`capacity: ${variant.name}, ${problems} problems × ${iterations} iterations × 8 × 8`);
        const before = await simStats(sim.url);
        const run = await measureRun({ dir, args: [...base, '--base-url', sim.url, '--load-poll-ms', '25', ...variant.args] });
        const after = await simStats(sim.url);
        // From the server's first busy moment: tmas's own start-up (a second of real time) would count 200 times over.
        const firstBusy = after.timeline.find((point) => point.busy > 0)?.t ?? before.elapsedSeconds;
        const start = Math.max(before.elapsedSeconds, firstBusy);
        const makespan = after.elapsedSeconds - start;
        const chain = (await criticalPathMs(run.outcome.outputDir, (call) => call.usage.completionTokens)) / C;
        const bound = Math.max(after.tokens.decoded / D, chain);
        figures.set(variant.name, {
          makespan,
          bound,
          utilization: after.tokens.decoded / (D * makespan),
          tail: busyBetween(after, start + 0.9 * makespan, start + makespan),
          wasted: after.tokens.wasted,
          hitRate: after.prefixCacheHitRate,
          waiting: after.waiting,
          queueWait: after.queueWaitSeconds,
          calls: run.outcome.calls.issued,
        });
        log(`capacity: ${variant.name}: makespan ${makespan.toFixed(0)} s, bound ${bound.toFixed(0)} s, ${run.outcome.calls.issued} calls in ${(run.wallMs / 1000).toFixed(0)} s real`);
      } finally {
        await sim.stop();
      }
    }
    const rows: BenchRow[] = [];
    const barrier = figures.get('asyncio-like (barrier, server queue)');
    for (const [name, f] of figures) {
      const ratio = f.makespan / f.bound;
      const isDefault = name.startsWith('tmas (');
      rows.push(
        {
          figure: `capacity: ${name}: makespan / bound`,
          target: isDefault ? '≤ 1.04, ahead of barrier' : '—',
          measured: `${ratio.toFixed(3)}x (${(f.makespan / 3600).toFixed(2)} h / ${(f.bound / 3600).toFixed(2)} h simulated)`,
          pass: isDefault ? ratio <= 1.04 && (barrier === undefined || f.makespan < barrier.makespan) : null,
          note: `${f.calls} calls; bound = max(decoded tokens / ${D}, longest problem chain at ${C} tok/s)`,
        },
        {
          figure: `capacity: ${name}: utilization (run, last tenth)`,
          target: isDefault ? '≥ 95%, ≥ 60%' : '—',
          measured: `${(f.utilization * 100).toFixed(1)}%, ${(f.tail * 100).toFixed(1)}%`,
          pass: isDefault ? f.utilization >= 0.95 && f.tail >= 0.6 : null,
        },
        {
          figure: `capacity: ${name}: server queue, cache, waste`,
          target: isDefault ? '0 wasted' : '—',
          measured: `waiting p50 ${f.waiting.p50.toFixed(0)} p90 ${f.waiting.p90.toFixed(0)} requests; wait p50 ${f.queueWait.p50.toFixed(0)} s p90 ${f.queueWait.p90.toFixed(0)} s; prefix hits ${(f.hitRate * 100).toFixed(0)}%; wasted ${f.wasted} tokens`,
          pass: isDefault ? f.wasted === 0 : null,
        },
      );
    }
    const { kvTokens, prefillTokensPerSecond, outputTokensMedian, outputTokensP99 } = CAPACITY_DEFAULTS;
    rows.push({
      figure: 'capacity: the server',
      target: '—',
      measured: `simulated: D ${D} tok/s, ${C} tok/s per sequence, ${kvTokens} KV tokens, prefill ${prefillTokensPerSecond} tok/s, outputs log-normal median ${outputTokensMedian} p99 ${outputTokensP99}`,
      pass: null,
      note: `time scale ${timeScale}; every figure above is simulated time`,
    });
    return rows;
  },
};
