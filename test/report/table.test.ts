import path from 'node:path';
import { expect } from 'vitest';
import { formatIterationTable, NARROW_WIDTH } from '../../src/observers/table.ts';
import { loadRun } from '../../src/report/load.ts';
import { runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

const SETTINGS = ['--no-proof', '--n-candidates', '3', '--n-verifications', '2', '--max-iterations', '3', '--judge-passes', '2'];

test('the final table fits 80 columns with the essential figures; --wide adds the rest', async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(3));
  const outcome = await runInProcess(['--input-file', input, '--output-file', path.join(dir, 'run'), ...SETTINGS]);
  const narrow = formatIterationTable(outcome.iterations, { simulated: true }).split('\n');
  for (const line of narrow) expect(line.length, line).toBeLessThanOrEqual(NARROW_WIDTH);
  const header = narrow.find((line) => line.startsWith('iter')) ?? '';
  for (const title of ['Pass@1 judge', 'majority', 'best-verified', 'pass@N', 'tokens', 'failed']) expect(header).toContain(title);
  expect(narrow.filter((line) => /^\s+\d+\s/.test(line))).toHaveLength(3);
  expect(narrow.slice(-2).join(' ')).toContain('(--wide adds Pass@1 rule, disagree, flips R→W/W→R, mean score, E bank, G bank)');

  const wide = formatIterationTable(outcome.iterations, { simulated: true, wide: true });
  for (const title of ['Pass@1 rule', 'disagree', 'flips R→W/W→R', 'mean score', 'E bank', 'G bank']) expect(wide).toContain(title);
});

test('a strategy without verifier or banks gets no best-verified, score or bank columns, even wide', async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(2));
  const outcome = await runInProcess(['--input-file', input, '--output-file', path.join(dir, 'run'), '--strategy', 'majority', '--samples', '4', ...SETTINGS]);
  const wide = formatIterationTable(outcome.iterations, { simulated: true, wide: true });
  for (const title of ['best-verified', 'mean score', 'E bank', 'G bank']) expect(wide).not.toContain(title);
  expect(wide).toContain('majority');
});

test("the report gives best-verified figures to a strategy whose verifier has another role name (V-R's rater), and none to majority", async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(2));
  await runInProcess(['--input-file', input, '--output-file', path.join(dir, 'vr'), '--strategy', 'verify-refine', ...SETTINGS]);
  await runInProcess(['--input-file', input, '--output-file', path.join(dir, 'mv'), '--strategy', 'majority', '--samples', '4', ...SETTINGS]);
  expect((await loadRun(path.join(dir, 'vr'))).verifier).toBe(true);
  expect((await loadRun(path.join(dir, 'mv'))).verifier).toBe(false);
});
