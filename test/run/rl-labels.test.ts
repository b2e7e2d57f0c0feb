/**
 * The RL export labels a generation by what it is, the same for every
 * strategy: one small run of each built-in strategy on the simulated model,
 * exported, and each record's `data_source` checked against its role's
 * declared kind; `_source` never names two things.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { roleKinds, STRATEGIES } from '../../machines/strategies/index.ts';
import { runExportCommand } from '../../src/cli/inspect/export.command.ts';
import { runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

interface Row {
  data_source: string;
  extra_info: { role: string; iteration: number; index: number; candidate: number | null; candidate_correct: boolean | null; correct: boolean | null; unusable: string | null };
  _source: string;
}

const SMALL = ['--no-proof', '--n-candidates', '2', '--n-verifications', '2', '--max-iterations', '2', '--judge-passes', '1', '--concurrency', '16'];
/** Flags that keep a strategy's run to a handful of calls. */
const OWN: Record<string, string[]> = { majority: ['--samples', '2'], pacore: ['--round-widths', '2,1'] };

/** The roles whose generations write a solution, by strategy: what a user filtering `data_source == "math"` expects to find. */
const WRITERS: Record<string, string[]> = {
  tmas: ['solution'],
  majority: ['solution'],
  'self-refine': ['solution', 'rewrite'],
  'verify-refine': ['prover'],
  'verify-refine-chains': ['solution', 'refine'],
  rse: ['rollout'],
  'mas-ceo': ['solver'],
  pacore: ['synthesis'],
};

test('every role of every built-in strategy declares what its generations are', () => {
  const undeclared = Object.values(STRATEGIES).flatMap((strategy) =>
    Object.entries(roleKinds(strategy))
      .filter(([, kind]) => kind === undefined)
      .map(([role]) => `${strategy.name}/${role}`),
  );
  expect(undeclared).toEqual([]);
  expect(Object.keys(WRITERS).sort()).toEqual(Object.keys(STRATEGIES).sort());
});

describe('tmas export --format rl labels', () => {
  test.for(Object.keys(STRATEGIES))('%s: solutions are math, gradings math_grm, memory and plans tmas_<role>', async (strategy, { dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, strategy);
    await runInProcess(['--input-file', input, '--output-file', run, '--strategy', strategy, ...SMALL, ...(OWN[strategy] ?? [])]);
    await runExportCommand(run, { format: 'rl', out: path.join(dir, 'rl.jsonl') });
    const rows = (await readFile(path.join(dir, 'rl.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    const spec = STRATEGIES[strategy];
    if (!spec) throw new Error(`no strategy ${strategy}`);
    const kinds = roleKinds(spec);
    const solutionRows = rows.filter((row) => row.data_source === 'math');
    expect(new Set(solutionRows.map((row) => row.extra_info.role))).toEqual(new Set(WRITERS[strategy]?.filter((role) => rows.some((r) => r.extra_info.role === role))));
    expect(solutionRows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const role = row.extra_info.role.split('#')[0] ?? '';
      const kind = kinds[role];
      const expected = kind === 'solution' ? 'math' : kind === 'grade' ? 'math_grm' : `tmas_${role}`;
      expect(row.data_source, `${strategy}/${row.extra_info.role}`).toBe(expected);
      // `_source` starts with the role that wrote the generation: an exploit solution is never `experience`.
      expect(row._source === role || row._source.startsWith(`${role}:`), `${row._source} of ${row.extra_info.role}`).toBe(true);
    }
    // The judge grades every strategy's candidates, a generative-reward record with the grade it judged.
    const judged = rows.filter((row) => row.extra_info.role === 'judge');
    expect(judged.length).toBeGreaterThan(0);
    expect(judged.every((row) => row.data_source === 'math_grm' && row.extra_info.candidate_correct !== null)).toBe(true);
    // Every grading record names the candidate it read and carries its grade (critiques, ratings, critics and evaluations had null):
    // a MAS-TTS critic only where its turn's draft is the round's solution, a later turn not having revised it.
    const grading = rows.filter((row) => row.data_source === 'math_grm');
    for (const row of grading) expect(row.extra_info.candidate, row.extra_info.role).not.toBeNull();
    const lastTurn = (iteration: number) => Math.max(...rows.filter((row) => row.extra_info.role === 'solver' && row.extra_info.iteration === iteration).map((row) => row.extra_info.index));
    for (const row of grading) {
      const revisedLater = row.extra_info.role === 'critic' && Math.floor(row.extra_info.index / 100) < lastTurn(row.extra_info.iteration);
      expect(row.extra_info.candidate_correct === null, `${strategy}/${row.extra_info.role} ${row.extra_info.index}`).toBe(revisedLater);
    }
    // Every solution record whose output was used carries the grade of the candidate it wrote (a rewrite's, a proof's, a synthesis's,
    // a rollout's had null); a MAS-TTS solver's draft only when no later turn revised it.
    for (const row of solutionRows.filter((r) => r.extra_info.unusable === null && !r.extra_info.role.includes('#'))) {
      const revisedLater = row.extra_info.role === 'solver' && row.extra_info.index < lastTurn(row.extra_info.iteration);
      expect(row.extra_info.correct === null, `${strategy}/${row.extra_info.role} ${row.extra_info.iteration}/${row.extra_info.index}`).toBe(revisedLater);
    }
    // Self-Refine's critique of iteration t reads the solution saved at t - 1: its grade is that one's, not the rewrite's.
    const results = (await readFile(path.join(run, 'results.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { iteration: number; candidates: Array<{ candidate: number; correct: boolean; correct_judge: number | null }> });
    for (const row of grading.filter((r) => r.extra_info.role === 'critique')) {
      const read = results.find((r) => r.iteration === row.extra_info.iteration - 1)?.candidates.find((c) => c.candidate === row.extra_info.candidate);
      expect(row.extra_info.candidate_correct).toBe(read?.correct_judge === null || read?.correct_judge === undefined ? read?.correct : read.correct_judge > 0.5);
    }
  });
});
