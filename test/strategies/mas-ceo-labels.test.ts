/**
 * MAS-TTS's critic and evaluator read their labels as a reasoning model writes
 * them: in bold, or with the word in bold. Before, `**Decision:** Agree` was "no
 * Decision line" (the critic cast no vote), `**Correctness:** 1` none either (the
 * problem did not stop), and the advice of `**Advice:** stop` was "** stop",
 * which the next CEO read.
 */
import { describe, expect, test } from 'vitest';
import { missingDecision, parseAgreement, parseEvaluation } from '../../machines/strategies/mas-ceo/mas-ceo.roles.ts';

describe('mas-ceo labels in Markdown', () => {
  test.for(['**Decision:** Agree', '**Decision**: agree', 'Decision: **agree**', '*Decision:* _agree_'])('a critic\'s %j is a vote to agree', (line) => {
    const text = `My answer is also 42.\n\n${line}`;
    expect(missingDecision({ content: text, finishReason: 'stop' })).toBeNull();
    expect(parseAgreement(text)).toBe(true);
  });

  test('a critic\'s bold disagreement is a vote to disagree, and words without a decision are none', () => {
    expect(parseAgreement('Mine is 41.\n**Decision:** Disagree')).toBe(false);
    expect(missingDecision({ content: 'Mine is 41.\n**Decision:** Disagree', finishReason: 'stop' })).toBeNull();
    expect(missingDecision({ content: 'I agree with the solution.', finishReason: 'stop' })).toMatch(/no "Decision: agree"/);
  });

  test('an evaluator\'s bold correctness and advice are read without their Markdown', () => {
    expect(parseEvaluation('**Correctness:** 1\n**Advice:** stop')).toEqual({ correct: true, advice: 'stop' });
    expect(parseEvaluation('Correctness: **0**\nAdvice: check the last step.')).toEqual({ correct: false, advice: 'check the last step.' });
    expect(parseEvaluation('It looks right.').parseError).toMatch(/no "Correctness: 0" or "Correctness: 1" line/);
  });
});
