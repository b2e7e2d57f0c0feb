/**
 * Reading one reply into what the gateway returns: a whole JSON body, or the
 * chunks of an event stream assembled into the same result. Nothing partial
 * comes out: a stream that ends without a finish reason is malformed.
 */
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { Completion } from './completion.ts';
import { separateReasoning } from './reasoning.ts';
import { refuseUnfinished } from './finish-reason.ts';
import { ReplyError } from './reply-bounds.ts';
import { TextPieces } from './text-pieces.ts';
import { readUntilWhole, type StreamGrace, type StreamState } from './stream-end.ts';

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
  refuseUnfinished(choice.finish_reason);
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

/** What fromStream tells and asks of its caller. */
export interface StreamOptions {
  started: number;
  /** The characters of text each read brought, for the progress display's tokens per second. */
  onText?: (chars: number) => void;
  /** Each piece of text (answer or reasoning) as it comes, and how to have all of it so far, for the count of its tokens (token-meter.ts). */
  onDelta?: (piece: string, sofar: () => string) => void;
  /** The first read. */
  onFirstEvent?: () => void;
  /** The completion tokens so far that a chunk carries (`continuous_usage_stats`), or null for a chunk with text and no usage. */
  onUsage?: (completionTokens: number | null) => void;
  /** How long a stream that sent its finish reason but no usage since may take to end (stream-end.ts), and how to drop it then; without, it is read to its end. */
  whole?: StreamGrace;
}

/**
 * Assembles streamed chunks, given as the chunks of each read, into the
 * reply; the stream is taken as whole at its end, at `[DONE]`, or before
 * them by the rule of stream-end.ts.
 */
export async function fromStream(reads: AsyncIterable<ChatCompletionChunk[]>, options: StreamOptions): Promise<Reply> {
  const assembly = new StreamAssembly(options);
  let firstTokenMs: number | null = null;
  let first = true;
  await readUntilWhole(reads, assembly, options.whole, (chunks) => {
    if (first) {
      // The server's first event comes when the request is scheduled and prefilled: it runs from now on.
      first = false;
      options.onFirstEvent?.();
    }
    let chars = 0;
    for (const chunk of chunks) chars += assembly.take(chunk);
    if (chars > 0) {
      firstTokenMs ??= performance.now() - options.started;
      options.onText?.(chars);
    }
  });
  return assembly.reply(firstTokenMs);
}

/** A stream's chunks as they come together: its texts, finish reason, usage and model. */
class StreamAssembly implements StreamState {
  private readonly content = new TextPieces();
  private readonly reasoningContent = new TextPieces();
  private readonly reasoning = new TextPieces();
  private sawReasoningContent = false;
  private sawReasoning = false;
  finishReason: string | null = null;
  usageSinceFinish = false;
  private usage: Reply['usage'] = null;
  private model: string | null = null;

  constructor(private readonly options: Pick<StreamOptions, 'onDelta' | 'onUsage'>) {}

  /** Takes one chunk; returns the characters of text it brought. */
  take(chunk: ChatCompletionChunk): number {
    this.model ??= chunk.model ?? null;
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    let chars = 0;
    if (choice) {
      const delta = choice.delta as ReasoningFields | undefined;
      if (delta?.content) chars += this.text(this.content, delta.content);
      if (typeof delta?.reasoning_content === 'string') {
        this.sawReasoningContent = true;
        chars += this.text(this.reasoningContent, delta.reasoning_content);
      }
      if (typeof delta?.reasoning === 'string') {
        this.sawReasoning = true;
        chars += this.text(this.reasoning, delta.reasoning);
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
      const sofar = chunk.usage?.completion_tokens;
      if (typeof sofar === 'number') this.options.onUsage?.(sofar);
      else if (chars > 0) this.options.onUsage?.(null);
    }
    if (chunk.usage && this.finishReason !== null) this.usageSinceFinish = true;
    return chars;
  }

  private text(pieces: TextPieces, piece: string): number {
    pieces.push(piece);
    this.options.onDelta?.(piece, this.sofar);
    return piece.length;
  }

  /** The text so far, reasoning first, as a server decodes it. */
  private readonly sofar = () => this.reasoningContent.text() + this.reasoning.text() + this.content.text();

  /** The reply: nothing partial comes out, so a stream without a finish reason is malformed. */
  reply(firstTokenMs: number | null): Reply {
    if (this.finishReason === null) throw new ReplyError('malformed', 'the event stream ended before a finish reason');
    refuseUnfinished(this.finishReason);
    const separated = separateReasoning(this.content.text(), {
      reasoningContent: this.sawReasoningContent ? this.reasoningContent.text() : null,
      reasoning: this.sawReasoning ? this.reasoning.text() : null,
    });
    return {
      content: separated.content,
      reasoning: separated.reasoning,
      reasoningDialect: separated.dialect,
      finishReason: this.finishReason,
      usage: this.usage,
      model: this.model,
      firstTokenMs,
    };
  }
}
