/**
 * What table1.md and the report tell a reader about figures that are not what they look like: a column one of whose
 * roles used no output, problems without a reference answer or without a verdict of the judge, intervals of zero width.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { formatTable1 } from '../../src/cli/run/table1-markdown.ts';
import { runReportCommand } from '../../src/cli/inspect/report.command.ts';
import { loadRun } from '../../src/report/load.ts';
import { runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

// The runs on a format-breaking simulator give --completion-max-tokens 1500 (six times a simulated reply): a reply the mode
// cuts runs on to the limit, and at the window's, some 100,000 tokens each to count, journal and log.
describe('tmas table1 caveats', () => {
  test('a column one of whose own roles could use no output in any iteration is said to be no result of its method, beside its plausible Pass@1', async ({ dir }) => {
    const out = path.join(dir, 'hollow');
    const input = await writeProblems(dir, smallProblems(2));
    const result = await runCliInProcess(['table1', '--strategies', 'tmas', '--n-candidates', '2', '--n-verifications', '1', '--input-file', input, '--output-file', out, '--no-proof', '--max-iterations', '1', '--judge-passes', '0', '--parse-retries', '0', '--sim-break-formats', '1', '--completion-max-tokens', '1500']);
    // Before: exit 0 for this column graded by the rule, where a judge-graded column with no figure ended at 3.
    expect(result.code, result.stderr).toBe(3);
    const error = result.stderr.split('\n').find((line) => line.endsWith('[TMAS_TABLE_UNGRADED]')) ?? '';
    expect(error).toMatch(/^tmas: Not a result: 1 of the 1 column of .*table1\.md, whatever their figures: tmas: not one output of its .*verification.*, not of tmas\. Their figures are no result of the method named/);
    const table = await readFile(path.join(out, 'table1.md'), 'utf8');
    const metrics = JSON.parse(await readFile(path.join(out, 'tmas', 'metrics.json'), 'utf8'));
    const verification = metrics.iterations[0].outputsByRole.verification;
    // Every verification broke its format: TMAS ran without its scores, so its column is no TMAS figure.
    expect(verification.unusable).toBe(verification.outputs);
    // Before: only a ⚠ and a note below the table, under the headline nothing.
    expect(table.split('\n')[2]).toMatch(new RegExp(`^\\*\\*No column of this table is a result\\.\\*\\* tmas: not one output of its (?:\\w+, )*(?:\\w+ and )?verification roles? could be used, in any iteration \\(.*verification ${verification.unusable} of ${verification.outputs}.*\\): its figures are of what ran without (?:it|them), not of tmas\\.`));
    // The report says the same in its runs table (HTML) and above its tables (Markdown): before, a ⚠ per role alone.
    expect(await readFile(path.join(out, 'report.html'), 'utf8')).toMatch(/✗ No result of its method: not one output of its [^<]*verification[^<]*, not of tmas</);
    const lines: string[] = [];
    await runReportCommand([path.join(out, 'tmas')], { format: 'md' }, { stdout: (line) => lines.push(line) });
    expect(lines.join('\n')).toMatch(/^> ✗ tmas: no result of its method: not one output of its .*verification.*, not of tmas\.$/m);
  });

  test('a table graded by nothing because its problems have no reference answer (--force) says so, not that a judge failed', async ({ dir }) => {
    const out = path.join(dir, 'unreferenced');
    const input = await writeProblems(dir, smallProblems(2).map(({ problem_id, question }) => ({ problem_id, question })));
    const result = await runCliInProcess(['table1', '--strategies', 'tmas', '--n-candidates', '2', '--n-verifications', '1', '--input-file', input, '--output-file', out, '--no-proof', '--max-iterations', '1', '--force']);
    expect(result.code).toBe(3);
    const error = result.stderr.split('\n').find((line) => line.endsWith('[TMAS_TABLE_UNGRADED]')) ?? '';
    const table = await readFile(path.join(out, 'table1.md'), 'utf8');
    for (const text of [error, table]) {
      expect(text).toContain('tmas: no candidate of any iteration was graded: 2 of its 2 problems have no reference answer, which nothing grades');
      expect(text).toContain('Give each problem its reference answer');
      // Before: "A judge must end each reply with …; fix it", for a run graded by the rule, with no judge.
      expect(text).not.toMatch(/judge must|Fix the judge/);
    }
  });

  test('figures alike on every problem print no interval of zero width: a bracket that says how many problems agreed', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(3));
    await runInProcess(['--input-file', input, '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '1', '--output-file', path.join(dir, 'run')]);
    // The same run as two methods: their difference is 0 on each of the 3 problems.
    const run = await loadRun(path.join(dir, 'run'));
    const table = formatTable1([{ strategy: 'self-refine', options: {}, run }, { strategy: 'tmas', options: {}, run }]);
    // Before: `| 0 | 0.0 [0.0, 0.0] |`, read as a difference measured exactly.
    expect(table).toMatch(/^\| 0 \| 0\.0 \[all 3 alike\] \|$/m);
    expect(table).toMatch(/\[all n alike\]: every one of the n problems had the same figure/);
    expect(table).not.toMatch(/\[([-+]?\d+\.\d), \1\]/);
  });

  test('problems without a reference answer mixed in: the table says they are graded by nothing, not that a method lost them', async ({ dir }) => {
    const problems = smallProblems(4).map((problem, i) => (i % 2 === 1 ? { problem_id: problem.problem_id, question: problem.question } : problem));
    const input = await writeProblems(dir, problems);
    const out = path.join(dir, 'mixed');
    const result = await runCliInProcess(['table1', '--strategies', 'self-refine,tmas', '--n-candidates', '2', '--n-verifications', '1', '--input-file', input, '--output-file', out, '--no-proof', '--max-iterations', '1', '--judge-passes', '1']);
    expect(result.code, result.stderr).toBe(0);
    const table = await readFile(path.join(out, 'table1.md'), 'utf8');
    // Before: `| problems | 2 of 4 | 2 of 4 |` and nothing else, as a method that lost two problems reads.
    expect(table).toMatch(/^\| problems \| 2 of 4 \(2 without a reference answer\) \| 2 of 4 \(2 without a reference answer\) \|$/m);
    expect(table).toContain('Of the 4 problems, 2 have no reference answer (p2, p4), which nothing grades: they are in no figure');
    expect(table).not.toMatch(/‡/);
  });

  test("a problem the judge gave no verdict on is said so in the problems row, not left as one the method lost", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(4));
    await runInProcess(['--input-file', input, '--no-proof', '--n-candidates', '1', '--n-verifications', '1', '--max-iterations', '1', '--judge-model-name', 'tmas-sim', '--judge-passes', '1', '--parse-retries', '0', '--sim-break-formats', '0.6', '--completion-max-tokens', '1500', '--output-file', path.join(dir, 'run')]);
    const run = await loadRun(path.join(dir, 'run'));
    const last = run.iterations.at(-1);
    const unjudged = (last?.problems ?? 0) - (last?.graded ?? 0);
    expect(unjudged).toBeGreaterThan(0);
    const table = formatTable1([{ strategy: 'tmas', options: {}, run }]);
    // Before: `| problems | 2 of 4 |`, as a method that lost problems reads, with no ‡.
    expect(table).toContain(`| problems | ${last?.graded} of 4 (${unjudged} without a verdict of the judge) |`);
  });
});
