/**
 * Finish reasons that say a generation did not end. vLLM's and SGLang's
 * engines end an aborted request (a pause for new weights, a lost KV
 * transfer, a scheduler that gave up on it) with `finish_reason: "abort"`
 * and the text so far; OpenRouter ends a generation that failed midway
 * with `"error"`. Such a text is a piece of a reply: read as one, its
 * half-written boxes were graded and its tokens journaled as paid for good.
 * The attempt fails instead, and is retried like a stream cut short.
 */
import { ReplyError } from './reply-bounds.ts';

const UNFINISHED = new Set(['abort', 'error']);

/** Throws a ReplyError (`unfinished`) when `finishReason` says the server ended the generation before it was done. */
export function refuseUnfinished(finishReason: string | null | undefined): void {
  if (finishReason !== null && finishReason !== undefined && UNFINISHED.has(finishReason)) {
    throw new ReplyError('unfinished', `the server ended the generation unfinished (finish_reason "${finishReason}")`);
  }
}
