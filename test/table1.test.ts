/** `tmas table1`: several strategies with one protocol into sibling directories, one table and one report; run again, it resumes. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCli, smallProblems, test, writeProblems } from './fixtures.ts';

describe('tmas table1', () => {
  test('runs each strategy into DIR/<strategy>, writes Pass@1 per iteration per method and MV@k as a figure, and resumes without paying again', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const out = path.join(dir, 'table1');
    const args = ['table1', '--input-file', input, '--output-file', out, '--strategies', 'majority,tmas', '--no-proof', '--n-candidates', '2', '--n-verifications', '1', '--max-iterations', '2', '--samples', '4', '--judge-passes', '1'];
    const first = await runCli(args);
    expect(first.code, first.stderr).toBe(0);
    const table = await readFile(path.join(out, 'table1.md'), 'utf8');
    // Rows are iterations, columns the iterative methods; majority is one MV@k figure, as in the paper.
    expect(table).toMatch(/^\| iteration \| tmas \|$/m);
    expect(table).toMatch(/^\| 0 \| \d+\.\d \|$/m);
    expect(table).toMatch(/^\| 1 \| \d+\.\d \|$/m);
    expect(table).toMatch(/^MV@4 .*: \d+\.\d$/m);
    expect(table).toMatch(/judge grade/);
    expect(existsSync(path.join(out, 'report.html'))).toBe(true);
    for (const strategy of ['majority', 'tmas']) {
      const metrics = JSON.parse(await readFile(path.join(out, strategy, 'metrics.json'), 'utf8'));
      expect(metrics.protocol).toMatchObject({ strategy, nCandidates: 2, maxIterations: 2, judgePasses: 1, grading: 'judge', judge: { passes: 1 } });
    }

    const again = await runCli(args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/resuming majority/);
    for (const strategy of ['majority', 'tmas']) {
      const metrics = JSON.parse(await readFile(path.join(out, strategy, 'metrics.json'), 'utf8'));
      expect(metrics.calls.issued).toBe(0);
    }
    expect(await readFile(path.join(out, 'table1.md'), 'utf8')).toBe(table);
  });

  test('an unknown strategy is a usage error naming it', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const result = await runCli(['table1', '--input-file', input, '--output-file', path.join(dir, 'x'), '--strategies', 'tmas,best-of-n']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown strategy "best-of-n"/);
  });
});
