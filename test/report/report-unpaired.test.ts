/**
 * A report of runs that do not compare gives no paired difference across them and says so at its top. Before, the
 * Markdown report set a self-refine graded by a judge against a TMAS graded by the rule ("Pass@1 − tmas: -16.7
 * [-50.0, 0.0]", a paired interval), and said the runs did not all compare only below its runs table.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runReportCommand } from '../../src/cli/inspect/report.command.ts';
import { runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

describe('a report of runs that do not compare', () => {
  test('says at its top which runs it did not pair and why, and gives them no paired difference; runs that compare keep theirs', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(3));
    const common = ['--input-file', input, '--no-proof', '--n-candidates', '2', '--max-iterations', '1'];
    await runInProcess([...common, '--n-verifications', '1', '--judge-passes', '0', '--output-file', path.join(dir, 'tmas')]);
    await runInProcess([...common, '--strategy', 'self-refine', '--judge-passes', '1', '--output-file', path.join(dir, 'judged')]);
    await runInProcess([...common, '--strategy', 'self-refine', '--judge-passes', '0', '--output-file', path.join(dir, 'ruled')]);
    const lines: string[] = [];
    await runReportCommand(['tmas', 'judged', 'ruled'].map((name) => path.join(dir, name)), { format: 'md' }, { stdout: (line) => lines.push(line) });
    const md = lines.join('\n');
    const notPaired = md.split('\n').findIndex((line) => line.startsWith('> **Not paired: judged against tmas (judged: graded by judge'));
    // At the top: before the runs table.
    expect(notPaired).toBeGreaterThan(0);
    expect(notPaired).toBeLessThan(md.split('\n').findIndex((line) => line.startsWith('| run |')));
    expect(md).toMatch(/Not paired: judged against tmas \(judged: graded by judge [^;]*; tmas: graded by rule[^)]*\)\. Each pair was graded otherwise/);
    expect(md).not.toMatch(/Not paired:[^\n]*ruled against/);
    const cells = (name: string) => md.slice(md.indexOf(`## ${name}`)).split('\n').find((line) => line.startsWith('| 0 |'))?.split(' | ')[2];
    // Before: a figure with its paired interval.
    expect(cells('judged')).toBe('–');
    expect(cells('ruled')).toMatch(/^[-+]?\d+\.\d \[/);
    const html = path.join(dir, 'report.html');
    await runReportCommand(['tmas', 'judged', 'ruled'].map((name) => path.join(dir, name)), { format: 'html', out: html }, { stdout: () => {} });
    const page = await readFile(html, 'utf8');
    expect(page.indexOf('<div class="banner bad unpaired">Not paired: judged against tmas')).toBeGreaterThan(0);
    expect(page.indexOf('class="banner bad unpaired"')).toBeLessThan(page.indexOf('<h2>Runs</h2>'));
  });
});
