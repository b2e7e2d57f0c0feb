/**
 * results.jsonl is spelled in snake_case like the problem input and the RL
 * export, holds what the store holds, and a results.jsonl of an older run
 * (camelCase) still reads the same.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { CandidateResult } from '../../src/kernel/protocol.ts';
import { readResults } from '../../src/store/results-line.ts';
import { Store } from '../../src/store/store.ts';
import { runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

/** Every key of a parsed line, its candidates' and their judge's. */
function keysOf(line: { candidates: Array<Record<string, unknown>> }): string[] {
  return [
    ...Object.keys(line),
    ...line.candidates.flatMap((candidate) => [...Object.keys(candidate), ...Object.keys((candidate.judge as object | null) ?? {})]),
  ];
}

test('results.jsonl is snake_case, reads back as the store holds it, and an old camelCase file reads the same', async ({ dir }) => {
  const input = await writeProblems(dir, smallProblems(2));
  const run = path.join(dir, 'run');
  await runInProcess(['--input-file', input, '--output-file', run, '--no-proof', '--n-candidates', '2', '--n-verifications', '2', '--max-iterations', '2', '--judge-passes', '1']);
  const file = path.join(run, 'results.jsonl');
  const text = await readFile(file, 'utf8');
  const parsed = text.trim().split('\n').map((line) => JSON.parse(line) as { candidates: Array<Record<string, unknown>> });
  expect(parsed).toHaveLength(2 * 2);
  const keys = new Set(parsed.flatMap(keysOf));
  expect([...keys].filter((key) => /[A-Z]/.test(key))).toEqual([]);
  for (const key of ['verification_scores', 'summary_score', 'correct_judge', 'verdicts']) expect(keys).toContain(key);

  // The reader gives the candidates exactly as the store keeps them.
  const lines = await readResults(file);
  const store = await Store.open(run);
  const stored: Array<{ problem: string; iteration: number; candidates: CandidateResult[] }> = [];
  try {
    for await (const record of store.iterationRecords()) stored.push({ problem: record.problem, iteration: record.iteration, candidates: record.candidates });
  } finally {
    await store.close();
  }
  expect(lines.map(({ problem, iteration, candidates }) => ({ problem, iteration, candidates }))).toEqual(stored);

  // A run of an older tmas wrote the same lines in camelCase.
  const old = path.join(dir, 'old-results.jsonl');
  await writeFile(old, text.replace(/"verification_scores"/g, '"verificationScores"').replace(/"summary_score"/g, '"summaryScore"').replace(/"correct_judge"/g, '"correctJudge"'));
  expect(await readFile(old, 'utf8')).toContain('"correctJudge"');
  expect(await readResults(old)).toEqual(lines);
});
