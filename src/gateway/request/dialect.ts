/**
 * Recognising what an endpoint refuses: OpenAI's reasoning-model dialect
 * refuses `max_tokens` ("Use 'max_completion_tokens' instead") and any
 * sampling field but the defaults, with a 400 that names the field; a server
 * that knows only OpenAI's `stream_options` refuses `continuous_usage_stats`.
 */
import { APIError } from 'openai';

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
