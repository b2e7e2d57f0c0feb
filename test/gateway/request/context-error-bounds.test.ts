/**
 * A context-length error's words are read for the window and the request's
 * size (context-errors.ts) on the host's main thread, from an error body of
 * up to 64 KiB (http-transport.ts MAX_ERROR_BODY_BYTES) that any server may
 * fill: reading it must take time in proportion to its length, or one
 * refusal holds every actor of the run for seconds.
 */
import { describe, expect, test } from 'vitest';
import { MAX_ERROR_BODY_BYTES } from '../../../src/gateway/request/http-transport.ts';
import { requestedTokens, statedWindow } from '../../../src/host/calls/context-errors.ts';

const fill = (head: string, run: string, tail: string) => head + run.repeat(MAX_ERROR_BODY_BYTES - head.length - tail.length) + tail;

describe('the words of a context-length error as long as an error body may be', () => {
  test.each([
    ['a run of digits, then words that make it a context-length error', fill('', '1', ' too many tokens')],
    ['a window named, then spaces where its number should be', fill('context length', ' ', 'x')],
    ["xAI's prompt length, then spaces", fill('maximum prompt length is', ' ', 'x')],
    ['a prompt too long, then digits', fill('The prompt is too long: ', '9', '')],
  ])('%s: read in well under a second', (_, body) => {
    const started = performance.now();
    statedWindow(body);
    requestedTokens(body);
    // Before: 5 to 16 s each, in time quadratic in the body's length.
    expect(performance.now() - started).toBeLessThan(500);
  });

  test("the hosted wordings are still read: Mistral's window before its words, Fireworks' and xAI's after theirs", () => {
    expect(statedWindow('Prompt contains 9000 tokens and 0 draft tokens, too large for model with 8192 maximum context length')).toBe(8192);
    expect(statedWindow('The prompt is too long: 9000, model maximum context length: 8192')).toBe(8192);
    expect(statedWindow("This model's maximum prompt length is 8192 but the request contains 9000 tokens.")).toBe(8192);
    expect(requestedTokens("This model's maximum prompt length is 8192 but the request contains 9000 tokens.")).toBe(9000);
  });
});
