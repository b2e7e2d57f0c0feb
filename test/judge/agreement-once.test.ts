/**
 * Each judge verdict counts once in the rule = judge figures (metrics.json's `judged`,
 * `disagreements` and `ruleJudgeAgreement`), whichever strategy carries a candidate into a later
 * iteration with the verdict it had: majority's growing pool, mas-ceo's stopped problems,
 * self-refine's and verify-refine's unchanged rewrites. Against the simulator, with one pass per
 * candidate, the verdicts the run compared are its judge requests that gave one, each request once
 * (a request identical to one answered before is never sent: its verdict is reused).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { readResults } from '../../src/store/results-line.ts';
import { ofType, runStrategy, test } from '../fixtures.ts';

const STRATEGIES: Record<string, string[]> = {
  majority: ['--samples', '4'],
  'mas-ceo': [],
  'self-refine': ['--n-candidates', '2'],
  'verify-refine': ['--n-candidates', '2', '--n-verifications', '1'],
};

describe('rule = judge counts each verdict once', () => {
  for (const [strategy, flags] of Object.entries(STRATEGIES)) {
    test(`${strategy}: totals.judged is the judge requests that gave a verdict; a carried candidate still counts in its iteration's Pass@1`, async ({ dir }) => {
      const messages = await runStrategy(dir, strategy, ['--max-iterations', '3', '--judge-passes', '1', '--judge-model-name', 'tmas-sim', ...flags], 3);
      const requested = ofType(messages, 'judge.requested');
      const keys = requested.map(({ iteration: _i, correlation: _c, ...asked }) => JSON.stringify(asked));
      // The rule sends no request twice: the invariant below is over distinct requests.
      expect(new Set(keys).size).toBe(keys.length);
      const verdicts = ofType(messages, 'judge.completed').filter((m) => m.verdict !== null).length;
      const lines = await readResults(path.join(dir, 'out', 'results.jsonl'));
      const candidates = lines.flatMap((line) => line.candidates);
      const silent = candidates.filter((c) => c.judge !== null && c.judge.verdicts.length === 0 && c.correct !== null && c.ruled !== true).length;
      const reused = candidates.filter((c) => c.reusedVerdict === true).length;
      const metrics = JSON.parse(await readFile(path.join(dir, 'out', 'metrics.json'), 'utf8')) as {
        iterations: Array<{ judged: number; reusedVerdicts: number; pass1: number | null }>;
        totals: { judged: number; ruleJudgeAgreement: { judged: number } | null };
      };
      expect({ strategy, silent }).toEqual({ strategy, silent: 0 });
      expect(metrics.totals.judged).toBe(verdicts);
      // The agreement leaves out a candidate without a final answer: the rule compared nothing there (agreement-answerless.test.ts).
      const answerless = candidates.filter((c) => c.answer === null && c.reusedVerdict !== true && (c.judge?.verdicts ?? []).some((v) => v !== null)).length;
      expect(metrics.totals.ruleJudgeAgreement?.judged).toBe(verdicts - answerless);
      // Candidates with a verdict outnumber the verdicts asked: some were carried, so a double count would show.
      const graded = candidates.filter((c) => (c.judge?.verdicts ?? []).some((v) => v !== null)).length;
      expect(graded, strategy).toBeGreaterThan(verdicts);
      // Each of those extra ones says its verdict was reused, and its iteration counts it so.
      expect(reused).toBe(graded - verdicts);
      expect(metrics.iterations.reduce((sum, it) => sum + it.reusedVerdicts, 0)).toBe(reused);
      // Pass@1 still grades every candidate of its iteration, the carried ones with their reused verdict.
      expect(candidates.every((c) => c.correctJudge !== null)).toBe(true);
    });
  }
});
