/**
 * A server that answers `GET /models` with a 404: it may have no model list
 * (a gateway or a server that only routes completions), or the base URL may
 * miss its `/v1`. With the model named, a one-token completion of it tells
 * the two apart: a server that completes it (or refuses the request's
 * fields, a 4xx other than 404: it read them) is called as named; one that
 * answers 404 there too is at the wrong address, or serves no such model.
 * A key refused its model list (a 401 or 403) is told apart alike: one that
 * completes the model is a key without the scope to list models.
 */
import type OpenAI from 'openai';
import { APIError } from 'openai';
import { describeFailure } from './request/retry.ts';

/**
 * Null when the chat route answers for `model`, else what it answered (the
 * reason to refuse the endpoint). `keyChecked`: the key itself is in doubt
 * (the list refused it), so a 401 or 403 here is no answer either.
 */
export async function chatAnswersUnlisted(client: OpenAI, model: string, signal: AbortSignal, { keyChecked = false } = {}): Promise<string | null> {
  try {
    await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1, stream: false }, { signal });
    return null;
  } catch (error) {
    // Stopped by the check's deadline: the server kept the call open, which the client words as "Request was aborted."
    if (signal.aborted) return 'it was not answered before the start-up check gave up waiting: the server holds the call open';
    // A refused key is told by the model list's own 401 or 403; here, a 4xx other than 404 is a server that read the request.
    const refusedKey = keyChecked && (error instanceof APIError && (error.status === 401 || error.status === 403));
    if (error instanceof APIError && error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 404 && !refusedKey) return null;
    return describeFailure(error);
  }
}
