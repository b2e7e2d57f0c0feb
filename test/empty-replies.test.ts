/**
 * An empty reply is counted as one, in every method and role: a server of our
 * own answers every call with no text at all (finish_reason "stop", as a
 * reasoning model whose whole budget went to its reasoning does), and each
 * method's metrics.json counts every output as an empty answer. Before, only
 * the roles that validate their replies and the solutions of TMAS and
 * majority were counted: RSE's rollouts, PaCoRe's syntheses, a Self-Refine
 * critique, a MAS-TTS CEO and the judge's passes came back empty unseen in
 * `faults.emptyAnswers` and the closing line's `answers: empty n`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { STRATEGIES } from '../machines/strategies/index.ts';
import type { IterationMetrics } from '../src/observers/metrics.ts';
import { runInProcess, serveFixedReply, smallProblems, smallWidthFlags, test, writeProblems } from './fixtures.ts';

describe('an empty reply is counted as one', () => {
  test.for(Object.keys(STRATEGIES).filter((name) => name !== 'verify-refine-chains'))('%s: every output of every role counts as an empty answer', async (strategy, { dir }) => {
    const server = await serveFixedReply('', 'stop');
    try {
      const run = path.join(dir, strategy);
      const args = ['--strategy', strategy, '--input-file', await writeProblems(dir, smallProblems(1)), '--output-file', run, '--base-url', server.url, '--model-name', 'm'];
      const outcome = await runInProcess([...args, ...smallWidthFlags(strategy), '--no-proof', '--no-stream', '--max-iterations', '2', '--judge-passes', '1', '--parse-retries', '0']);
      expect(outcome.calls.failed).toBe(0);
      const iterations = (JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { iterations: IterationMetrics[] }).iterations;
      const outputs = iterations.map((iteration) => Object.values(iteration.outputsByRole).reduce((sum, role) => sum + role.outputs, 0));
      expect(outputs.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(iterations.map((iteration) => iteration.faults.emptyAnswers)).toEqual(outputs);
    } finally {
      await server.close();
    }
  });
});
