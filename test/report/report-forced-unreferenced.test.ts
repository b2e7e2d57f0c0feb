/**
 * A run over problems without a reference answer, made with --force, was asked for so: tmas run ends at 0 on it
 * (nothing grades its candidates, and its cells say '-'). tmas report over that run and a healthy one ended at 3
 * (TMAS_REPORT_UNGRADED), so a script reporting its runs stopped on a run the user had chosen to make.
 */
import path from 'node:path';
import { access } from 'node:fs/promises';
import { describe, expect } from 'vitest';
import { runCliInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

describe('a report of a --force run over problems without answers', () => {
  test('ends at 0, as the run did, its report written', async ({ dir }) => {
    const unanswered = smallProblems(2).map(({ problem_id, question }) => ({ problem_id, question }));
    const input = await writeProblems(dir, unanswered);
    const run = path.join(dir, 'forced');
    const common = ['--strategy', 'self-refine', '--n-candidates', '2', '--max-iterations', '1', '--judge-passes', '0', '--no-proof'];
    const ran = await runCliInProcess(['run', '--input-file', input, '--force', ...common, '--output-file', run]);
    expect(ran.code, ran.stderr).toBe(0);
    const out = path.join(dir, 'report.md');
    const report = await runCliInProcess(['report', run, '--out', out]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stderr).not.toMatch(/TMAS_REPORT_UNGRADED/);
    await access(out);
  });
});
