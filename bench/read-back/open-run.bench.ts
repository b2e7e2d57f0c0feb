/**
 * Opening a run (issue 39): `tmas view`'s first page and `tmas run --resume`
 * reaching its first new call, on a finished run of 100 problems × 20
 * iterations × 8 × 8 (164,000 calls) with `--full`. Both read the store
 * through a private view whose tables are links (store/repair/store-view.ts), so
 * neither should grow with what the store weighs.
 */
import { spawn } from 'node:child_process';
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { startFirstCallServer } from './first-call-server.ts';
import { writeBenchProblems } from '../harness/problems.ts';
import { BIN, startSimProcess, tmasCommand } from '../harness/sim-process.ts';
import { measureRun } from '../harness/tmas-run.ts';
import type { Benchmark, BenchContext, BenchRow } from '../harness/types.ts';
import { measureView } from './view.bench.ts';

/** Makes a finished run on the simulator at zero latency; returns its directory, iterations and size label. */
async function makeRun(context: BenchContext): Promise<{ runDir: string; iterations: number; size: string }> {
  const [problems, iterations] = context.full ? [100, 20] : context.quick ? [5, 2] : [20, 4];
  const file = await writeBenchProblems(context.dir, problems);
  const sim = await startSimProcess({ problems: file });
  try {
    context.log(`open-run: making a run of ${problems} problems × ${iterations} iterations × 8 × 8`);
    const made = await measureRun({
      dir: context.dir,
      args: ['--input-file', file, '--base-url', sim.url, '--model-name', 'tmas-sim', '--no-proof', '--judge-passes', '0', '--n-candidates', '8', '--n-verifications', '8', '--max-iterations', String(iterations), '--concurrency', '256'],
    });
    const calls = made.outcome.calls.issued;
    return { runDir: made.outcome.outputDir, iterations, size: `${problems} × ${iterations} × 8 × 8, ${calls.toLocaleString('en-US')} calls${context.full ? '' : ' (the issue asks 100 × 20: --full)'}` };
  } finally {
    await sim.stop();
  }
}

/**
 * Milliseconds from starting `tmas run --resume` on a copy of `runDir` (one
 * more iteration) to its first new call reaching the endpoint; the copy is
 * made before the clock starts and removed after. `bin`: the tmas to run
 * (another checkout's, to compare).
 */
export async function measureResume(runDir: string, iterations: number, scratch: string, bin = BIN): Promise<number> {
  const copy = path.join(scratch, `resume-${Date.now()}`);
  await cp(runDir, copy, { recursive: true });
  const endpoint = await startFirstCallServer('tmas-sim');
  const started = performance.now();
  const child = spawn(...tmasCommand(['run', '--resume', copy, '--max-iterations', String(iterations + 1), '--base-url', endpoint.url, '--model-name', 'tmas-sim'], bin), { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const first = await Promise.race([endpoint.firstCall, exited.then((code) => Promise.reject(new Error(`tmas run --resume exited with ${code} before its first call: ${stderr.slice(-400)}`)))]);
    return first - started;
  } finally {
    child.kill('SIGKILL');
    await exited;
    await endpoint.close();
    await rm(copy, { recursive: true, force: true });
  }
}

/** The benchmark. */
export const openRunBenchmark: Benchmark = {
  name: 'open-run',
  async run(context): Promise<BenchRow[]> {
    const { runDir, iterations, size } = await makeRun(context);
    context.log('open-run: tmas view');
    const view = await measureView(runDir);
    context.log('open-run: tmas run --resume');
    const resumeMs = await measureResume(runDir, iterations, context.dir);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    return [
      { figure: 'open-run: view first page', target: '< 1 s', measured: seconds(view.firstPageMs), pass: view.firstPageMs < 1000, note: `${size}; from starting the process (${seconds(view.firstPageServedMs)} once it listens)` },
      { figure: 'open-run: resume to first new call', target: '< 2 s', measured: seconds(resumeMs), pass: resumeMs < 2000, note: `${size}; from starting \`tmas run --resume\` (one iteration more) to its first call at the endpoint` },
    ];
  },
};
