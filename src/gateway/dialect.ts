/**
 * Recognising an endpoint that speaks OpenAI's reasoning-model dialect: it
 * refuses `max_tokens` ("Use 'max_completion_tokens' instead") and any
 * sampling field but the defaults, with a 400 that names the field.
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
