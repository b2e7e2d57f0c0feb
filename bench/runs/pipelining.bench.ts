/**
 * Benchmark 2, pipelining: a heavy-tailed sim (log-normal, median 200 ms, p99
 * 3 s), 10 problems × 3 iterations × 8 × 8 at concurrency 256, under the
 * default schedule and under `--schedule barrier`. Reports the makespan and
 * the mean share of the in-flight slots in use while calls are outstanding.
 */
import { criticalPathMs } from '../harness/critical-path.ts';
import { writeBenchProblems } from '../harness/problems.ts';
import { startSimProcess } from '../harness/sim-process.ts';
import { measureRun } from '../harness/tmas-run.ts';
import type { Benchmark, BenchRow } from '../harness/types.ts';

const SAMPLE_MS = 20;

/** The pipelining benchmark. */
export const pipeliningBenchmark: Benchmark = {
  name: 'pipelining',
  async run({ quick, dir, log }) {
    const problems = quick ? 4 : 10;
    const iterations = quick ? 2 : 3;
    const concurrency = 256;
    const file = await writeBenchProblems(dir, problems);
    const sim = await startSimProcess({ problems: file, latencyMedianMs: 200, latencyP99Ms: 3000 });
    const measured: Record<string, { makespan: number; use: number; demand: number; outstanding: number }> = {};
    let bound = NaN;
    try {
      for (const schedule of ['pipelined', 'barrier'] as const) {
        log(`pipelining: ${schedule}, ${problems} problems × ${iterations} iterations × 8 × 8 at concurrency ${concurrency}`);
        const samples: Array<{ inFlight: number; queued: number }> = [];
        let timer: NodeJS.Timeout | undefined;
        const run = await measureRun({
          dir,
          args: ['--input-file', file, '--base-url', sim.url, '--model-name', 'tmas-sim', '--no-proof', '--max-iterations', String(iterations), '--concurrency', String(concurrency), '--schedule', schedule],
          observe: ({ gateway }) => {
            timer = setInterval(() => samples.push({ inFlight: gateway.stats.inFlight, queued: gateway.stats.queued }), SAMPLE_MS);
          },
        });
        clearInterval(timer);
        // "While calls are waiting": samples in which any call is outstanding (in flight or queued).
        const busy = samples.filter((sample) => sample.inFlight + sample.queued > 0);
        const use = busy.reduce((sum, sample) => sum + Math.min(sample.inFlight, concurrency) / concurrency, 0) / Math.max(1, busy.length);
        // Of the slots the work could have used (min(demand, limit)): 100% means no call ever waited for a free slot it could have had.
        const demand = busy.reduce((sum, sample) => sum + sample.inFlight / Math.min(concurrency, sample.inFlight + sample.queued), 0) / Math.max(1, busy.length);
        const outstanding = busy.reduce((sum, sample) => sum + sample.inFlight + sample.queued, 0) / Math.max(1, busy.length);
        measured[schedule] = { makespan: run.wallMs / 1000, use, demand, outstanding };
        // The sim draws each call's latency from the call itself, so both schedules share one bound.
        if (schedule === 'pipelined') bound = (await criticalPathMs(run.outcome.outputDir)) / 1000;
      }
    } finally {
      await sim.stop();
    }
    const pipelined = measured.pipelined ?? { makespan: NaN, use: NaN, demand: NaN, outstanding: NaN };
    const barrier = measured.barrier ?? { makespan: NaN, use: NaN, demand: NaN, outstanding: NaN };
    const sizes = `${problems} problems × ${iterations} it × 8 × 8, concurrency ${concurrency}, log-normal latency median 200 ms p99 3 s`;
    const rows: BenchRow[] = [
      { figure: 'pipelining: makespan, pipelined vs barrier', target: 'pipelined well below barrier', measured: `${pipelined.makespan.toFixed(1)} s vs ${barrier.makespan.toFixed(1)} s (${((1 - pipelined.makespan / barrier.makespan) * 100).toFixed(0)}% shorter)`, pass: pipelined.makespan < 0.8 * barrier.makespan, note: sizes },
      { figure: 'pipelining: critical path (unlimited slots, journaled latencies)', target: '—', measured: `${bound.toFixed(1)} s; pipelined makespan ${((pipelined.makespan / bound - 1) * 100).toFixed(0)}% above it, barrier ${((barrier.makespan / bound - 1) * 100).toFixed(0)}%`, pass: null, note: 'no schedule can finish sooner: per iteration, max over candidates of solution + slowest verification + summary, then the banks' },
      { figure: 'pipelining: slot use while calls outstanding (pipelined)', target: '≥ 90%', measured: `${(pipelined.use * 100).toFixed(0)}% of ${concurrency} slots; ${(pipelined.demand * 100).toFixed(0)}% of the slots the ready calls could use`, pass: pipelined.use >= 0.9, note: `sampled every ${SAMPLE_MS} ms from gateway.stats; mean calls outstanding (in flight + queued): ${pipelined.outstanding.toFixed(0)}, so no schedule could fill ${concurrency} slots at this size` },
      { figure: 'pipelining: slot use while calls outstanding (barrier)', target: '—', measured: `${(barrier.use * 100).toFixed(0)}% of ${concurrency} slots; ${(barrier.demand * 100).toFixed(0)}% of usable`, pass: null, note: `mean calls outstanding: ${barrier.outstanding.toFixed(0)}` },
    ];
    return rows;
  },
};
