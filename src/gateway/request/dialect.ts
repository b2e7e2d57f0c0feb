/**
 * Recognising what an endpoint refuses: OpenAI's reasoning-model dialect
 * refuses `max_tokens` ("Use 'max_completion_tokens' instead") and any
 * sampling field but the defaults, with a 400 that names the field; a server
 * that knows only OpenAI's `stream_options` refuses `continuous_usage_stats`.
 */
import { APIError } from 'openai';
import { InBandError } from '../reply/in-band-error.ts';

/** Fields a reasoning endpoint refuses that the `chat` dialect sends. */
const REFUSED_FIELDS = ['max_tokens', 'temperature', 'top_p', 'top_k', 'min_p'] as const;

/** The refused field when `error` is such a 400, else null. */
export function rejectsChatDialect(error: unknown): string | null {
  if (!(error instanceof APIError) || error.status !== 400) return null;
  const param = typeof error.param === 'string' ? error.param : '';
  const field = REFUSED_FIELDS.find((name) => param === name || new RegExp(`'${name}'|"${name}"|\\b${name}\\b`).test(error.message));
  if (field === undefined) return null;
  return /unsupported|not supported|does not support|only the default|use 'max_completion_tokens'/i.test(error.message) || error.code === 'unsupported_parameter' || error.code === 'unsupported_value'
    ? field
    : null;
}

/** Whether `error` is a 400 or 422 (a strict server's validation error) about `stream_options` or `continuous_usage_stats`, the field the gateway adds to count a server's tokens from its streams. */
export function rejectsContinuousUsage(error: unknown): boolean {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return false;
  const param = typeof error.param === 'string' ? error.param : '';
  return /stream_options|continuous_usage_stats/.test(`${param} ${error.message}`);
}

/**
 * Whether `error` is a 400 or 422 that refuses streamed replies: OpenAI's
 * reasoning models for an organization not verified ("Your organization must
 * be verified to stream this model", param `stream`), its first o1 models
 * ("'stream' does not support true with this model"), and servers that say
 * streaming is not supported. `stream_options` is not `stream`: the usage
 * field's refusal is read apart (rejectsContinuousUsage, refused-field.ts).
 * An error inside a stream that began is no refusal of streaming: the
 * server streamed.
 */
export function refusesStreaming(error: unknown): boolean {
  if (!(error instanceof APIError) || error instanceof InBandError || (error.status !== 400 && error.status !== 422)) return false;
  if (error.param === 'stream') return true;
  return /\bto stream\b|'stream'|"stream"|\bstream(?:ing)? (?:is |are )?(?:not supported|unsupported|not allowed|not available)|does not support stream(?:ing)?\b/i.test(error.message);
}

/**
 * Whether `error` is a 400 or 422 that refuses the system role: a chat
 * template without one (Gemma 2's raises "System role not supported"; older
 * Mistral and Llama 2 templates "Conversation roles must alternate
 * user/assistant/user/assistant/..." at a system message), which vLLM and
 * SGLang answer with a 400, or OpenAI's first o1 models ("'messages[0].role'
 * does not support 'system' with this model"). Every call of tmas opens with
 * a system message, so every one was refused alike.
 */
export function refusesSystemRole(error: unknown): boolean {
  if (!(error instanceof APIError) || error instanceof InBandError || (error.status !== 400 && error.status !== 422)) return false;
  return /system role (?:is )?not supported|does not support (?:the )?'?system'?(?: role)?|roles must alternate user\/assistant/i.test(error.message);
}
