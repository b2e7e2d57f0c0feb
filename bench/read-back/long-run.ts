/**
 * The long run that the read-back benchmarks (replay-export, view) measure:
 * N = M = 8, no judge, against the simulator as its own process at zero
 * latency; with `--full`, the size users run: 100 problems × 20 iterations
 * (164,000 calls, 332,202 messages).
 */
import { Store } from '../../src/store/store.ts';
import { writeBenchProblems } from '../harness/problems.ts';
import { startSimProcess } from '../harness/sim-process.ts';
import { measureRun } from '../harness/tmas-run.ts';
import type { BenchContext } from '../harness/types.ts';

/** Makes the run; returns its directory and a label of its size for the benchmark's notes. */
export async function makeLongRun(context: BenchContext, name: string): Promise<{ runDir: string; size: string; messages: number }> {
  // 82 calls per problem-iteration at N = M = 8, about two messages per call.
  const [problems, iterations] = context.full ? [100, 20] : context.quick ? [10, 2] : [30, 4];
  const file = await writeBenchProblems(context.dir, problems);
  const sim = await startSimProcess({ problems: file });
  let runDir: string;
  try {
    context.log(`${name}: making a run of ${problems} problems × ${iterations} iterations × 8 × 8`);
    const made = await measureRun({
      dir: context.dir,
      args: ['--input-file', file, '--base-url', sim.url, '--model-name', 'tmas-sim', '--no-proof', '--judge-passes', '0', '--n-candidates', '8', '--n-verifications', '8', '--max-iterations', String(iterations), '--concurrency', '256'],
    });
    runDir = made.outcome.outputDir;
  } finally {
    await sim.stop();
  }
  const store = await Store.open(runDir);
  const messages = await store.nextSeq().finally(() => store.close());
  return { runDir, messages, size: `${problems} × ${iterations} × 8 × 8, ${messages.toLocaleString('en-US')} messages${context.full ? '' : ' (the full size, 100 × 20: --full)'}` };
}
