/**
 * A reply's tokens counted with the run's tokenizer (token-meter.ts) against
 * its limits (completion-bounds.ts' ReplyLimits): its text, answer and
 * reasoning together, against its room; and, where the room is larger than
 * the completion limit, its answer alone against that limit. A server that
 * holds its visible reasoning apart from `max_tokens` (DeepSeek's reasoner,
 * early 2025: the answer at most 8K tokens, the reasoning up to 32K of its
 * own) streams reasoning past the limit: counted with the answer against the
 * limit, each such stream was cut as a runaway, retried at full price and
 * failed. A stream that runs away is still cut, past the room (what the
 * window leaves its prompt: no server generates more), or past the limit in
 * its answer. Where the room is the limit (a run without
 * `--completion-max-tokens`, the default), one count does both.
 */
import { roomBound, type ReplyLimits } from './completion-bounds.ts';
import type { ReplyError } from './reply-bounds.ts';
import { createTokenMeter, type CountTexts } from './token-meter.ts';

/** The counts of one reply. */
export interface ReplyTokens {
  /** A piece of text arrived: `sofar` gives all the text so far; `answerSofar` the answer's, null when the piece is reasoning. */
  add(piece: string, sofar: () => string, answerSofar: (() => string) | null): void;
  /** The count of the whole text (`reasoning` and `content`), the rest counted now; rejects past the room, or past the limit in the answer. */
  total(why: string, reasoning: string, content: string): Promise<number>;
  stop(): void;
  /** Starts the counts over (another choice's text was counted: token-meter.ts). */
  restart(): void;
}

export interface ReplyTokensOptions {
  limits: ReplyLimits;
  count: CountTexts;
  signal?: AbortSignal | undefined;
  onOver?: (error: ReplyError) => void;
}

/** Starts the counts of one reply. */
export function createReplyTokens(options: ReplyTokensOptions): ReplyTokens {
  const { limits, count, signal, onOver } = options;
  const all = createTokenMeter({ maxTokens: limits.room, count, signal, bound: roomBound(limits), ...(onOver === undefined ? {} : { onOver }) });
  const answer = limits.room > limits.maxTokens ? createTokenMeter({ maxTokens: limits.maxTokens, count, signal, ...(onOver === undefined ? {} : { onOver }) }) : null;
  return {
    add(piece, sofar, answerSofar) {
      all.add(piece, sofar);
      if (answer !== null && answerSofar !== null) answer.add(piece, answerSofar);
    },
    async total(why, reasoning, content) {
      try {
        const [whole] = await Promise.all([all.total(why, reasoning + content), answer?.total(why, content)]);
        return whole;
      } finally {
        all.stop();
        answer?.stop();
      }
    },
    stop() {
      all.stop();
      answer?.stop();
    },
    restart() {
      all.restart();
      answer?.restart();
    },
  };
}
