/**
 * A "must be at least 1, got 0" that is another field's (vLLM's own check
 * of `n`, a proxy's of `temperature`), said after the message named
 * max_tokens for another reason, is no completion limit of none: it is the
 * request's refusal, not the window's, and must not be refitted.
 */
import { expect, test } from 'vitest';
import { noCompletionLeft } from '../../../src/gateway/request/no-completion-left.ts';

// Before: each of these read as a window overflow (0), and the call was refitted into a smaller window and sent again.
test('another field\'s "at least 1, got 0" after max_tokens was named is not a limit of none', () => {
  expect(noCompletionLeft('Invalid max_tokens: 5; temperature must be at least 1, got 0')).toBeNull();
  expect(noCompletionLeft('max_tokens is accepted, but n must be at least 1, got 0.')).toBeNull();
  expect(noCompletionLeft("Unsupported parameter max_tokens for this model. Also: best_of must be at least 1, got 0")).toBeNull();
});

test('the limit field\'s own refusal is still read, in each server\'s words', () => {
  expect(noCompletionLeft('max_tokens must be at least 1, got -952.')).toBe(-952);
  expect(noCompletionLeft("Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.")).toBe(0);
  expect(noCompletionLeft('Input validation error: `max_new_tokens` must be strictly positive, got -3')).toBe(-3);
});
