/**
 * The tokens a server decodes, counted from the text its streams carry: for a
 * server whose metrics have no token counter and whose streams carry no usage
 * until their end (TGI, llama.cpp). The knee (throughput-knee.ts) needs only
 * a count that grows with the tokens decoded, at the time they are decoded.
 *
 * Text counts as tokens only once finished calls show that it does: each call
 * that ends with its usage gives its characters per token, and the text is
 * trusted when the recent calls agree (the spread between their 10th and 90th
 * percentiles at most MAX_SPREAD). A model's text runs at a steady few
 * characters a token; text that is not what was decoded (a hidden reasoning
 * of which only the answer is streamed, a server that pads or trims) does not,
 * and is never taken for the decoding.
 */

import { createRecentValues } from './recent-values.ts';

/** Finished calls needed before the text is judged. */
export const CALLS_TO_JUDGE = 8;
/** Calls kept for the judgment, the most recent. */
const KEPT = 32;
/** The largest ratio of the 90th to the 10th percentile of characters per token that counts as steady. */
const MAX_SPREAD = 1.5;
/** Calls shorter than this say little of their ratio (a few tokens of framing weigh too much). */
const LEAST_TOKENS = 100;

/** What the finished calls say of the text. */
type TextVerdict = 'unknown' | 'steady' | 'unsteady';

/** The text of one server's streams. */
export interface StreamedText {
  /** Characters of text arrived on a stream. */
  add(chars: number): void;
  /** A call ended with `chars` characters of text and, when the server said, its completion tokens. */
  ended(chars: number, completionTokens: number | null): void;
  readonly verdict: TextVerdict;
  /** The tokens the text counted so far: its characters over the median characters per token of the calls first judged (0 until steady). */
  readonly tokens: number;
}

export function createStreamedText(): StreamedText {
  const ratios = createRecentValues(KEPT);
  let chars = 0;
  let verdict: TextVerdict = 'unknown';
  let charsPerToken = Number.NaN;
  return {
    add(count) {
      chars += count;
    },
    ended(count, completionTokens) {
      if (verdict === 'unsteady' || completionTokens === null || completionTokens < LEAST_TOKENS || count <= 0) return;
      ratios.add(count / completionTokens);
      if (ratios.size < CALLS_TO_JUDGE) return;
      const at = (q: number) => ratios.quantile(q) as number;
      if (at(0.9) / at(0.1) > MAX_SPREAD) {
        verdict = 'unsteady';
        return;
      }
      // Fixed at the first judgment, so that the count never jumps between two readings.
      if (verdict === 'unknown') charsPerToken = at(0.5);
      verdict = 'steady';
    },
    get verdict() {
      return verdict;
    },
    get tokens() {
      return verdict === 'steady' ? chars / charsPerToken : 0;
    },
  };
}
