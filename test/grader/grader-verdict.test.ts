/**
 * The `unsure` verdict in a run: a candidate the rule-based grader cannot
 * decide is marked, counted in the iteration's figures, not counted correct
 * by the rule, and left to the judge when one ran.
 */
import { describe, expect, it } from 'vitest';
import type { ProblemInput } from '../../machines/contract.ts';
import { createCandidates, toCandidateResult } from '../../machines/candidates.ts';
import { gradeCandidates, idleJudgeStage } from '../../machines/judge-stage.ts';
import { scoreIteration } from '../../src/observers/metrics.ts';

const REFERENCE = '1 \\text{ if } n \\text{ is even, otherwise } 0';

function candidatesWith(answers: string[]) {
  return createCandidates({ seed: 1, problem: 'p', iteration: 0, n: answers.length, epsilon: 0 }).map((c, k) => ({
    ...c,
    text: `The answer is $${answers[k] ?? ''}$.`,
    answer: answers[k] ?? null,
    summarized: true,
  }));
}

describe('unsure grades in a run', () => {
  it('marks and counts the candidates the grader is unsure of, and the judge decides them', () => {
    const candidates = candidatesWith(['1', '2']);
    const ruleOnly = candidates.map((c) => toCandidateResult(c, REFERENCE, 'q'));
    expect(ruleOnly.map((r) => [r.correct, r.unsure])).toEqual([[false, true], [false, true]]);
    expect(scoreIteration(ruleOnly)).toMatchObject({ unsure: 2, pass1: 0 });

    // One judge pass over a problem with a short answer: what the judge stage grades by.
    const input = { run: 'r', problem: { id: 'p', question: 'q', answer: REFERENCE }, ordinal: 0, settings: { judgePasses: 1, proof: false }, start: { iteration: 0, experience: [], guidelines: [], rollouts: [] } } as unknown as ProblemInput;
    const judged = gradeCandidates(ruleOnly, { ...idleJudgeStage(0), verdicts: { 0: [true], 1: [false] } }, input);
    expect(scoreIteration(judged)).toMatchObject({ unsure: 2, pass1: 0.5, pass1Rule: 0 });
  });

  it('leaves a decided grade unmarked', () => {
    const [result] = candidatesWith(['3']).map((c) => toCandidateResult(c, '3', 'q'));
    expect(result?.correct).toBe(true);
    expect(result?.unsure).toBeUndefined();
  });
});
