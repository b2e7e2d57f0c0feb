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
import { InBandError } from './in-band-error.ts';

/** The JSON payloads of the `data:` events of each read, until `data: [DONE]` or the end; an `{"error": …}` event throws the server's error. */
export async function* sseEvents(body: AsyncIterable<Uint8Array>, headers: Headers): AsyncGenerator<unknown[]> {
  const decoder = new TextDecoder();
  // The line still arriving, in the pieces it came in: joined once whole, so a long line costs its length, not its length
  // times its reads (a 10 MB line is 160 reads of 64 kB; scanning all it had so far on each was quadratic).
  let pending: string[] = [];
  let data: string[] = [];
  // A read that ended in a CR: a LF opening the next one belongs to that line's end, and ends no other line.
  let afterCr = false;
  const chunks = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      const { done, value } = await chunks.next();
      let text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (afterCr && text.startsWith('\n')) text = text.slice(1);
      afterCr = text.endsWith('\r');
      // A line ends at CRLF, LF or a lone CR; the plain split, where there is no CR, is the common and cheaper case.
      const lines = text.includes('\r') ? text.split(/\r\n|\r|\n/) : text.split('\n');
      // The last piece is a line still arriving (or '' after a newline); at the end it is a line of its own.
      const rest = done ? '' : (lines.pop() ?? '');
      if (pending.length > 0 && lines.length > 0) {
        lines[0] = pending.join('') + (lines[0] ?? '');
        pending = [];
      }
      if (rest !== '') pending.push(rest);
      if (done) lines.push('');
      const events: unknown[] = [];
      for (const line of lines) {
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
            failure = new InBandError(event.error, headers);
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
