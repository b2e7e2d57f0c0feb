/**
 * A whole JSON body's text, read to its end, or taken once all of its JSON
 * came when the end never does. A body whose connection broke after all of
 * its JSON came (a chunked body whose last, empty chunk never came) is the
 * reply: read as a failure, it was sent again, decoded and paid twice. So
 * is one whose connection stays open after it: a `Content-Length` larger
 * than the body, or a chunked body whose last chunk a proxy holds back
 * until its keep-alive timeout. Before, such a body waited out `--timeout`
 * (300 s by default) on every attempt, each paid again, and failed the
 * call. Once a read ends in `}` and nothing more comes for the grace (2 s,
 * the stream's), the text so far is parsed: whole JSON is the reply, and
 * the connection is dropped; anything else goes on waiting. One parse per
 * quiet spell, so a body that pauses after each `}` costs no more than its
 * pauses.
 */
import { ByteBuilder } from './byte-builder.ts';

/** The byte of `}`, and those of JSON's white space, which may follow it. */
const CLOSE_BRACE = 0x7d;
const WHITE_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** How the body is read: its grace, how a read's failure is told as the connection's own break, and how the connection is dropped. */
export interface WholeJsonReading {
  graceMs: number;
  /** Whether a read's failure is the connection breaking of itself (no bound of the call's cut it). */
  broke: (error: unknown) => boolean;
  /** Drops the connection of a body taken before its end. */
  cut: () => void;
}

/**
 * Whether the text read so far ends in `}`, white space after it aside,
 * given `chunk`, the last read, and whether the text before it did: a read
 * of white space alone (a line end written apart) keeps what was before.
 */
function endsInBrace(chunk: Uint8Array, before: boolean): boolean {
  for (let at = chunk.byteLength - 1; at >= 0; at--) {
    const byte = chunk[at] as number;
    if (WHITE_SPACE.has(byte)) continue;
    return byte === CLOSE_BRACE;
  }
  return before;
}

/** Whether `text` is one whole JSON object. */
function isWholeJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/** What a read, raced against the grace, gave: a read, or the grace passed first. */
const QUIET = Symbol('quiet');

/** `next`, or QUIET once `ms` pass first; the timer is cleared either way. */
async function orQuiet<R>(next: Promise<R>, ms: number): Promise<R | typeof QUIET> {
  let timer: NodeJS.Timeout | undefined;
  const quiet = new Promise<typeof QUIET>((resolve) => {
    timer = setTimeout(() => resolve(QUIET), ms);
  });
  try {
    return await Promise.race([next, quiet]);
  } finally {
    clearTimeout(timer);
  }
}

/** The body's text: to its end, or its whole JSON once the grace passed after it without a byte. */
export async function readWholeJson(body: AsyncIterable<Uint8Array>, reading: WholeJsonReading): Promise<string> {
  const gathered = new ByteBuilder();
  const iterator = body[Symbol.asyncIterator]();
  // Whether the last read ended in `}`: only then may a quiet spell mean the JSON is whole.
  let mayBeWhole = false;
  try {
    for (;;) {
      const next = iterator.next();
      let read = mayBeWhole ? await orQuiet(next, reading.graceMs) : await next;
      if (read === QUIET) {
        const text = gathered.text();
        if (isWholeJsonObject(text)) {
          // The pending read fails once the connection is dropped; nobody waits for it.
          next.catch(() => {});
          reading.cut();
          return text;
        }
        // Not whole yet: the same read, waited for under the call's own limits alone.
        read = await next;
      }
      if (read.done === true) return gathered.text();
      gathered.push(read.value);
      mayBeWhole = endsInBrace(read.value, mayBeWhole);
    }
  } catch (error) {
    if (!reading.broke(error)) throw error;
    const text = gathered.text();
    if (!isWholeJsonObject(text)) throw error;
    return text;
  }
}
