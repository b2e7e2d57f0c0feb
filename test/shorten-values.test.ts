/**
 * A value a prompt quotes whole, shortened when the prompt does not fit its
 * budget even with every droppable piece left out (workers/shorten-values.ts),
 * counted with o200k_base as the pool counts.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, test } from 'vitest';
import { fitPrompt } from '../workers/fit-prompt.ts';
import type { FitTask } from '../workers/tasks.ts';

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

  test('a prompt that fits is sent whole; one whose value is not shortenable, or would keep almost nothing, is over the budget as before', () => {
    const whole = fitPrompt(distillTask(1_000, 8_000), counter);
    expect(whole.user).not.toContain('left out here');
    expect(whole.dropped).toEqual([]);
    expect(fitPrompt(distillTask(20_000, 8_000, false), counter).promptTokens).toBeGreaterThan(8_000);
    expect(fitPrompt(distillTask(20_000, 200), counter).promptTokens).toBeGreaterThan(200);
  });
});
