/**
 * A reply's body as the server meant it: the content codings its
 * `Content-Encoding` names undone, the last applied first, as fetch does.
 *
 * tmas asks for no coding (it sends no `Accept-Encoding`), which HTTP reads
 * as any coding being acceptable, and a server or a proxy may compress
 * whatever it is asked. `deflate` is meant as a zlib stream, but servers
 * often send the raw deflate data instead (Python's `zlib.compressobj` with
 * negative window bits, old IIS): browsers and undici's fetch take both, and
 * so does this, told apart by the zlib header. Before, a raw deflate body
 * failed every attempt as 'the connection broke while the reply arrived
 * (incorrect header check)', and the run stopped as an endpoint down
 * advising to check the server or lower --concurrency. A coding tmas cannot
 * undo (zstd on a Node without it, `compress`), or a body its coding does not
 * decode, fails the attempt saying so.
 */
import { Duplex, PassThrough, pipeline, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { ReplyError } from '../reply/reply-bounds.ts';
import { thrownText } from '../../kernel/thrown-text.ts';

/** Node's zstd decoder, where this Node has one (22.15 on). */
const zstdDecoder = (zlib as unknown as { createZstdDecompress?: () => Duplex }).createZstdDecompress;

/** The decoder of each content coding tmas undoes. */
const DECODERS: ReadonlyMap<string, () => Duplex> = new Map<string, () => Duplex>([
  ['gzip', () => zlib.createGunzip()],
  ['x-gzip', () => zlib.createGunzip()],
  ['deflate', () => new DeflateDecoder()],
  ['br', () => zlib.createBrotliDecompress()],
  ...(zstdDecoder === undefined ? [] : [['zstd', () => zstdDecoder()] as const]),
]);

/** The failure of each decoder's error, by the error: the coding it decoded (read by `decodingFailure`). */
const failedCodings = new WeakMap<object, string>();

/**
 * `reply`'s bytes with its content codings undone; `reply` itself when it
 * names none (or `identity`). A coding tmas cannot undo gives a body that
 * fails its first read (`decodingFailure` names it).
 */
export function decodedBody(reply: Readable, contentEncoding: string | undefined): Readable {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return reply;
  const unknown = codings.find((coding) => !DECODERS.has(coding));
  if (unknown !== undefined) return failedBody(reply, unknown);
  const decoders = codings.reverse().map((coding) => {
    const decoder = (DECODERS.get(coding) as () => Duplex)();
    decoder.once('error', (error) => failedCodings.set(error, coding));
    return decoder;
  });
  // A pipeline, not a pipe: an error on any stream destroys them all and reaches the reader, never the process.
  pipeline([reply, ...decoders], () => {});
  return decoders.at(-1) as Duplex;
}

/**
 * The attempt's failure when `error` is a decoder's (a body its coding does
 * not decode, or a coding tmas cannot undo), else null: a damaged reply,
 * retried, not a connection that broke.
 */
export function decodingFailure(error: unknown): ReplyError | null {
  if (typeof error !== 'object' || error === null) return null;
  const coding = failedCodings.get(error);
  if (coding === undefined) return null;
  if (!DECODERS.has(coding)) {
    const known = [...DECODERS.keys()].filter((name) => name !== 'x-gzip').join(', ');
    return new ReplyError('malformed', `the reply came in the content coding "${coding}", which tmas cannot decode (it decodes ${known}): have the server or proxy send it uncompressed, or in one of those`);
  }
  const message = thrownText(error);
  return new ReplyError('malformed', `the reply's ${coding} coding did not decode (${message})`);
}

/** A body that fails its first read, naming the coding `coding` that tmas cannot undo; `reply` is let go. */
function failedBody(reply: Readable, coding: string): Readable {
  const body = new PassThrough();
  const error = new Error(`content coding ${coding}`);
  failedCodings.set(error, coding);
  reply.destroy();
  body.destroy(error);
  return body;
}

/**
 * A `deflate` body's decoder: zlib's inflate when it opens with a zlib
 * header, raw inflate otherwise, chosen on its first two bytes. Its output
 * waits for its reader (the inflate paused while the reader's buffer is
 * full), so a body that inflates a thousandfold is held a chunk at a time.
 */
class DeflateDecoder extends Duplex {
  private inflate: Transform | null = null;
  private head = Buffer.alloc(0);

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.inflate !== null) return void this.inflate.write(chunk, done);
    this.head = Buffer.concat([this.head, chunk]);
    if (this.head.length < 2) return done();
    this.start().write(this.head, done);
  }

  override _final(done: (error?: Error | null) => void): void {
    if (this.inflate !== null) this.inflate.end();
    else if (this.head.length === 0) this.push(null);
    // A body of one byte is no zlib stream: its inflate fails as a body cut short does.
    else this.start().end(this.head);
    done();
  }

  override _read(): void {
    this.inflate?.resume();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.inflate?.destroy();
    done(error);
  }

  private start(): Transform {
    const inflate = opensAsZlib(this.head) ? zlib.createInflate() : zlib.createInflateRaw();
    this.inflate = inflate;
    inflate.on('data', (data: Buffer) => {
      if (!this.push(data)) inflate.pause();
    });
    inflate.once('end', () => this.push(null));
    inflate.once('error', (error) => this.destroy(error));
    return inflate;
  }
}

/** Whether `head` opens a zlib stream (RFC 1950): deflate (method 8), its two bytes a multiple of 31. */
function opensAsZlib(head: Buffer): boolean {
  if (head.length < 2) return false;
  const first = head[0] as number;
  const second = head[1] as number;
  return (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0;
}
