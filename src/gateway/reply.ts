/**
 * Reading one reply into what the gateway returns: a whole JSON body, or the
 * chunks of an event stream assembled into the same result. Nothing partial
 * comes out: a stream that ends without a finish reason is malformed.
 */
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { Completion } from './completion.ts';
import { separateReasoning } from './reasoning.ts';
import { ReplyError } from './reply-bounds.ts';
import { TextPieces } from './text-pieces.ts';

/** A reply as read, before the gateway adds attempts and latency. */
export type Reply = Omit<Completion, 'attempts' | 'latencyMs' | 'replica' | 'countedTokens'>;

interface ReasoningFields {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
}

function usageOf(usage: ChatCompletion['usage'] | null | undefined): Reply['usage'] {
  if (!usage) return null;
  return { promptTokens: usage.prompt_tokens ?? 0, completionTokens: usage.completion_tokens ?? 0 };
}

/** The result of a whole (non-streamed) reply. */
export function fromWholeReply(response: ChatCompletion): Reply {
  const choice = response.choices?.[0];
  if (!choice) throw new ReplyError('malformed', 'the response has no choices');
  const message = choice.message as ReasoningFields;
  const separated = separateReasoning(message.content ?? '', {
    reasoningContent: message.reasoning_content ?? null,
    reasoning: message.reasoning ?? null,
  });
  return {
    content: separated.content,
    reasoning: separated.reasoning,
    reasoningDialect: separated.dialect,
    finishReason: choice.finish_reason ?? 'unknown',
    usage: usageOf(response.usage),
    model: response.model ?? null,
    firstTokenMs: null,
  };
}

/**
 * Assembles streamed chunks, given as the chunks of each read. `onText` hears
 * of the text each read brought, for the progress display's tokens per
 * second; `onFirstEvent` of the first read; `onUsage` of the completion tokens
 * so far that a chunk carries (`continuous_usage_stats`), or of null for a
 * chunk with text and no usage.
 */
export async function fromStream(
  reads: AsyncIterable<ChatCompletionChunk[]>,
  options: { started: number; onText?: (chars: number) => void; onFirstEvent?: () => void; onUsage?: (completionTokens: number | null) => void },
): Promise<Reply> {
  const content = new TextPieces();
  const reasoningContent = new TextPieces();
  const reasoning = new TextPieces();
  let sawReasoningContent = false;
  let sawReasoning = false;
  let finishReason: string | null = null;
  let usage: Reply['usage'] = null;
  let model: string | null = null;
  let firstTokenMs: number | null = null;
  let first = true;
  for await (const chunks of reads) {
    if (first) {
      // The server's first event comes when the request is scheduled and prefilled: it runs from now on.
      first = false;
      options.onFirstEvent?.();
    }
    let chars = 0;
    for (const chunk of chunks) {
      model ??= chunk.model ?? null;
      if (chunk.usage) usage = usageOf(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const before = chars;
      const delta = choice.delta as ReasoningFields | undefined;
      if (delta?.content) {
        content.push(delta.content);
        chars += delta.content.length;
      }
      if (typeof delta?.reasoning_content === 'string') {
        sawReasoningContent = true;
        reasoningContent.push(delta.reasoning_content);
        chars += delta.reasoning_content.length;
      }
      if (typeof delta?.reasoning === 'string') {
        sawReasoning = true;
        reasoning.push(delta.reasoning);
        chars += delta.reasoning.length;
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
      const sofar = chunk.usage?.completion_tokens;
      if (typeof sofar === 'number') options.onUsage?.(sofar);
      else if (chars > before) options.onUsage?.(null);
    }
    if (chars > 0) {
      firstTokenMs ??= performance.now() - options.started;
      options.onText?.(chars);
    }
  }
  if (finishReason === null) throw new ReplyError('malformed', 'the event stream ended before a finish reason');
  const separated = separateReasoning(content.text(), {
    reasoningContent: sawReasoningContent ? reasoningContent.text() : null,
    reasoning: sawReasoning ? reasoning.text() : null,
  });
  return {
    content: separated.content,
    reasoning: separated.reasoning,
    reasoningDialect: separated.dialect,
    finishReason,
    usage,
    model,
    firstTokenMs,
  };
}
