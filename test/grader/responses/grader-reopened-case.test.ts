/**
 * A sentence after the answer that opens on "Wait", "Hmm" or "Actually" and names a case without saying it is checked:
 * "Wait, when $n = 3$ this breaks down." doubts the answer; only "… is easy to verify" or "… one can check this" leave
 * it. Cases written for this project.
 */
import { describe, it } from 'vitest';
import { expectReplies } from '../grader-verdicts.ts';

describe('a sentence after the answer that names a case of it', () => {
  it('reopens the answer unless it says the case is checked', () => {
    // Read as remarks (no value beyond the case, no word of a fault), each was graded equal, sure of it.
    expectReplies(
      [
        'So the answer is $\\boxed{21}$. Wait, when $m = 4$ this breaks down.',
        'So the answer is $\\boxed{21}$. Hmm, when $m = 4$ the formula gives a non-integer.',
        'The answer is $21$. Actually, when $m = 4$ the count is off by one.',
        'The answer is $21$. Wait, for $m = 4$ there is a problem.',
        'So we get $\\boxed{21}$. Wait, let me double-check when $m = 4$.',
      ],
      { 21: 'unsure' },
    );
  });

  it('leaves it where the case is said to be checked', () => {
    expectReplies(['The answer is $21$. Actually, when $m = 4$ this is also easy to verify directly.', 'So we get $\\boxed{21}$. Actually, for $m = 4$ one can check this by hand.'], {
      21: 'equal',
      22: 'different',
    });
  });
});
