/** `rule = judge` (metrics.json's sureJudged, table1.md's column) counts only candidates whose final answer the rule read: a reply out of its format is no agreement. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { readResults } from '../../src/store/results-line.ts';
import { runInProcess, smallProblems, startSimInProcess, test, writeProblems } from '../fixtures.ts';

describe('rule = judge agreement', () => {
  test('a candidate without a final answer is not a sure rule verdict: the judge failing it too is no agreement', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    // The model under test breaks every reply's format (a third of the solutions keep an answer: a scratch box before it); the judge is intact.
    const model = await startSimInProcess(['--problems', input, '--break-formats', '1']);
    const judge = await startSimInProcess(['--problems', input]);
    // A reply the mode cuts runs on to the completion limit, then into the judge's prompt: 1,500 tokens (six times a reply), not the window's 100,000.
    try {
      const out = path.join(dir, 'run');
      await runInProcess(['--strategy', 'majority', '--samples', '8', '--vote-pool', '0', '--input-file', input, '--no-proof', '--max-iterations', '1', '--output-file', out, '--base-url', model.url, '--judge-base-url', judge.url, '--judge-passes', '1', '--parse-retries', '0', '--completion-max-tokens', '1500']);
      const metrics = JSON.parse(await readFile(path.join(out, 'metrics.json'), 'utf8'));
      const candidates = (await readResults(path.join(out, 'results.jsonl'))).flatMap((line) => line.candidates);
      const answered = candidates.filter((c) => c.answer !== null).length;
      const judgedAll = metrics.iterations.reduce((sum: number, it: { judged: number }) => sum + it.judged, 0);
      const sure = metrics.iterations.reduce((sum: number, it: { sureJudged: number }) => sum + it.sureJudged, 0);
      // Some replies kept an answer, most did not: the case this counts apart.
      expect(answered).toBeGreaterThan(0);
      expect(answered).toBeLessThan(candidates.length);
      // Before: every judged candidate, the answerless ones too (sureJudged 16 of 16 candidates, each an "agreement").
      // A reply the mode cut is not sent to the judge (graded 0, ruled): every other candidate is judged.
      expect(judgedAll).toBe(candidates.filter((c) => c.ruled !== true).length);
      expect(candidates.filter((c) => c.ruled === true).every((c) => c.answer === null && c.correctJudge === 0)).toBe(true);
      expect(sure).toBe(answered);
      expect(metrics.totals.ruleJudgeAgreement.judged).toBe(answered);
    } finally {
      await Promise.all([model.close(), judge.close()]);
    }
  });
});
