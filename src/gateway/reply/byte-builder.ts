/**
 * A body read whole, gathered as it comes into one buffer that grows by
 * doubling. Kept as the list of chunks the connection gave, a body's memory
 * was its bytes plus an object per chunk: a server (or proxy) that sends its
 * body in chunks of a few bytes each, within the byte limits on a reply, a
 * model list or an error body, held about 40 times those bytes (a model list
 * cut at its 32 MiB limit, sent 11 bytes a chunk, took 1.3 GB), and a whole
 * reply of a long window as many at once as calls were in flight. Copied in,
 * each chunk is garbage at once, and the memory is at most twice the bytes.
 */
export class ByteBuilder {
  private buffer = Buffer.allocUnsafe(0);
  private size = 0;

  /** The bytes gathered so far. */
  get length(): number {
    return this.size;
  }

  /** Appends `chunk`. */
  push(chunk: Uint8Array): void {
    const needed = this.size + chunk.byteLength;
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2, 16 * 1024));
      this.buffer.copy(grown, 0, 0, this.size);
      this.buffer = grown;
    }
    this.buffer.set(chunk, this.size);
    this.size = needed;
  }

  /** The bytes gathered, in one buffer (a view of the builder's, valid until the next push). */
  bytes(): Buffer {
    return this.buffer.subarray(0, this.size);
  }

  /** The bytes gathered, as UTF-8 text. */
  text(): string {
    return this.buffer.toString('utf8', 0, this.size);
  }
}

/** Reads a whole (bounded) body into one buffer. */
export async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const gathered = new ByteBuilder();
  for await (const chunk of body) gathered.push(chunk);
  return gathered.bytes();
}
