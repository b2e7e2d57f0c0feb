/**
 * Benchmark: every strategy against the embedded simulator with a share of
 * its replies out of format (`--sim-break-formats`). Each row gives a
 * strategy's unusable outputs by role, the share a warning fires at, and
 * whether the run warned: the counts a reader of table1.md relies on to know
 * that no method degraded unseen. The target is that every role with a format
 * counts unusable outputs when its replies break, and that the run says so.
 */
import { STRATEGIES } from '../../machines/strategies/index.ts';
import { roleOutputTotals, unusableRoles } from '../../src/observers/role-outputs.ts';
import { writeBenchProblems } from '../harness/problems.ts';
import { measureRun } from '../harness/tmas-run.ts';
import type { Benchmark, BenchRow } from '../harness/types.ts';

/** The share of replies broken: high enough that every role with a format meets some. */
const BREAK_RATE = 0.3;

/** `distill 19/46, rollout 6/32`: unusable over outputs, by role. */
function countsOf(totals: Record<string, { outputs: number; unusable: number }>): string {
  return Object.entries(totals)
    .map(([role, counts]) => `${role} ${counts.unusable}/${counts.outputs}`)
    .join(', ');
}

/** One strategy's row. */
async function strategyRow(strategy: string, input: string, dir: string, iterations: number): Promise<BenchRow> {
  const args = ['--input-file', input, '--strategy', strategy, '--no-proof', '--n-candidates', '4', '--n-verifications', '2', '--max-iterations', String(iterations)];
  const { outcome } = await measureRun({ args: [...args, '--judge-passes', '1', '--judge-model-name', 'tmas-sim', '--sim-break-formats', String(BREAK_RATE), '--retry-base-ms', '5'], dir });
  const totals = roleOutputTotals(outcome.iterations);
  const silent = Object.entries(totals).filter(([, counts]) => counts.outputs > 0 && counts.unusable === 0).map(([role]) => role);
  const warned = unusableRoles(outcome.iterations).length > 0;
  return {
    figure: `format-breaks: ${strategy} unusable/outputs by role`,
    target: 'every role with a format counts some; the run warns',
    measured: countsOf(totals),
    pass: warned,
    note: `${BREAK_RATE * 100}% of replies broken, ${iterations} iterations; ${warned ? 'warned' : 'no warning'}${silent.length > 0 ? `; no unusable output counted for ${silent.join(', ')} (roles the simulator does not break, or read leniently)` : ''}`,
  };
}

/** The format-breaks benchmark: one row per strategy. */
export const formatBreaksBenchmark: Benchmark = {
  name: 'format-breaks',
  async run(context) {
    const input = await writeBenchProblems(context.dir, context.quick ? 3 : 6);
    const rows: BenchRow[] = [];
    for (const strategy of Object.keys(STRATEGIES)) {
      rows.push(await strategyRow(strategy, input, context.dir, context.quick ? 1 : 2));
      context.log(`format-breaks: ${strategy}: ${rows.at(-1)?.measured ?? ''}`);
    }
    return rows;
  },
};
