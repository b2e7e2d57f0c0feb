/**
 * The JSON body of a chat completion request, encoded once as UTF-8 bytes.
 *
 * Given an object, the `openai` client serialises it and fetch then converts
 * the string to UTF-8, checking it character by character on the way: for a
 * 130,000-token prompt that holds the event loop for several milliseconds per
 * request. Bytes go through both untouched, and large messages are serialised
 * on a pool thread when the gateway has one. The M verification requests of a
 * candidate carry the same messages (the pool answers their equal prompts
 * with one fitted string), so the encoded messages are kept while they recur,
 * and a retry sends the bytes it already has.
 */
import { approximateChars, OFF_THREAD_JSON_CHARS } from '../../pool/approximate-chars.ts';
import { SizedLru } from '../../pool/sized-lru.ts';
import type { CompletionRequest } from '../reply/completion.ts';

/** Serialises a value to JSON in UTF-8 bytes, off the main thread. */
export type JsonEncoder = (value: unknown) => Promise<Uint8Array>;

/**
 * Encoded messages of recent prompts, by user message (most prompts are a
 * system message and a user message), up to about 4 M characters. The M
 * verification requests of a candidate ask for their body together, before
 * waiting for a slot, so a few entries serve them; the bytes live outside V8's
 * heap and count in full in the process's memory (a cap eight times this one
 * raised the overhead benchmark's peak RSS).
 */
const recent = new SizedLru<string, { system: string; bytes: Promise<Uint8Array> }>(4 * 2 ** 20);

/** How the completion limit and sampling are sent: `chat` (vLLM, SGLang, most servers) or `openai-reasoning` (OpenAI's o-series and gpt-5: `max_completion_tokens`, no sampling fields). */
export type RequestDialect = 'chat' | 'openai-reasoning';

/** How one request is sent. */
export interface BodyOptions {
  dialect: RequestDialect;
  stream: boolean;
  /** Asks a stream for its usage in every chunk (`continuous_usage_stats`, vLLM and SGLang): the tokens it decodes, as they come. */
  continuousUsage?: boolean;
  /** Fields of tmas's own that the endpoint refused (refused-field.ts): `seed`, `stream_options`, `stream`; `system`, the system role (foldedSystem). */
  omit?: ReadonlySet<string>;
}

/** The request's parameters, before its messages. Sampling fields appear only when set; `--extra-body` is merged last. */
export function requestHead(request: CompletionRequest, options: BodyOptions): Record<string, unknown> {
  const sampling = request.sampling ?? {};
  const head: Record<string, unknown> =
    options.dialect === 'openai-reasoning'
      ? { model: request.endpoint.model, max_completion_tokens: request.maxTokens, seed: request.seed }
      : {
          model: request.endpoint.model,
          max_tokens: request.maxTokens,
          seed: request.seed,
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          ...(sampling.topP === undefined ? {} : { top_p: sampling.topP }),
          ...(sampling.topK === undefined ? {} : { top_k: sampling.topK }),
          ...(sampling.minP === undefined ? {} : { min_p: sampling.minP }),
        };
  Object.assign(head, sampling.extraBody);
  // `--extra-body` may not change what tmas itself must control: the model, the messages and how the reply is read
  // (one choice a call: `n` above 1 paid for generations no call reads, and their tokens passed its limit).
  head['model'] = request.endpoint.model;
  delete head['messages'];
  delete head['stream'];
  delete head['stream_options'];
  delete head['n'];
  // Messages that end with the assistant's are a reply to continue (a budget-forced one): vLLM and SGLang
  // continue that message with these two fields (add_generation_prompt defaults to true and may not be
  // set with continue_final_message); OpenAI's reasoning models know neither.
  if (options.dialect === 'chat' && request.messages.at(-1)?.role === 'assistant') Object.assign(head, { continue_final_message: true, add_generation_prompt: false });
  if (options.stream) Object.assign(head, { stream: true, stream_options: { include_usage: true, ...(options.continuousUsage === true ? { continuous_usage_stats: true } : {}) } });
  for (const field of options.omit ?? []) delete head[field];
  return head;
}

/**
 * A request's body in pieces: its own parameters, then messages' bytes that
 * requests with the same messages share. A call waiting for a slot holds
 * these, and the one copy of the whole body is made as it is sent
 * (`joinBody`). A whole body per call, made before it waits, cost a copy of
 * the prompt for each of the thousands of calls a 100-problem run holds back
 * (the M verifications of a candidate share one prompt), outside V8's heap.
 */
export type BodyParts = readonly Uint8Array[];

/** The request's body in pieces: the model's parameters, then its messages. */
export async function requestBodyParts(request: CompletionRequest, encode: JsonEncoder | undefined, options: BodyOptions): Promise<BodyParts> {
  // `{"model":…,"seed":…` + `,"messages":[…]}`
  const prefix = Buffer.from(`${JSON.stringify(requestHead(request, options)).slice(0, -1)},"messages":`);
  const messages = options.omit?.has('system') === true ? foldedSystem(request.messages) : request.messages;
  return [prefix, await encodedMessages(messages, encode), CLOSE];
}

/**
 * Messages for an endpoint that refuses the system role: the system
 * message opens the first user message, a blank line between them, as the
 * chat templates without a system role that take one at all render it
 * (Gemma 3's); the model reads the same instructions.
 */
export function foldedSystem(messages: CompletionRequest['messages']): CompletionRequest['messages'] {
  const [system, user, ...rest] = messages;
  if (system?.role !== 'system' || user?.role !== 'user') return messages;
  return [{ role: 'user', content: `${system.content}\n\n${user.content}` }, ...rest];
}

/** The bytes to send of a body in pieces. */
export function joinBody(parts: BodyParts): Buffer {
  return Buffer.concat(parts);
}

/** The request's body: the model's parameters, then its messages. */
export async function requestBody(request: CompletionRequest, encode: JsonEncoder | undefined, options: BodyOptions): Promise<Buffer> {
  return joinBody(await requestBodyParts(request, encode, options));
}

const CLOSE = Buffer.from('}');

function encodedMessages(messages: CompletionRequest['messages'], encode: JsonEncoder | undefined): Promise<Uint8Array> {
  const [system, user, ...rest] = messages;
  if (system?.role !== 'system' || user?.role !== 'user' || rest.length > 0) return encodeNow(messages, encode);
  const cached = recent.get(user.content);
  if (cached !== undefined && cached.system === system.content) return cached.bytes;
  const chars = approximateChars(messages);
  const entry = { system: system.content, bytes: encodeNow(messages, encode, chars) };
  recent.set(user.content, entry, chars);
  // A failed encoding is not kept: the next request with these messages tries again.
  entry.bytes.catch(() => recent.delete(user.content, entry));
  return entry.bytes;
}

async function encodeNow(messages: CompletionRequest['messages'], encode: JsonEncoder | undefined, chars = approximateChars(messages)): Promise<Uint8Array> {
  if (encode !== undefined && chars >= OFF_THREAD_JSON_CHARS) return encode(messages);
  return Buffer.from(JSON.stringify(messages));
}
