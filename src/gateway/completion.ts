/** The shapes of one chat completion as the gateway takes and gives it. */

/** Where a role's calls go. */
export interface Endpoint {
  baseUrl: string;
  model: string;
  apiKey: string;
}

/** One chat completion request. */
export interface CompletionRequest {
  endpoint: Endpoint;
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  maxTokens: number;
  temperature?: number;
  seed: number;
}

/** One chat completion result. */
export interface Completion {
  content: string;
  /** `reasoning_content` of reasoning models (vLLM, DeepSeek), kept apart from `content`. */
  reasoning: string | null;
  finishReason: string;
  usage: { promptTokens: number; completionTokens: number };
  attempts: number;
  latencyMs: number;
}
