/**
 * A value a prompt quotes whole, shortened when the prompt does not fit its
 * budget even with every droppable piece left out (workers/shorten-values.ts),
 * counted with o200k_base as the pool counts.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, test } from 'vitest';
import { fitPrompt } from '../../workers/fit-prompt.ts';
import type { FitTask } from '../../workers/tasks.ts';

const encoding = new Tiktoken(o200k);
const count = (text: string) => encoding.encode(text).length;
const counter = { count, framing: (system: string) => count(system) + 8 };

/** A distiller's prompt: the problem, then an attempt of `words` numbered words, quoted whole. */
function distillTask(words: number, budget: number, shortens = true): Pick<FitTask, 'system' | 'parts' | 'budget'> {
  const attempt = Array.from({ length: words }, (_, i) => `step${i}`).join(' ');
  return {
    system: 'You are the Distill agent.',
    parts: [{ id: 'user', template: 'Problem: {{ problem }}\n\nAttempt:\n{{ solution }}\n\nDistil it.', variables: { problem: 'Find x.', solution: attempt }, ...(shortens ? { shortens: [{ id: 'solution', path: ['solution'] }] } : {}) }],
    budget,
  };
}

describe('a quoted value shortened to fit', () => {
  test('keeps the attempt\'s start and end, says how much was left out, fits the budget and names the value', () => {
    const fitted = fitPrompt(distillTask(20_000, 8_000), counter);
    expect(fitted.promptTokens).toBeLessThanOrEqual(8_000);
    expect(fitted.promptTokens).toBeGreaterThan(7_000);
    expect(fitted.user).toMatch(/^Problem: Find x\.\n\nAttempt:\nstep0 step1 /);
    expect(fitted.user).toMatch(/step19999\n\nDistil it\.$/);
    expect(fitted.user).toMatch(/\[… \d+ tokens left out here: the rest of this text did not fit the context window …\]/);
    expect(fitted.dropped).toEqual(['solution:middle']);
  });

  test("a text part with a token bound (the judge's view of a response) is cut to its bound, and further when the window leaves less", () => {
    const response = Array.from({ length: 20_000 }, (_, i) => `w${i}`).join(' ');
    const judgeTask = (budget: number): Pick<FitTask, 'system' | 'parts' | 'budget'> => ({
      system: 'You are the judge.',
      parts: [{ id: 'candidate', text: response, maxTokens: 16_384 }, { id: 'reference', text: 'The reference answer is 4.' }],
      budget,
    });
    const roomy = fitPrompt(judgeTask(32_000), counter);
    expect(roomy.user).toMatch(/tokens left out here: the judge reads at most 16384 tokens of a response …\]/);
    expect(roomy.dropped).toEqual([]);
    // At a 16k window the budget is 12,032 tokens: the view of 16,384 did not fit, and the call was not sent.
    const tight = fitPrompt(judgeTask(12_032), counter);
    expect(tight.promptTokens).toBeLessThanOrEqual(12_032);
    expect(tight.user).toMatch(/tokens left out here: the rest of this text did not fit the context window …\]/);
    expect(tight.user).toMatch(/^w0 w1 [\s\S]* w19999\n\nThe reference answer is 4\.$/);
    expect(tight.dropped).toEqual(['candidate:middle']);
  });

  test('of several shortenable values, a short one stays whole while a long one gives way', () => {
    const draft = Array.from({ length: 20_000 }, (_, i) => `d${i}`).join(' ');
    const task: Pick<FitTask, 'system' | 'parts' | 'budget'> = {
      system: 'You are the Solver.',
      parts: [{ id: 'user', template: '{{ previous }}\n\n{% for c in critiques %}{{ c }}\n{% endfor %}', variables: { previous: draft, critiques: ['The second step divides by zero.'] }, shortens: [{ id: 'previous', path: ['previous'] }, { id: 'critique-0', path: ['critiques', 0] }] }],
      budget: 6_000,
    };
    const fitted = fitPrompt(task, counter);
    expect(fitted.promptTokens).toBeLessThanOrEqual(6_000);
    expect(fitted.user).toContain('The second step divides by zero.');
    expect(fitted.dropped).toEqual(['previous:middle']);
  });

  test('a prompt that fits is sent whole; one whose value is not shortenable, or would keep almost nothing, is over the budget as before', () => {
    const whole = fitPrompt(distillTask(1_000, 8_000), counter);
    expect(whole.user).not.toContain('left out here');
    expect(whole.dropped).toEqual([]);
    expect(fitPrompt(distillTask(20_000, 8_000, false), counter).promptTokens).toBeGreaterThan(8_000);
    expect(fitPrompt(distillTask(20_000, 200), counter).promptTokens).toBeGreaterThan(200);
  });
});
