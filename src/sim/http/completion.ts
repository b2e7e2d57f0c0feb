/**
 * The OpenAI chat completion response the simulator sends. Token counts are
 * approximations, ceil(characters / 4) per text plus 4 per prompt message for
 * the chat framing, not a real tokenizer's counts; `max_tokens` is honoured in
 * the same unit, by cutting the text at 4 characters per token.
 */
import { CHARS_PER_TOKEN, tokensOf } from '../model/filler.ts';
import type { ChatMessage } from './request.ts';

/** Per-message framing tokens, as OpenAI documents for its chat format. */
const MESSAGE_OVERHEAD = 4;

/** Approximate prompt tokens of a request. */
export function promptTokensOf(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + tokensOf(m.content) + MESSAGE_OVERHEAD, 0);
}

/** A reply after the completion limit: what is sent and why it stopped. */
export interface Finished {
  content: string;
  reasoning: string | null;
  finishReason: 'stop' | 'length';
  completionTokens: number;
}

/**
 * Applies the completion limit. Reasoning comes first in generation, so it
 * takes its share of the budget before the content does.
 */
export function finish(content: string, reasoning: string | null, maxTokens: number | null): Finished {
  const reasoningTokens = reasoning === null ? 0 : tokensOf(reasoning);
  const contentTokens = tokensOf(content);
  if (maxTokens === null || reasoningTokens + contentTokens <= maxTokens) {
    return { content, reasoning, finishReason: 'stop', completionTokens: reasoningTokens + contentTokens };
  }
  if (reasoning !== null && reasoningTokens >= maxTokens) {
    return { content: '', reasoning: reasoning.slice(0, maxTokens * CHARS_PER_TOKEN), finishReason: 'length', completionTokens: maxTokens };
  }
  const left = maxTokens - reasoningTokens;
  return { content: content.slice(0, left * CHARS_PER_TOKEN), reasoning, finishReason: 'length', completionTokens: maxTokens };
}

/** The fields of a response besides the reply. */
export interface ResponseMeta {
  id: string;
  created: number;
  model: string;
  promptTokens: number;
}

/** How the simulated server sends reasoning: as vLLM's and DeepSeek's `reasoning_content`, newer vLLM's and OpenRouter's `reasoning`, or inline `<think>…</think>` (no reasoning parser). */
export type SimReasoningDialect = 'reasoning_content' | 'reasoning' | 'think-tags';

/** The simulator's reasoning dialects, for the CLI. */
export const SIM_REASONING_DIALECTS: readonly SimReasoningDialect[] = ['reasoning_content', 'reasoning', 'think-tags'];

/** The message fields of a reply in a dialect. */
function messageOf(reply: Finished, dialect: SimReasoningDialect): { content: string; reasoning_content?: string; reasoning?: string } {
  if (reply.reasoning === null) return { content: reply.content };
  if (dialect === 'think-tags') {
    // A reply cut inside its thinking never wrote the closing tag.
    const cutInThought = reply.finishReason === 'length' && reply.content === '';
    return { content: cutInThought ? `<think>\n${reply.reasoning}` : `<think>\n${reply.reasoning}\n</think>\n\n${reply.content}` };
  }
  return dialect === 'reasoning' ? { content: reply.content, reasoning: reply.reasoning } : { content: reply.content, reasoning_content: reply.reasoning };
}

/** The OpenAI response body. The reasoning is present only when the server sends reasoning, in `dialect`. */
export function toResponseBody(meta: ResponseMeta, reply: Finished, dialect: SimReasoningDialect = 'reasoning_content') {
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    system_fingerprint: 'tmas-sim',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant' as const,
          ...messageOf(reply, dialect),
          refusal: null,
        },
        logprobs: null,
        finish_reason: reply.finishReason,
      },
    ],
    usage: {
      prompt_tokens: meta.promptTokens,
      completion_tokens: reply.completionTokens,
      total_tokens: meta.promptTokens + reply.completionTokens,
    },
  };
}
