/**
 * The streamed reply (`"stream": true`): server-sent events in the shape vLLM
 * sends, one `chat.completion.chunk` per few tokens, paced at a configurable
 * rate, then the usage chunk (with `stream_options.include_usage`) and
 * `data: [DONE]`. The text streamed is exactly the text a whole reply holds.
 * Under the capacity model, with `continuous_usage_stats` as well, every chunk
 * carries the usage so far, as vLLM and SGLang send it: the completion tokens
 * grow evenly over the pieces, up to the drawn count.
 */
import type { ServerResponse } from 'node:http';
import { CHARS_PER_TOKEN } from '../model/filler.ts';
import type { toResponseBody } from './completion.ts';

/** How a stream is paced. */
export interface StreamSettings {
  /** Tokens per second per stream; 0: as fast as the socket takes them. Default: SIM_DEFAULTS.stream. */
  tokensPerSecond?: number;
  /** Tokens per chunk. Default: SIM_DEFAULTS.stream. */
  chunkTokens?: number;
}

type Body = ReturnType<typeof toResponseBody>;

/** The deltas of a reply: reasoning first (it is generated first), then content, each cut into pieces of `size` characters. */
function deltas(message: Body['choices'][number]['message'], size: number): Array<Record<string, string>> {
  const pieces: Array<Record<string, string>> = [];
  const cut = (field: string, text: string) => {
    for (let at = 0; at < text.length; at += size) pieces.push({ [field]: text.slice(at, at + size) });
  };
  const fields = message as Record<string, unknown>;
  for (const field of ['reasoning_content', 'reasoning']) if (typeof fields[field] === 'string') cut(field, fields[field]);
  cut('content', message.content);
  return pieces;
}

/** The fault of a stream, half-way through it. */
export function strike(res: ServerResponse, fault: 'stall' | 'reset' | 'malformed' | null, hold: (res: ServerResponse) => void): void {
  if (fault === 'stall') hold(res);
  // The reset comes once what was written left, as when a server dies mid-stream: destroyed at once, the
  // socket could drop the whole reply unsent, which a client cannot tell from a kept connection closed idle.
  else if (fault === 'reset') res.write('data: {"choices": [{"delta"', () => res.socket?.destroy());
  else res.end('data: {"choices": [{"delta": {"content": "cut\n\n');
}

/**
 * Streams `body`. A fault strikes after half the chunks: `stall` holds the
 * socket open and silent, `reset` destroys it, `malformed` sends an event that
 * is not JSON and ends. `sleep` resolves false when the server closes, which
 * ends the stream.
 */
export async function sendStream(
  res: ServerResponse,
  body: Body,
  options: {
    settings: Required<StreamSettings>;
    usage: StreamUsage;
    fault: 'stall' | 'reset' | 'malformed' | null;
    sleep: (ms: number) => Promise<boolean>;
    hold: (res: ServerResponse) => void;
  },
): Promise<void> {
  if (res.destroyed) return;
  const { chunkTokens, tokensPerSecond: pace } = options.settings;
  const gapMs = pace > 0 ? (chunkTokens / pace) * 1000 : 0;
  const events = toStreamEvents(body, chunkTokens, options.usage);
  if (events === null) return;
  openStream(res, events);
  const faultAt = options.fault === null ? -1 : Math.floor(events.pieces.length / 2);
  // Unpaced, the pieces go out in batches: one write per piece cost a system call each way per 8 tokens.
  const batch = gapMs > 0 ? 1 : UNPACED_BATCH;
  for (let index = 0; index < events.pieces.length; ) {
    if (index === faultAt) return strike(res, options.fault, options.hold);
    if (gapMs > 0 && !(await options.sleep(gapMs))) return;
    if (res.destroyed) return;
    const end = Math.min(events.pieces.length, index + batch, faultAt > index ? faultAt : Infinity);
    let text = '';
    for (; index < end; index++) text += (events.pieces[index] as () => string)();
    const flushed = res.write(text);
    if (!flushed) await drainedOrClosed(res);
  }
  if (options.fault !== null) return strike(res, options.fault, options.hold);
  closeStream(res, events);
}

/** Pieces written at once when a stream is not paced: about 2,000 tokens, a few tens of kilobytes. */
const UNPACED_BATCH = 256;

/**
 * Resolves when the reply may take more (or is gone), and leaves no listener
 * behind: a long reply waits here at every full buffer, and the listener of
 * the event that did not come would pile up on the response (Node warned of
 * 11 'close' listeners on one reply at 8,000-token outputs).
 */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** The server-sent events of one streamed reply; the pieces are built when written, so a long reply is not held twice. */
export interface StreamEvents {
  opening: string;
  pieces: Array<() => string>;
  closing: string[];
}

/** The usage a stream sends (`stream_options`): at its end (`include_usage`), and in every chunk too (`continuous_usage_stats`). */
export interface StreamUsage {
  final: boolean;
  continuous: boolean;
}

/** The events of `body` cut into pieces of `chunkTokens`; null for a body without a choice. */
export function toStreamEvents(body: Body, chunkTokens: number, usage: StreamUsage): StreamEvents | null {
  const choice = body.choices[0];
  if (!choice) return null;
  const head = { id: body.id, object: 'chat.completion.chunk', created: body.created, model: body.model, system_fingerprint: body.system_fingerprint };
  const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
  const deltaList = deltas(choice.message, chunkTokens * CHARS_PER_TOKEN);
  const { prompt_tokens: promptTokens, completion_tokens: completionTokens } = body.usage;
  /** The usage after `generated` tokens, in chunks that carry it. */
  const sofar = (generated: number) => (usage.continuous ? { usage: { prompt_tokens: promptTokens, completion_tokens: generated, total_tokens: promptTokens + generated } } : {});
  const closing = [event({ ...head, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: choice.finish_reason }], ...sofar(completionTokens) })];
  if (usage.final) closing.push(event({ ...head, choices: [], usage: body.usage }));
  closing.push('data: [DONE]\n\n');
  return {
    opening: event({ ...head, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }], ...sofar(0) }),
    pieces: deltaList.map(
      (delta, index) => () => event({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: null }], ...sofar(Math.round((completionTokens * (index + 1)) / deltaList.length)) }),
    ),
    closing,
  };
}

/** Sends the headers and the role chunk. */
export function openStream(res: ServerResponse, events: StreamEvents): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(events.opening);
}

/** Sends the finishing chunk, the usage chunk when asked, and [DONE]. */
export function closeStream(res: ServerResponse, events: StreamEvents): void {
  const [last, ...rest] = events.closing;
  res.write(last ?? '');
  const done = rest.pop() ?? '';
  for (const event of rest) res.write(event);
  res.end(done);
}
