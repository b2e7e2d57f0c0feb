/**
 * How a reply closes, read as a reader reads it: cases whose conditions come
 * first, over one sentence or two. Each rule is shown with its near misses
 * (another value, the cases swapped) and with innocent uses of its trigger
 * words ("if", "for", "when", "otherwise") that must leave the answer as it
 * was. Every case was written for this project.
 */
import { describe, expect, it } from 'vitest';
import { verdictOfReply } from './grader-verdicts.ts';

const PARITY = String.raw`0 \text{ if } n \text{ even}, 1 \text{ if } n \text{ odd}`;
const PARITY_SWAPPED = String.raw`1 \text{ if } n \text{ even}, 0 \text{ if } n \text{ odd}`;

describe('cases whose conditions come before their values', () => {
  const endings = [
    'We split on parity.\n\nIf $n$ is even, the answer is $0$. If $n$ is odd, the answer is $1$.',
    'We split on parity.\n\nIf $n$ is even, the answer is $0$; if $n$ is odd, it is $1$.',
    'We split on parity.\n\nWhen $n$ is even the count is $0$, and when $n$ is odd it is $1$.',
    'We split on parity.\n\nFor even $n$ the count is $0$. For odd $n$ the count is $1$.',
    'We split on parity.\n\nIf $n$ is even, there are $0$ ways. Otherwise, there is $1$ way.',
  ];

  it('are the answer by cases, never the last case alone', () => {
    // Read as its last math, the last case's value was the answer: a reference 1 was graded equal, sure of it.
    for (const response of endings) {
      expect(verdictOfReply(response, PARITY), response).toBe('equal');
      expect(verdictOfReply(response, PARITY_SWAPPED), response).toBe('different');
      expect(verdictOfReply(response, '1'), response).toBe('unsure');
      expect(verdictOfReply(response, '0'), response).toBe('unsure');
    }
  });

  it('read a condition whose mathematics holds a comma whole', () => {
    const response = 'If $n \\in \\{1, 2\\}$, the answer is $3$. If $n \\ge 3$, the answer is $2$.';
    expect(verdictOfReply(response, '2')).toBe('unsure');
    expect(verdictOfReply(response, '3')).toBe('unsure');
  });

  it('leave an answer alone where "if", "for" or "when" opens one sentence only, or a sentence that states no value', () => {
    const innocent: Array<[string, string, string]> = [
      ['We try $n = 3$. If $n$ is odd, the sum is even.\n\nHence the answer is $5$.', '5', '4'],
      ['Hence the answer is $n = 5$. If $n$ were larger, the sum would exceed $100$.', '5', '100'],
      ['Thus the answer is $7$. If in doubt, one can check it: for $n = 7$ it is $49$.', '7', '49'],
      ['If $n = 1$, it is trivial. For all $n \\ge 2$, the value is $3$.', '3', '1'],
      ['If $n$ is even, we get $4$. If $n$ is odd, we also get $4$. In both cases the answer is $4$.', '4', '0'],
      ['So the answer is $0$ if $n$ is even and $1$ if $n$ is odd.', PARITY, PARITY_SWAPPED],
    ];
    for (const [response, right, wrong] of innocent) {
      expect(verdictOfReply(response, right), response).toBe('equal');
      expect(verdictOfReply(response, wrong), response).toBe('different');
    }
  });
});
