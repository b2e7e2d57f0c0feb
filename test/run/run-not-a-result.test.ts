/**
 * A run whose figures are not a result, whatever graded it, ends at 3 as a judge that gave no verdict does: graded by
 * the rule with no candidate giving a final answer, or with a role of its own that used no output. Before, both ended
 * at 0 (only a warning on stderr), and a script running one model after another took their 0.0 or 50.0 for a figure.
 */
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCliInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

// Replies the format-breaking simulator cuts run on to the completion limit: 1,500 tokens, not the window's 100,000.
const BROKEN = ['--no-proof', '--max-iterations', '1', '--judge-passes', '0', '--parse-retries', '0', '--sim-break-formats', '1', '--completion-max-tokens', '1500'];

describe('a run that is not a result', () => {
  test('graded by the rule, no candidate of any problem with a final answer: exit 3 naming the method and why', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const out = path.join(dir, 'rse');
    const result = await runCliInProcess(['run', '--input-file', input, '--strategy', 'rse', '--n-candidates', '2', ...BROKEN, '--output-file', out]);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr.trimEnd()).toMatch(/tmas: The run finished, but its figures are not a result of its method \(.*\): rse: under the rule-based grade, no candidate of any problem gave a final answer the grader could read .*Their Pass@1 of 0\.0 is their replies' format, not an accuracy.* \[TMAS_RUN_UNGRADED\]$/);
  });

  test('a role of its own that used no output in any iteration: exit 3 naming the roles, the run written', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const out = path.join(dir, 'tmas');
    const result = await runCliInProcess(['run', '--input-file', input, '--n-candidates', '2', '--n-verifications', '1', ...BROKEN, '--output-file', out]);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr.trimEnd()).toMatch(/: tmas: not one output of its .*verification roles? could be used, in any iteration .*not of tmas\. .*then run it again into a new --output-file \(tmas calls .*tmas --role <role> shows the replies\)\. \[TMAS_RUN_UNGRADED\]$/);
    // The report of that run says the same, and ends at 3 too, once written.
    const report = await runCliInProcess(['report', out, '--out', path.join(dir, 'report.md')]);
    expect(report.code, report.stderr).toBe(3);
    expect(report.stderr.trimEnd()).toMatch(/^tmas: The report is written \(.*report\.md\), but 1 of its 1 run is not a result, whatever their figures: tmas: not one output of its .*verification.* \[TMAS_REPORT_UNGRADED\]$/m);
  });
});
