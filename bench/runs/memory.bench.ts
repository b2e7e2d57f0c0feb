/**
 * Benchmark 4, memory over a long run: 100 problems × 20 iterations × 8 × 8
 * with ~8,000-token outputs at zero latency (with --full; a scaled run by
 * default, to fit the 10-minute budget). Reports peak RSS and the RSS when
 * every problem has finished iterations 5, 10 and 20.
 * Targets (issue 39): peak ≤ 450 MB, and the main thread's live heap (what
 * is left after a full collection) flat from iteration 5 to 20: at most 10%
 * more after 20 than after 5.
 *
 * RSS also grows as the worker threads fit longer prompts and the caches
 * fill, so it is reported at the same moments without a target: a leak grows
 * the live heap, a cache filling up does not past its cap.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Envelope } from '../../src/kernel/protocol.ts';
import { writeBenchProblems } from '../harness/problems.ts';
import { startSimProcess } from '../harness/sim-process.ts';
import { mb, measureRun } from '../harness/tmas-run.ts';
import type { Benchmark } from '../harness/types.ts';

const MB = 2 ** 20;

/** The bounds: peak RSS, and the live heap's growth from iteration 5 to 20. */
const PEAK_RSS = 450 * MB;
const HEAP_GROWTH = 1.1;

/** The memory benchmark. */
export const memoryBenchmark: Benchmark = {
  name: 'memory',
  async run({ quick, full, dir, log }) {
    const problems = full ? 100 : quick ? 4 : 3;
    const iterations = 20;
    const [n, m] = quick ? [4, 2] : [8, 8];
    const outputTokens = quick ? 2000 : 8000;
    const file = await writeBenchProblems(dir, problems);
    const sim = await startSimProcess({ problems: file, outputTokens });
    const rssAfter = new Map<number, number>();
    const heapAfter = new Map<number, number>();
    // The collector, as --expose-gc would give it, without restarting the process.
    v8.setFlagsFromString('--expose-gc');
    const collect = vm.runInNewContext('gc') as () => void;
    try {
      log(`memory: ${problems} problems × ${iterations} iterations × ${n} × ${m}, ${outputTokens}-token outputs, zero latency`);
      const done = new Map<number, number>();
      const run = await measureRun({
        dir,
        args: ['--input-file', file, '--base-url', sim.url, '--model-name', 'tmas-sim', '--no-proof', '--max-iterations', String(iterations), '--n-candidates', String(n), '--n-verifications', String(m), '--concurrency', '800'],
        observe: ({ envelopes$ }) => {
          envelopes$.subscribe((envelope: Envelope) => {
            if (envelope.message.type !== 'iteration.completed') return;
            const finished = envelope.message.iteration + 1;
            const count = (done.get(finished) ?? 0) + 1;
            done.set(finished, count);
            if (count !== problems || ![5, 10, 20].includes(finished)) return;
            rssAfter.set(finished, process.memoryUsage.rss());
            collect();
            heapAfter.set(finished, process.memoryUsage().heapUsed);
          });
        },
      });
      const at = (iteration: number) => rssAfter.get(iteration) ?? NaN;
      const heapAt = (iteration: number) => heapAfter.get(iteration) ?? NaN;
      const growth = at(20) / at(5);
      const heapGrowth = heapAt(20) / heapAt(5);
      const sizes = `${problems} problems × ${iterations} it × ${n} × ${m} = ${run.outcome.calls.issued} calls, ${outputTokens}-token outputs, ${(run.wallMs / 1000).toFixed(0)} s (${(run.cpuMs / 1000).toFixed(0)} s of CPU)${full ? '' : '; scaled from 100 problems to fit 10 minutes (use --full)'}; node flags: ${process.execArgv.join(' ') || "none (V8's young generation)"}`;
      return [
        { figure: 'memory: peak RSS', target: '≤ 450 MB', measured: mb(run.peakRss), pass: run.peakRss <= PEAK_RSS, note: sizes },
        {
          figure: 'memory: live heap after iterations 5 / 10 / 20',
          target: `@20 ≤ ${HEAP_GROWTH} × @5`,
          measured: `${mb(heapAt(5))} / ${mb(heapAt(10))} / ${mb(heapAt(20))} (×${heapGrowth.toFixed(2)} from 5 to 20)`,
          pass: heapGrowth <= HEAP_GROWTH,
          note: "the main thread's heap after a full collection when the last problem finished that iteration: what a leak would grow",
        },
        {
          figure: 'memory: RSS after iterations 5 / 10 / 20',
          target: '—',
          measured: `${mb(at(5))} / ${mb(at(10))} / ${mb(at(20))} (×${growth.toFixed(2)})`,
          pass: null,
          note: 'RSS at the same moments, worker threads and native memory included',
        },
      ];
    } finally {
      await sim.stop();
    }
  },
};
