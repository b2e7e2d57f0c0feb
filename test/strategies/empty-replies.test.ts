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
import { STRATEGIES } from '../../machines/strategies/index.ts';
import { reasoningOnlyWarning } from '../../src/host/run/run-gateway.ts';
import type { IterationMetrics } from '../../src/observers/metrics.ts';
import { chatCompletionBody, readLog, runCliInProcess, runInProcess, serveFixedReply, serveHttp, smallProblems, smallWidthFlags, test, writeProblems } from '../fixtures.ts';

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

describe('a reply whose whole text came as reasoning, its answer empty', () => {
  // A reasoning parser that does not match the model (deepseek_r1 on Qwen3 with enable_thinking false) returns all of it as reasoning_content.
  const reasoning = 'Two plus one is three. The answer is \\boxed{3}.\n\nVERDICT: equivalent';
  const serve = () =>
    serveHttp((req, res) => {
      if (req.url?.endsWith('/models')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(chatCompletionBody('', { model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null, reasoning_content: reasoning }, finish_reason: 'stop' }] }));
    });

  test('is told once per endpoint on stderr, and each unusable output says what its reasoning held', async ({ dir }) => {
    const server = await serve();
    try {
      const run = path.join(dir, 'run');
      const args = ['run', '--strategy', 'majority', '--samples', '2', '--input-file', await writeProblems(dir, smallProblems(2)), '--output-file', run, '--base-url', server.url, '--model-name', 'm'];
      const { code, stderr } = await runCliInProcess([...args, '--no-proof', '--no-stream', '--max-iterations', '1', '--judge-passes', '1', '--parse-retries', '0']);
      // The judge's verdicts too were all in the reasoning: no Pass@1 at all, which ends the run at 3 (TMAS_RUN_UNGRADED).
      expect(code, stderr).toBe(3);
      expect(stderr.trimEnd()).toMatch(/gave no verdict on any candidate \(4 of 4 of its replies unusable, e\.g\. "the answer was empty \(finish_reason stop\); its reasoning held \d+ characters.*\[TMAS_RUN_UNGRADED\]$/);
      // Before: nothing on stderr said why every output was unusable.
      const warnings = stderr.split('\n').filter((line) => line.includes('with all its text in the reasoning'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(server.url);
      expect(stderr).toContain('deepseek_r1');
      // Inline, the reasoning was opened and never closed: no parser is to blame.
      expect(reasoningOnlyWarning(server.url, 'think-tags')).toMatch(/opened inline \(think-tags\) and never closed[\s\S]*stop sequence/);
      const reasons = (await readLog(run)).flatMap(({ message }) => ('parseError' in message && typeof message.parseError === 'string' ? [message.parseError] : 'reason' in message && typeof message.reason === 'string' ? [message.reason] : []));
      expect(reasons.length).toBeGreaterThan(0);
      for (const reason of reasons) expect(reason).toBe(`the answer was empty (finish_reason stop); its reasoning held ${reasoning.length} characters, where no role looks for an answer`);
    } finally {
      await server.close();
    }
  });
});
