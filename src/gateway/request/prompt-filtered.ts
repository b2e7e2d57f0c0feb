/**
 * A prompt the API's content filter refused before any generation: Azure
 * OpenAI answers it with a 400 whose code is `content_filter` (its
 * `innererror` a `ResponsibleAIPolicyViolation`, with the categories that
 * tripped). The same prompt is refused every time, so retrying is no use,
 * and failing the call stopped its problem at that iteration for good: the
 * run ended incomplete (exit 3), and each resume sent the prompt again into
 * the same refusal. OpenAI's reasoning models refuse a prompt they flag
 * with a 400 whose code is `invalid_prompt` ("Invalid prompt: your prompt
 * was flagged as potentially violating our usage policy"), benign math
 * prompts among them. Either is what a reply cut by the filter is
 * (`finish_reason: "content_filter"`): an answer that holds nothing, which
 * each role takes as it takes a filtered reply (attempt.ts).
 */
import { APIError } from 'openai';

/** Whether `error` is the API's refusal of the prompt by its content filter. */
export function promptFiltered(error: unknown): boolean {
  if (!(error instanceof APIError) || error.status !== 400) return false;
  const inner = (error.error as { innererror?: { code?: unknown } } | undefined)?.innererror?.code;
  return error.code === 'content_filter' || error.code === 'invalid_prompt' || inner === 'ResponsibleAIPolicyViolation';
}
