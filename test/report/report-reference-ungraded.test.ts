/** `tmas report --format md`'s difference column: the reference run's own cell at an iteration it graded no problem of. */
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runReportCommand } from '../../src/cli/inspect/report.command.ts';
import { runCliInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

describe('the reference of a report without a graded problem', () => {
  test("reads '–' at an iteration it graded nothing, not '0 (the reference)' beside a Pass@1 of '–'", async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const common = ['--input-file', input, '--no-proof', '--n-candidates', '1', '--max-iterations', '1', '--judge-model-name', 'tmas-sim', '--judge-passes', '1', '--parse-retries', '0', '--completion-max-tokens', '1500'];
    // A TMAS whose judge gave no verdict (every reply out of its format): no problem graded, exit 3. Its cut replies run on
    // to the completion limit: 1,500 tokens (six times a reply; the other run's too, to compare), not the window's 100,000.
    const ungraded = await runCliInProcess(['run', ...common, '--strategy', 'tmas', '--n-verifications', '1', '--sim-break-formats', '1', '--output-file', path.join(dir, 'tmas')]);
    expect(ungraded.code, ungraded.stderr).toBe(3);
    const other = await runCliInProcess(['run', ...common, '--strategy', 'self-refine', '--output-file', path.join(dir, 'refine')]);
    expect(other.code, other.stderr).toBe(0);
    const lines: string[] = [];
    await runReportCommand([path.join(dir, 'tmas'), path.join(dir, 'refine')], { format: 'md' }, { stdout: (line) => lines.push(line) });
    const md = lines.join('\n');
    const tmas = md.slice(md.indexOf('## tmas'));
    // Before: `| 0 | – | 0 (the reference) | …`, a difference stated where there was no figure.
    expect(tmas).toMatch(/^\| 0 \| – \| – \|/m);
    expect(tmas).not.toContain('0 (the reference)');
  });
});
