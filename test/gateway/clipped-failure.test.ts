/**
 * A failure quoted in a run's results and messages is shortened at a word's
 * end. Before, a cut at 200 characters turned `(--keepalive-timeout 20)` into
 * `(--keepalive-time`, a flag tmas does not have.
 */
import { expect, test } from 'vitest';
import { clippedText } from '../../src/kernel/clipped-text.ts';

test('a long failure is cut at a word\'s end and marked, a short one kept, a text without spaces cut at the limit', () => {
  const failure = 'ReplyError: the server sent only keep-alives (comments such as ": ping", events without text) or bytes too slow to end one, for 20 s (--keepalive-timeout 20); then the same on the retry, and the call failed for good';
  const shown = clippedText(failure, 200);
  expect(shown.length).toBeLessThanOrEqual(201);
  expect(shown.endsWith('…')).toBe(true);
  // Every word shown is one of the failure's, whole.
  const words = new Set(failure.split(' '));
  for (const word of shown.slice(0, -1).split(' ')) expect(words.has(word), word).toBe(true);
  expect(clippedText('short', 200)).toBe('short');
  expect(clippedText('x'.repeat(300), 200)).toBe(`${'x'.repeat(200)}…`);
});
