/**
 * Server-sent events of a streamed chat completion, read in one pass.
 *
 * The `openai` client's own reader copies the rest of its buffer after every
 * event it cuts off; a network read of 64 kB holds a few hundred chunk events,
 * so a 130,000-token stream was copied hundreds of megabytes over and the
 * garbage held the event loop (p99 delay over a second at 64 such streams).
 * Here each read is decoded once and split on line ends; only the unfinished
 * last line is carried over. The events of one read come out together: a
 * generator's step costs a few promises, and a read holds dozens of events.
 */
import { APIError } from 'openai';

/** The JSON payloads of the `data:` events of each read, until `data: [DONE]` or the end; an `{"error": …}` event throws the server's error. */
export async function* sseEvents(body: AsyncIterable<Uint8Array>, headers: Headers): AsyncGenerator<unknown[]> {
  const decoder = new TextDecoder();
  // The line still arriving, in the pieces it came in: joined once whole, so a long line costs its length, not its length
  // times its reads (a 10 MB line is 160 reads of 64 kB; scanning all it had so far on each was quadratic).
  let pending: string[] = [];
  let data: string[] = [];
  const chunks = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      const { done, value } = await chunks.next();
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = text.split('\n');
      // The last piece is a line still arriving (or '' after a newline); at the end it is a line of its own.
      const rest = done ? '' : (lines.pop() ?? '');
      if (pending.length > 0 && lines.length > 0) {
        lines[0] = pending.join('') + (lines[0] ?? '');
        pending = [];
      }
      if (rest !== '') pending.push(rest);
      if (done) lines.push('');
      const events: unknown[] = [];
      for (const raw of lines) {
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (line === '') {
          if (data.length === 0) continue;
          const payload = data.join('\n');
          data = [];
          if (payload === '[DONE]') {
            if (events.length > 0) yield events;
            return;
          }
          let event: unknown;
          let failure: Error | null = null;
          try {
            event = JSON.parse(payload);
          } catch (error) {
            failure = error as Error;
          }
          if (failure === null && typeof event === 'object' && event !== null && 'error' in event && event.error) {
            failure = new APIError(undefined, event.error as object, undefined, headers);
          }
          if (failure !== null) {
            // The events before it in this read still reach the reader (its first token, its progress).
            if (events.length > 0) yield events;
            throw failure;
          }
          events.push(event);
        } else if (line.startsWith('data:')) {
          data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
        }
        // `event:`, `id:`, `retry:` and `:` comments carry nothing a chat completion needs.
      }
      if (events.length > 0) yield events;
      if (done) return;
    }
  } finally {
    await chunks.return?.();
  }
}
