/**
 * The JSON body of a chat completion request, encoded once as UTF-8 bytes.
 *
 * Given an object, the `openai` client serialises it and fetch then converts
 * the string to UTF-8, checking it character by character on the way: for a
 * 130,000-token prompt that holds the event loop for several milliseconds per
 * request. Bytes go through both untouched. The M verification requests of a
 * candidate carry the same messages (the pool answers their equal prompts
 * with one fitted string), so the encoded messages are kept while they recur,
 * and a retry sends the bytes it already has.
 */
import type { CompletionRequest } from './gateway.ts';

/** Bytes of encoded messages kept; the least recently used go first. */
const CACHE_BYTES = 32 * 2 ** 20;

/** Encoded messages of recent prompts, by user message: most prompts are a system message and a user message. */
const recent = new Map<string, { system: string; bytes: Buffer }>();
let recentBytes = 0;

/** The request's body: the model's parameters, then its messages. */
export function requestBody(request: CompletionRequest): Buffer {
  const head = {
    model: request.endpoint.model,
    max_tokens: request.maxTokens,
    seed: request.seed,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
  };
  // `{"model":…,"seed":…` + `,"messages":[…]}`
  const prefix = Buffer.from(`${JSON.stringify(head).slice(0, -1)},"messages":`);
  return Buffer.concat([prefix, encodedMessages(request.messages), CLOSE]);
}

const CLOSE = Buffer.from('}');

function encodedMessages(messages: CompletionRequest['messages']): Buffer {
  const [system, user, ...rest] = messages;
  if (system?.role !== 'system' || user?.role !== 'user' || rest.length > 0) return Buffer.from(JSON.stringify(messages));
  const cached = recent.get(user.content);
  if (cached !== undefined && cached.system === system.content) {
    recent.delete(user.content);
    recent.set(user.content, cached);
    return cached.bytes;
  }
  const bytes = Buffer.from(JSON.stringify(messages));
  if (cached !== undefined) recentBytes -= cached.bytes.length;
  recent.set(user.content, { system: system.content, bytes });
  recentBytes += bytes.length;
  for (const [oldest, entry] of recent) {
    if (recentBytes <= CACHE_BYTES) break;
    recent.delete(oldest);
    recentBytes -= entry.bytes.length;
  }
  return bytes;
}
