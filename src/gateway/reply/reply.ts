/**
 * Reading one reply into what the gateway returns: a whole JSON body, or the
 * chunks of an event stream assembled into the same result. Nothing partial
 * comes out: a stream that ends without a finish reason and without
 * `data: [DONE]` is malformed. One closed by `[DONE]` said all it had to say:
 * its finish reason, when it gave none, is inferred once its tokens are known
 * (finish-reason.ts), as is that of one that gave a word tmas does not know.
 */
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { Completion } from './completion.ts';
import { messageTexts, type MessageTexts } from './message-texts.ts';
import { separateReasoning } from './reasoning.ts';
import { endsStream, readFinish, saysFinish, type FinishReason } from './finish-reason.ts';
import { ReplyError } from './reply-bounds.ts';
import { TextPieces } from './text-pieces.ts';
import { readUntilWhole, STREAM_DONE, type StreamGrace, type StreamState } from './stream-end.ts';
import { chunkUsage, limitedTokens, usageOf } from './usage-counts.ts';

/** A reply as read, before the gateway adds attempts and latency. */
export type Reply = Omit<Completion, 'attempts' | 'latencyMs' | 'replica' | 'countedTokens' | 'finishReason'> & {
  /** What the reply's finish reason means (finish-reason.ts); null when it gave none tmas knows, to be inferred from its tokens. */
  finishReason: FinishReason | null;
  /** The finish reason it gave instead of one tmas knows, shown; null when it gave one tmas knows, or none. */
  finishSaid: string | null;
  /** The choices it held, each index counted once: 1 as asked; more from a server that ignores `n` (its usage then counts them all and is dropped). */
  choices: number;
};

/** The choice a reply's `choices` hold for the call. */
type Choice = { index?: unknown; finish_reason?: unknown; message?: unknown; delta?: unknown; text?: unknown };

/**
 * The texts of a choice's `message` or `delta`; a choice that has neither a
 * content nor a reasoning there but a `text` (the completions route's field,
 * which some servers write on the chat route too) has that as its answer,
 * where it would otherwise be read as an empty reply.
 */
function choiceTexts(choice: Choice, field: 'message' | 'delta'): MessageTexts {
  const texts = messageTexts(choice[field]);
  if (texts.content !== '' || texts.reasoningField !== null || typeof choice.text !== 'string') return texts;
  return { ...texts, content: choice.text };
}

/**
 * The field a choice carries its texts in: `preferred` (a stream's `delta`,
 * a whole reply's `message`) when it holds an object, else the other one
 * when that does. A gateway that passes a whole reply on as one event of a
 * stream (`object: "chat.completion"`) sends a `message`, and one that
 * answers a request not streamed with a chunk's shape (the stream's last
 * chunk, aggregated) a `delta`: read by the expected field alone, either was
 * an empty answer, journaled and graded with nothing said. A chunk with both
 * (Perplexity's, whose message holds the text so far) is read by its delta.
 */
function textField(choice: Choice, preferred: 'message' | 'delta'): 'message' | 'delta' {
  const other = preferred === 'message' ? 'delta' : 'message';
  const isObject = (value: unknown) => typeof value === 'object' && value !== null;
  return !isObject(choice[preferred]) && isObject(choice[other]) ? other : preferred;
}

/**
 * What a `message` in a stream adds to what the chunks before it brought. A
 * message that starts with the text so far holds it (a whole completion sent
 * as one event, a server that sends the text so far, a last chunk repeating
 * the reply after its deltas): only its part past that is new. Read as more
 * text, such a repeat was added to the deltas, the answer and reasoning
 * written twice and their characters counted twice. One that does not is a
 * piece of its own when the stream carries its text in messages (no delta
 * brought any), and adds nothing after deltas: they are what was streamed.
 */
function unreadPart(texts: MessageTexts, read: ChoiceRead): MessageTexts {
  const past = (whole: string, sofar: string) => (whole.startsWith(sofar) ? whole.slice(sofar.length) : read.deltaText ? '' : whole);
  return { ...texts, content: past(texts.content, read.content.text()), reasoning: past(texts.reasoning, read.reasoning.text()) };
}

/**
 * The choice of `choices` numbered `index` (a server that numbers its only
 * choice otherwise: the first). A request sent with `n` above 1 (through
 * `--extra-body`) gets one choice per index, each in chunks of its own: read
 * as one, their texts were interleaved into one answer.
 */
function choiceOf(choices: unknown, index: number | null): Choice | undefined {
  if (!Array.isArray(choices)) return undefined;
  const all = choices as Choice[];
  if (all.length > 1) refuseRepeatedIndex(all);
  // A loop, not find(): this runs for every event of a stream.
  for (const choice of all) if (indexOf(choice) === (index ?? 0)) return choice;
  return index === null ? all[0] : undefined;
}

/**
 * Two choices of one index in one chunk (or one whole reply) are no reply
 * of a model: read before, the first was taken and the other's text dropped
 * without a word, the answer whichever the server listed first.
 */
function refuseRepeatedIndex(choices: Choice[]): void {
  const seen = new Set<number>();
  for (const choice of choices) {
    const index = indexOf(choice);
    if (seen.has(index)) throw new ReplyError('malformed', `the reply holds two choices numbered ${index}`);
    seen.add(index);
  }
}

/**
 * The usage of a reply that held `choices` choices: a server that sends
 * several where one was asked (it ignores `n`, or a proxy fans the request
 * out) counts all of them in its usage, which doubled the call's tokens and
 * failed a reply within its limit as past it; the choice read is then
 * counted by its text, as a reply without usage is.
 */
function usageOfChoices(usage: Reply['usage'], choices: number): Reply['usage'] {
  return choices > 1 ? null : usage;
}

/** A choice's index: 0 when it has none, or none that is a number (a server that writes it as a string: its digits). */
function indexOf(choice: Choice | undefined): number {
  const index = Number(choice?.index ?? 0);
  return Number.isSafeInteger(index) ? index : 0;
}

/** The model a reply names: a string, or none. */
function modelOf(reply: { model?: unknown }): string | null {
  return typeof reply.model === 'string' ? reply.model : null;
}

/**
 * Whether a choice's message or delta carries the model's refusal: OpenAI's
 * `refusal` field, a text set in place of the content (null) while the
 * finish reason says `stop`. Read as a whole reply, it was an empty answer,
 * graded wrong with nothing said; it is read as a filtered one.
 */
function refuses(choice: Choice, field: 'message' | 'delta'): boolean {
  const refusal: unknown = (choice[field] as { refusal?: unknown } | undefined)?.refusal;
  return typeof refusal === 'string' && refusal.trim() !== '';
}

/** The finish reason of a reply: the one it said, or content_filter for a refusal given in place of any answer. */
function finishOf(said: FinishReason | null, refused: boolean, content: string): FinishReason | null {
  return refused && content.trim() === '' ? 'content_filter' : said;
}

/** The result of a whole (non-streamed) reply. */
export function fromWholeReply(response: ChatCompletion): Reply {
  const choice = choiceOf(response.choices, null);
  if (!choice) throw new ReplyError('malformed', 'the response has no choices');
  const choices = (response.choices as unknown[]).length;
  const finish = readFinish(choice.finish_reason);
  const field = textField(choice, 'message');
  const texts = choiceTexts(choice, field);
  const separated = separateReasoning(texts.content, texts.reasoningField === null ? null : { text: texts.reasoning, dialect: texts.reasoningField }, finish.reason === 'length');
  return {
    content: separated.content,
    reasoning: separated.reasoning,
    reasoningDialect: separated.dialect,
    finishReason: finishOf(finish.reason, refuses(choice, field), separated.content),
    finishSaid: finish.said,
    usage: usageOfChoices(usageOf(response.usage), choices),
    model: modelOf(response),
    firstTokenMs: null,
    choices,
  };
}

/** What fromStream tells and asks of its caller. */
export interface StreamOptions {
  started: number;
  /** The characters of text each read brought, for the progress display's tokens per second. */
  onText?: (chars: number) => void;
  /** Each piece of text (answer or reasoning) as it comes, and how to have all of it so far and (a piece of the answer) the answer so far, for the counts of its tokens (reply-tokens.ts). */
  onDelta?: (piece: string, sofar: () => string, answerSofar: (() => string) | null) => void;
  /** The first read. */
  onFirstEvent?: () => void;
  /**
   * The completion tokens so far that a chunk carries (`continuous_usage_stats`), and of them those the
   * completion limit bounds (usage-counts.ts' limitedTokens), or null for a chunk with text and no usage.
   */
  onUsage?: (sofar: { completionTokens: number; limited: number } | null) => void;
  /** Choice 0 came after another choice was read (a server that sends several): what was told of that one's text no longer counts. */
  onRestart?: () => void;
  /**
   * A chunk's usage counted more completion tokens than any before it, whether or not it holds a choice (a server
   * that streams its usage on chunks of `choices: []` while it reasons in hidden): the server generates, though no text shows.
   */
  onCounted?: () => void;
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
  const end = await readUntilWhole(reads, assembly, options.whole, (chunks) => {
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
    return chars > 0;
  });
  return assembly.reply(firstTokenMs, end === STREAM_DONE);
}

/** The texts, finish reason and refusal a stream brought of the choice it is read for. */
class ChoiceRead {
  readonly content = new TextPieces();
  readonly reasoning = new TextPieces();
  /** The field the reasoning came in first; null while none came. */
  reasoningField: MessageTexts['reasoningField'] = null;
  /** The finish reason as the chunks said it, whatever its type; null while none said one. */
  finishReason: unknown = null;
  finished = false;
  /** Whether a delta carried the model's refusal (`refusal`). */
  refused = false;
  /** Whether any chunk brought text (answer or reasoning) to this choice. */
  hasText = false;
  /** Whether a `delta` brought text to this choice (a `message` after it then repeats what was streamed). */
  deltaText = false;

  constructor(readonly index: number) {}
}

/**
 * A stream's chunks as they come together: its texts, finish reason, usage
 * and model. The choice read is choice 0, as in a whole reply; until it
 * comes, the first choice seen (a server that numbers its only choice
 * otherwise). The choices of a reply of several are each sent under their
 * index, interleaved as the server decodes them: a choice 0 after another
 * is the one read from then on, and what was read of the other is let go
 * (`onRestart` tells the meters, which counted it).
 */
class StreamAssembly implements StreamState {
  /** The choice read; null while no choice came. */
  private read: ChoiceRead | null = null;
  /** The other choices' indexes, of a server that sends several where one was asked. */
  private readonly others = new Set<number>();
  usageSinceFinish = false;
  private usage: Reply['usage'] = null;
  private model: string | null = null;
  /** The most completion tokens a chunk's usage counted so far (onCounted). */
  private counted = 0;

  constructor(private readonly options: Pick<StreamOptions, 'onDelta' | 'onUsage' | 'onRestart' | 'onCounted'>) {}

  /**
   * Whether the choice read said a finish reason that ends it. A choice other
   * than 0 is not taken for finished: choice 0 may still come, however long
   * after (a proxy that sends a reply of several choices one after another),
   * so such a stream is read to its end. Before, a choice 1 that finished
   * first began the finish grace, and a choice 0 that came more than its 2 s
   * later was cut off: choice 1's text was taken as the reply.
   */
  get finished(): boolean {
    const read = this.read;
    return read !== null && read.finished && read.index === 0;
  }

  /** The finish reason the choice read said; null while none. */
  get finishReason(): unknown {
    return this.read?.finishReason ?? null;
  }

  /** Takes one chunk; returns the characters of text it brought to the choice read. */
  take(chunk: ChatCompletionChunk): number {
    this.model ??= modelOf(chunk);
    // Read once: with continuous usage every chunk carries one, and the count so far below is the same reading.
    const said = chunkUsage(chunk);
    const usage = said ? usageOf(said) : null;
    if (said) this.usage = usage;
    if (usage !== null && said?.completion_tokens != null && usage.completionTokens > this.counted) {
      this.counted = usage.completionTokens;
      this.options.onCounted?.();
    }
    if (Array.isArray(chunk.choices) && chunk.choices.length > 0) this.sortChoices(chunk.choices as Choice[]);
    const read = this.read;
    const choice = read === null ? undefined : choiceOf(chunk.choices, read.index);
    let chars = 0;
    if (read !== null && choice) {
      const field = textField(choice, 'delta');
      const texts = field === 'message' ? unreadPart(choiceTexts(choice, field), read) : choiceTexts(choice, field);
      read.refused ||= refuses(choice, field);
      if (texts.content !== '') chars += this.text(read.content, texts.content);
      if (texts.reasoningField !== null) {
        read.reasoningField ??= texts.reasoningField;
        if (texts.reasoning !== '') chars += this.text(read.reasoning, texts.reasoning);
      }
      read.hasText ||= chars > 0;
      read.deltaText ||= chars > 0 && field === 'delta';
      if (saysFinish(choice.finish_reason)) {
        read.finishReason = choice.finish_reason;
        read.finished ||= endsStream(choice.finish_reason);
      }
      // A chunk's usage without completion tokens says nothing of the count so far (null), as before usageOf read it.
      const sofar = said?.completion_tokens == null || usage === null ? null : { completionTokens: usage.completionTokens, limited: limitedTokens(usage) };
      // The count so far of a stream of several choices counts theirs too: it says nothing of this one's.
      if (sofar !== null && this.others.size === 0) this.options.onUsage?.(sofar);
      else if (chars > 0) this.options.onUsage?.(null);
    }
    // A usage ends the stream at once in a chunk without text that holds no choice of the reply (vLLM's, SGLang's, OpenAI's
    // usage chunk) or comes after its text (llama.cpp's finish chunk). One with text, or before any (a role's chunk), may be
    // of a server that says its finish reason and its usage so far on every chunk: its first words, or none, were taken whole.
    if (said && this.finished && chars === 0 && (choice === undefined || read?.hasText === true)) this.usageSinceFinish = true;
    return chars;
  }

  /**
   * Settles which choice is read, given a chunk's choices (refused when two
   * share an index): the first seen, until choice 0 comes; the others are
   * counted, their texts not kept.
   */
  private sortChoices(choices: Choice[]): void {
    if (choices.length > 1) refuseRepeatedIndex(choices);
    for (const choice of choices) {
      const index = indexOf(choice);
      if (this.read === null) this.read = new ChoiceRead(index);
      else if (index === 0 && this.read.index !== 0) this.restartAtChoiceZero();
      else if (index !== this.read.index) this.others.add(index);
    }
  }

  /** Choice 0 came after another was read: it is read from now on, the other counted among the others. */
  private restartAtChoiceZero(): void {
    const before = this.read as ChoiceRead;
    this.others.add(before.index);
    this.others.delete(0);
    this.read = new ChoiceRead(0);
    this.options.onRestart?.();
  }

  private text(pieces: TextPieces, piece: string): number {
    pieces.push(piece);
    this.options.onDelta?.(piece, this.sofar, pieces === this.read?.content ? this.answerSofar : null);
    return piece.length;
  }

  /** The text so far, reasoning first, as a server decodes it. */
  private readonly sofar = () => (this.read === null ? '' : this.read.reasoning.text() + this.read.content.text());

  /** The answer so far (its `content`: reasoning inline in it included, which such a server holds to the limit with the answer). */
  private readonly answerSofar = () => this.read?.content.text() ?? '';

  /**
   * The reply: nothing partial comes out, so a stream without a finish reason
   * is malformed unless `done` (it was closed by `[DONE]`) after a choice
   * came: a bare `[DONE]` is no reply of a model, which says at least its role.
   */
  reply(firstTokenMs: number | null, done: boolean): Reply {
    const read = this.read;
    if (read?.finishReason == null && !done) throw new ReplyError('malformed', 'the event stream ended before a finish reason, without data: [DONE]');
    if (read === null) throw new ReplyError('malformed', 'the event stream was closed by data: [DONE] before any choice came');
    const finish = readFinish(read.finishReason);
    const apart = read.reasoningField === null ? null : { text: read.reasoning.text(), dialect: read.reasoningField };
    const separated = separateReasoning(read.content.text(), apart, finish.reason === 'length');
    return {
      content: separated.content,
      reasoning: separated.reasoning,
      reasoningDialect: separated.dialect,
      finishReason: finishOf(finish.reason, read.refused, separated.content),
      finishSaid: finish.said,
      usage: usageOfChoices(this.usage, 1 + this.others.size),
      model: this.model,
      firstTokenMs,
      choices: 1 + this.others.size,
    };
  }
}
