/**
 * Text counted as tokens (src/gateway/load/streamed-text.ts): only once finished
 * calls show a steady number of characters per token.
 */
import { describe, expect, test } from 'vitest';
import { CALLS_TO_JUDGE, createStreamedText } from '../../../src/gateway/load/streamed-text.ts';

describe('streamed text as a token count', () => {
  test('a text of 3.6 to 4.4 characters a token is steady, and counts its characters over the median ratio', () => {
    const text = createStreamedText();
    for (let call = 0; call < CALLS_TO_JUDGE; call++) {
      expect(text.verdict).toBe('unknown');
      expect(text.tokens).toBe(0);
      const tokens = 1_000 + call * 500;
      const chars = Math.round(tokens * (3.6 + (call % 5) * 0.2));
      text.add(chars);
      text.ended(chars, tokens);
    }
    expect(text.verdict).toBe('steady');
    const counted = text.tokens;
    text.add(4_000);
    expect(text.tokens - counted).toBeGreaterThan(4_000 / 4.4);
    expect(text.tokens - counted).toBeLessThan(4_000 / 3.6);
  });

  test('a text of the same length whatever the tokens decoded (a drawn usage, a hidden reasoning) is unsteady and counts nothing', () => {
    const text = createStreamedText();
    // Heavy-tailed lengths, as a thinking model's: 2k to 60k tokens for the same 1,200 characters.
    for (const tokens of [2_000, 60_000, 9_000, 12_000, 4_000, 30_000, 15_000, 7_000]) text.ended(1_200, tokens);
    expect(text.verdict).toBe('unsteady');
    text.add(1_000);
    expect(text.tokens).toBe(0);
    // Once unsteady, always: a steady stretch later does not bring it back.
    for (let call = 0; call < CALLS_TO_JUDGE * 2; call++) text.ended(4_000, 1_000);
    expect(text.verdict).toBe('unsteady');
  });

  test('calls without their usage, or too short to say, judge nothing', () => {
    const text = createStreamedText();
    for (let call = 0; call < CALLS_TO_JUDGE * 2; call++) {
      text.ended(4_000, null);
      text.ended(40, 10);
    }
    expect(text.verdict).toBe('unknown');
  });
});
