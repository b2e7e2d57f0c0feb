/**
 * A fork that changes N (an ablation, as docs/guide/resume-replay.md shows it) is read against its source by problem:
 * the difference is the ablation's effect. Grouping runs by budget for the charts put the fork in another group, and
 * the Markdown report then left its "Pass@1 − src" cells '–' under a "Not paired" banner whose two labels read alike
 * ("graded by rule · 4 problems · T=2" for both): the one figure the ablation was run for was gone.
 */
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runReportCommand } from '../../src/cli/inspect/report.command.ts';
import { runCliInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

describe('a fork that changes a budget', () => {
  test('is still paired with its source: a figure with its interval, no "Not paired" banner', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(4));
    const source = path.join(dir, 'src');
    const fork = path.join(dir, 'n3');
    const ran = await runCliInProcess(['run', '--input-file', input, '--strategy', 'self-refine', '--n-candidates', '2', '--max-iterations', '2', '--judge-passes', '0', '--no-proof', '--output-file', source]);
    expect(ran.code, ran.stderr).toBe(0);
    const forked = await runCliInProcess(['fork', source, '--n-candidates', '3', '--output-file', fork]);
    expect(forked.code, forked.stderr).toBe(0);
    const lines: string[] = [];
    await runReportCommand([source, fork], { format: 'md' }, { stdout: (line) => lines.push(line) });
    const md = lines.join('\n');
    expect(md).not.toMatch(/Not paired/);
    const row = md.slice(md.indexOf('## n3')).split('\n').find((line) => line.startsWith('| 0 |'));
    expect(row?.split(' | ')[2]).toMatch(/^[-+]?\d+\.\d \[/);
  });
});
