/**
 * An error answer's body in the shape the `openai` client reads its message
 * from, `{"error": {"message": …}}`, whatever shape the server used: SGLang
 * and older vLLM send `{"object": "error", "message": …, "code": 400}`,
 * FastAPI servers `{"detail": …}`, text-generation-inference
 * `{"error": "…"}`. The client keeps only a body's `error` field, so those
 * became "400 status code (no body)", and a context-length error there went
 * unrecognised (retry.ts), which is what makes a call shrink its prompt.
 */

/** `text` with its message moved under `error`, or `text` as it is when it is already so, or not JSON, or names no message. */
export function openAiErrorBody(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return text;
  const body = value as Record<string, unknown>;
  if (typeof body['error'] === 'object' && body['error'] !== null) return text;
  const message = typeof body['error'] === 'string' ? body['error'] : typeof body['message'] === 'string' ? body['message'] : detailText(body['detail']);
  return message === null ? text : JSON.stringify({ error: { ...body, message } });
}

/**
 * FastAPI's `detail`: a message, or a list of validation errors each with
 * its `msg` and the field it is about (`loc`, as `body.max_tokens`): "Field
 * required" alone did not say which field to fix.
 */
function detailText(detail: unknown): string | null {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return null;
  const messages = detail.flatMap((item) => {
    const { msg, loc } = (item ?? {}) as { msg?: unknown; loc?: unknown };
    if (typeof msg !== 'string') return [];
    return Array.isArray(loc) && loc.length > 0 ? [`${msg} (${loc.join('.')})`] : [msg];
  });
  return messages.length > 0 ? messages.join('; ') : null;
}
