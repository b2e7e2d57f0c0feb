/**
 * Self-Refine's stop reads the critique's conclusion, not any line of it: a
 * reasoning model's step-by-step critique says "It is correct." of a step it
 * checked and then finds an error in the next, and its candidate must be
 * rewritten; one that weighs a doubt and concludes "It is correct." stops.
 * End to end, on a server of the test's own that answers as such a model.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { critiqueFindsNoError } from '../../machines/strategies/self-refine/self-refine.roles.ts';
import { ofType, readLog, runInProcess, serveModel, test, writeProblems } from '../fixtures.ts';

/** A critique that calls its first step correct, then finds the error that sinks the solution. */
const FINDS_AN_ERROR_AFTER_A_CORRECT_STEP = [
  '**Step 1.** The solution rewrites the product as 2 · 3 and keeps every factor. It is correct.',
  '**Step 2.** It then adds the factors instead of multiplying them: 2 + 3 = 5 is not the product asked for.',
  '',
  '**Conclusion:** the final answer rests on step 2, which is wrong; the solution should multiply.',
  '',
  'SCORE: 0.1',
].join('\n');

/** A critique that doubts a step, checks it again, and concludes there is no error. */
const CONCLUDES_NO_ERROR = [
  '**Step 1.** The product is rewritten as 3 · 4, which may drop a factor; checking again, every factor is kept.',
  '**Step 2.** 3 · 4 = 12 is computed right.',
  '',
  '**Verdict:** There is no error. It is correct.',
  '',
  '---',
  '**SCORE:** 0.95',
].join('\n');

test('self-refine rewrites a candidate whose critique calls a step correct and then finds an error, and stops one whose conclusion finds none', async ({ dir }) => {
  const server = await serveModel((body) => {
    if (body.includes('You are the Critique agent')) return body.includes('Compute 2 times 3.') ? FINDS_AN_ERROR_AFTER_A_CORRECT_STEP : CONCLUDES_NO_ERROR;
    return body.includes('Compute 2 times 3.') ? 'Multiplying, the product is \\boxed{5}.' : 'Multiplying, the product is \\boxed{12}.';
  });
  try {
    const input = await writeProblems(dir, [
      { problem_id: 'p1', question: 'Compute 2 times 3.', answer: '6' },
      { problem_id: 'p2', question: 'Compute 3 times 4.', answer: '12' },
    ]);
    const output = path.join(dir, 'out');
    await runInProcess(['--input-file', input, '--output-file', output, '--base-url', server.url, '--model-name', 'm', '--no-proof', '--strategy', 'self-refine', '--n-candidates', '1', '--max-iterations', '3']);
    const messages = (await readLog(output)).map((envelope) => envelope.message);
    // p1: both critiques found the error, so both iterations rewrote the candidate.
    expect(ofType(messages, 'critique.completed', 'p1').map((m) => m.correct)).toEqual([false, false]);
    expect(ofType(messages, 'rewrite.requested', 'p1')).toHaveLength(2);
    // p2: its first critique concluded there was no error: the candidate stopped, no rewrite and no second critique.
    expect(ofType(messages, 'critique.completed', 'p2').map((m) => m.correct)).toEqual([true]);
    expect(ofType(messages, 'rewrite.requested', 'p2')).toHaveLength(0);
  } finally {
    await server.close();
  }
});

test('the stop is read from the conclusion: the last line of the final text before the score', () => {
  expect(critiqueFindsNoError(FINDS_AN_ERROR_AFTER_A_CORRECT_STEP)).toBe(false);
  expect(critiqueFindsNoError(CONCLUDES_NO_ERROR)).toBe(true);
  expect(critiqueFindsNoError('Step 1 holds. It is correct.\nStep 2 drops a sign.\nSCORE: 0.2')).toBe(false);
  expect(critiqueFindsNoError('Step 2 looked wrong, but the sign is right.\nIt is correct.\n\nSCORE: 1\n')).toBe(true);
  expect(critiqueFindsNoError('<think>\nStep 2 drops a sign.\n</think>\nThere is no error. It is correct.\nSCORE: 0.9')).toBe(true);
  expect(critiqueFindsNoError('It is correct.\nSCORE: 1\nStep 2 drops a sign.')).toBe(false);
  expect(critiqueFindsNoError('SCORE: 1')).toBe(false);
});
