/**
 * The part of an OpenAI chat completion request the simulator uses, read from
 * the parsed body with the checks an OpenAI-compatible server makes.
 */

/** One chat message, its content flattened to text. */
export interface ChatMessage {
  role: string;
  content: string;
}

/** A validated chat completion request. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  seed: number | null;
  temperature: number | null;
  /** `max_completion_tokens`, else `max_tokens`, else null (no limit). */
  maxTokens: number | null;
  /** Whether the limit came as `max_tokens` (which OpenAI's reasoning models refuse). */
  sentMaxTokens: boolean;
  /** Sampling fields besides the temperature that were sent (`top_p`, `top_k`, `min_p`). */
  sampling: string[];
  stream: boolean;
  /** `stream_options.include_usage`. */
  includeUsage: boolean;
  /** `stream_options.continuous_usage_stats` (vLLM, SGLang) with `include_usage`: usage so far in every chunk. */
  continuousUsage: boolean;
  /** `continue_final_message` (vLLM, SGLang): the reply continues the last message, the assistant's, rather than starting a new one. */
  continues: boolean;
}

/** Why a body is not a chat completion request: a message and the offending parameter. */
export interface RequestProblem {
  message: string;
  param: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text of a message content: a string, or the text parts of a content array. */
function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const part of content) {
    if (!isRecord(part) || part['type'] !== 'text' || typeof part['text'] !== 'string') return null;
    texts.push(part['text']);
  }
  return texts.join('\n');
}

/** Reads an optional numeric parameter; records a problem and gives null when it is not a number. */
function optionalNumber(body: Record<string, unknown>, name: string, integer: boolean, problems: RequestProblem[]): number | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    problems.push({ message: `'${name}' must be ${integer ? 'an integer' : 'a number'}`, param: name });
    return null;
  }
  return value;
}

/** Reads a parsed body as a chat completion request. */
export function toChatRequest(body: unknown, defaultModel: string): ChatRequest | RequestProblem {
  if (!isRecord(body)) return { message: 'the request body must be a JSON object', param: '' };
  const rawMessages = body['messages'];
  if (!Array.isArray(rawMessages) || rawMessages.length === 0) {
    return { message: "'messages' must be a non-empty array", param: 'messages' };
  }
  const messages: ChatMessage[] = [];
  for (const [index, message] of rawMessages.entries()) {
    const content = isRecord(message) ? textOf(message['content']) : null;
    if (!isRecord(message) || typeof message['role'] !== 'string' || content === null) {
      return { message: `messages[${index}] must be {role: string, content: string or text parts}`, param: `messages.[${index}]` };
    }
    messages.push({ role: message['role'], content });
  }
  const problems: RequestProblem[] = [];
  const seed = optionalNumber(body, 'seed', true, problems);
  const temperature = optionalNumber(body, 'temperature', false, problems);
  const limit = optionalNumber(body, 'max_completion_tokens', true, problems) ?? optionalNumber(body, 'max_tokens', true, problems);
  const first = problems[0];
  if (first) return first;
  if (limit !== null && limit < 1) return { message: `the completion token limit must be at least 1, got ${limit}`, param: 'max_tokens' };
  const n = body['n'];
  if (n !== undefined && n !== null && n !== 1) return { message: "'n' must be 1: the simulated model returns one choice", param: 'n' };
  const includeUsage = isRecord(body['stream_options']) && body['stream_options']['include_usage'] === true;
  const continues = body['continue_final_message'] === true;
  const refused = continues ? continuationProblem(body, messages) : null;
  if (refused !== null) return refused;
  return {
    model: typeof body['model'] === 'string' && body['model'] !== '' ? body['model'] : defaultModel,
    messages,
    seed,
    temperature,
    maxTokens: limit,
    sentMaxTokens: body['max_tokens'] !== undefined && body['max_tokens'] !== null,
    sampling: ['top_p', 'top_k', 'min_p'].filter((name) => body[name] !== undefined && body[name] !== null),
    stream: body['stream'] === true,
    includeUsage,
    continuousUsage: includeUsage && isRecord(body['stream_options']) && body['stream_options']['continuous_usage_stats'] === true,
    continues,
  };
}

/** What vLLM refuses in a request that continues its last message: the generation prompt left on (its default), or no assistant message to continue. */
function continuationProblem(body: Record<string, unknown>, messages: readonly ChatMessage[]): RequestProblem | null {
  if (body['add_generation_prompt'] !== false) {
    return { message: 'Cannot set both `continue_final_message` and `add_generation_prompt` to True.', param: 'continue_final_message' };
  }
  if (messages.at(-1)?.role !== 'assistant') return { message: '`continue_final_message` needs the last message to be the assistant\'s, to continue', param: 'continue_final_message' };
  return null;
}

/** True when `toChatRequest` rejected the body. */
export function isRequestProblem(value: ChatRequest | RequestProblem): value is RequestProblem {
  return 'param' in value;
}
